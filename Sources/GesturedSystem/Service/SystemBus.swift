internal import CLinuxInput
internal import Glibc

/// A value of a D-Bus message body, decoded into Swift (sd-bus reads it; nothing of sd-bus
/// leaves this file).
public indirect enum BusValue: Sendable, Hashable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor (not kept: nothing here takes one).
    case unixFD
    case array([BusValue])
    case structure([BusValue])
    case variant(BusValue)
    case dictEntry(BusValue, BusValue)

    /// The text of a string, object path or signature (through a variant).
    public var text: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let v): v.text
        default: nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .bool(let b): b
        case .variant(let v): v.boolValue
        default: nil
        }
    }

    public var uint32Value: UInt32? {
        switch self {
        case .uint32(let u): u
        case .variant(let v): v.uint32Value
        default: nil
        }
    }

    /// The elements of an array or the fields of a struct (through a variant).
    public var elements: [BusValue]? {
        switch self {
        case .array(let a), .structure(let a): a
        case .variant(let v): v.elements
        default: nil
        }
    }

    /// An `a{sv}` (or any array of string-keyed dict entries) as a dictionary, variants
    /// unwrapped.
    public var dictionary: [String: BusValue]? {
        guard case .array(let entries) = self else { return nil }
        var result: [String: BusValue] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry, let name = key.text else { return nil }
            if case .variant(let inner) = value { result[name] = inner } else { result[name] = value }
        }
        return result
    }
}

/// A D-Bus error reply (`org.freedesktop.DBus.Error.NameHasNoOwner`, …) or a local failure.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}

/// A received signal or method reply.
public struct BusMessage: Sendable, Hashable {
    /// The sender's unique name (":1.42"), or "org.freedesktop.DBus" for the bus itself.
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    public var body: [BusValue]
}

/// One connection to a D-Bus system bus through sd-bus, driven by an ``EventLoop``: its
/// socket is watched by the loop (readable always, writable while sd-bus has queued output),
/// and sd-bus's own deadline (method-call timeouts) is a loop timer. Nothing blocks: the
/// connection is set up, matches are installed and methods are called asynchronously, and
/// replies and signals run their handlers on the loop thread.
///
/// Confinement: every method must be called on the loop thread (from an actor whose executor
/// is the loop). `@unchecked Sendable` only so that blocks queued on the loop may capture it.
public final class SystemBus: @unchecked Sendable {
    /// Where the system bus listens when `DBUS_SYSTEM_BUS_ADDRESS` is not set.
    public static let defaultAddress = "unix:path=/run/dbus/system_bus_socket"

    /// The address of the system bus for an environment: `DBUS_SYSTEM_BUS_ADDRESS`, else
    /// ``defaultAddress`` (what `sd_bus_open_system` does).
    public static func address(environment: [String: String]) -> String {
        if let address = environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty { return address }
        return defaultAddress
    }

    private let loop: EventLoop
    private var bus: OpaquePointer?
    private var watch: FileWatch?
    private var timer: LoopTimer?
    private var isProcessing = false
    private var closeRequested = false
    private var dispatchQueued = false
    private let onClosed: (String) -> Void
    public let address: String

    /// Connects to the bus at `address` (the connection completes asynchronously; calls made
    /// before go out once it has).
    /// - Parameter onClosed: called once, on the loop thread, if the connection is lost.
    /// - Throws: when the address is malformed or its socket cannot be connected (no bus).
    public init(address: String, loop: EventLoop, onClosed: @escaping (String) -> Void) throws(SystemError) {
        self.loop = loop
        self.address = address
        self.onClosed = onClosed
        var bus: OpaquePointer?
        var r = sd_bus_new(&bus)
        guard r >= 0, let bus else { throw SystemError(operation: "create an sd-bus connection", errno: Errno(rawValue: -r)) }
        r = sd_bus_set_address(bus, address)
        if r >= 0 { r = sd_bus_set_bus_client(bus, 1) }
        if r >= 0 { r = sd_bus_start(bus) }
        guard r >= 0 else {
            sd_bus_unref(bus)
            throw SystemError(operation: "connect to the system bus", path: address, errno: Errno(rawValue: -r))
        }
        self.bus = bus
        let fd = sd_bus_get_fd(bus)
        do {
            watch = try loop.watch(fd) { [weak self] in self?.process() }
        } catch {
            sd_bus_close_unref(bus)
            self.bus = nil
            throw SystemError(operation: "watch the system bus connection", path: address, errno: error)
        }
        timer = loop.makeTimer { [weak self] in self?.process() }
        updateInterest()
    }

    deinit {
        if let bus { sd_bus_close_unref(bus) }
    }

    /// Whether the connection is still up.
    public var isOpen: Bool { bus != nil }

    /// Installs a match rule (`type='signal',…`, D-Bus specification) and calls `handler`
    /// for every message it matches. A rule the bus refuses closes the connection.
    public func addMatch(_ rule: String, handler: @escaping (BusMessage) -> Void) throws(SystemError) {
        guard let bus else { throw SystemError(operation: "add a match on the closed system bus", errno: .connectionReset) }
        let box = Unmanaged.passRetained(HandlerBox(messages: handler)).toOpaque()
        let r = gestured_bus_add_match_async(bus, rule, busMessageCallback, nil, busDestroyCallback, box)
        if r < 0 {
            Unmanaged<HandlerBox>.fromOpaque(box).release()
            throw SystemError(operation: "add the match \(rule)", errno: Errno(rawValue: -r))
        }
        scheduleProcessing()
    }

    /// Calls a method; `reply` runs on the loop thread with the reply's body or its error
    /// (sd-bus turns a timeout or a lost connection into an error reply).
    /// - Parameter arguments: strings, object paths, booleans and 32-bit unsigned integers.
    public func call(
        destination: String,
        path: String,
        interface: String,
        member: String,
        arguments: [BusValue] = [],
        timeoutMicroseconds: UInt64 = 0,
        reply: @escaping (Result<BusMessage, BusError>) -> Void
    ) {
        guard let bus else {
            fail(reply, BusError(name: "org.freedesktop.DBus.Error.Disconnected", message: "the system bus connection is closed"))
            return
        }
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard r >= 0, let message else {
            fail(reply, BusError(name: "org.freedesktop.DBus.Error.Failed", message: "cannot create the call \(interface).\(member): \(Errno(rawValue: -r))"))
            return
        }
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            r = Self.append(argument, to: message)
            guard r >= 0 else {
                fail(reply, BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "cannot append \(argument) to \(interface).\(member)"))
                return
            }
        }
        let box = Unmanaged.passRetained(HandlerBox(decoded: { decoded in
            if let error = decoded.error { reply(.failure(error)) } else { reply(.success(decoded.message)) }
        })).toOpaque()
        r = gestured_bus_call_async(bus, message, busMessageCallback, busDestroyCallback, box, timeoutMicroseconds)
        if r < 0 {
            Unmanaged<HandlerBox>.fromOpaque(box).release()
            fail(reply, BusError(name: "org.freedesktop.DBus.Error.Failed", message: "cannot send \(interface).\(member): \(Errno(rawValue: -r))"))
            return
        }
        scheduleProcessing()
    }

    /// Closes the connection (pending calls are dropped without their replies).
    public func close() {
        if isProcessing {
            closeRequested = true
            return
        }
        watch?.cancel()
        watch = nil
        timer?.cancel()
        timer = nil
        // Not flushed: nothing queued matters once closing, and a flush could wait on a
        // wedged bus with the loop blocked.
        if let bus { sd_bus_close_unref(bus) }
        bus = nil
    }

    /// Failures found while making a call, answered on the next processing pass: replies
    /// always come later, never from inside the call.
    private var failedCalls: [(reply: (Result<BusMessage, BusError>) -> Void, error: BusError)] = []

    private func fail(_ reply: @escaping (Result<BusMessage, BusError>) -> Void, _ error: BusError) {
        failedCalls.append((reply, error))
        scheduleProcessing()
    }

    /// Processes once the current work on the loop is done (after a call queued output).
    private func scheduleProcessing() {
        guard !dispatchQueued else { return }
        dispatchQueued = true
        loop.execute { [weak self] in
            guard let self else { return }
            self.dispatchQueued = false
            let failed = self.failedCalls
            self.failedCalls.removeAll()
            for call in failed { call.reply(.failure(call.error)) }
            self.process()
        }
    }

    /// Lets sd-bus read, write and dispatch until it has nothing left, then tells the loop
    /// what to wait for next.
    private func process() {
        guard let bus, !isProcessing else { return }
        isProcessing = true
        var lost: String?
        while true {
            let r = sd_bus_process(bus, nil)
            if r < 0 {
                lost = "\(Errno(rawValue: -r))"
                break
            }
            if r == 0 || closeRequested { break }
        }
        isProcessing = false
        if closeRequested {
            close()
            return
        }
        if lost == nil, sd_bus_is_open(bus) <= 0 { lost = "the bus closed the connection" }
        if let lost {
            close()
            onClosed(lost)
            return
        }
        updateInterest()
    }

    private func updateInterest() {
        guard let bus else { return }
        let events = sd_bus_get_events(bus)
        if events >= 0, Int16(events) & Int16(POLLOUT) != 0 {
            if watch?.watchesWritable == false { watch?.setWritableHandler { [weak self] in self?.process() } }
        } else {
            watch?.setWritableHandler(nil)
        }
        var deadline: UInt64 = 0
        if sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max {
            // Absolute CLOCK_MONOTONIC µs, the loop timer's clock; 0 = process at once.
            timer?.schedule(atMonotonicMicroseconds: Int64(min(deadline, UInt64(Int64.max))))
        } else {
            timer?.disarm()
        }
    }

    // MARK: Messages

    private static func append(_ value: BusValue, to message: OpaquePointer) -> Int32 {
        switch value {
        case .string(let s): return s.withCString { sd_bus_message_append_basic(message, typeCode("s"), $0) }
        case .objectPath(let s): return s.withCString { sd_bus_message_append_basic(message, typeCode("o"), $0) }
        case .bool(let b):
            var v: Int32 = b ? 1 : 0
            return sd_bus_message_append_basic(message, typeCode("b"), &v)
        case .uint32(let u):
            var v = u
            return sd_bus_message_append_basic(message, typeCode("u"), &v)
        default:
            return -EINVAL
        }
    }

    fileprivate static func decode(_ message: OpaquePointer) -> (message: BusMessage, error: BusError?) {
        func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        var decoded = BusMessage(
            sender: text(sd_bus_message_get_sender(message)),
            path: text(sd_bus_message_get_path(message)),
            interface: text(sd_bus_message_get_interface(message)),
            member: text(sd_bus_message_get_member(message)),
            body: []
        )
        if sd_bus_message_is_method_error(message, nil) > 0 {
            let error = sd_bus_message_get_error(message)
            return (decoded, BusError(name: text(error?.pointee.name) ?? "org.freedesktop.DBus.Error.Failed", message: text(error?.pointee.message) ?? ""))
        }
        decoded.body = readValues(message)
        return (decoded, nil)
    }

    private static func readValues(_ message: OpaquePointer) -> [BusValue] {
        var values: [BusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            guard sd_bus_message_peek_type(message, &type, &contents) > 0, let value = readValue(message, type, contents) else { break }
            values.append(value)
        }
        return values
    }

    private static func readValue(_ message: OpaquePointer, _ type: CChar, _ contents: UnsafePointer<CChar>?) -> BusValue? {
        func basic<T: BitwiseCopyable>(_ initial: T) -> T? {
            var value = initial
            let r = withUnsafeMutableBytes(of: &value) { sd_bus_message_read_basic(message, type, $0.baseAddress) }
            return r > 0 ? value : nil
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "v"), UInt8(ascii: "e"):
            guard sd_bus_message_enter_container(message, type, contents) > 0 else { return nil }
            let inner = readValues(message)
            guard sd_bus_message_exit_container(message) > 0 else { return nil }
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "a"): return .array(inner)
            case UInt8(ascii: "r"): return .structure(inner)
            case UInt8(ascii: "v"): return inner.first.map { .variant($0) }
            default: return inner.count == 2 ? .dictEntry(inner[0], inner[1]) : nil
            }
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &pointer) > 0, let pointer else { return nil }
            let s = String(cString: pointer)
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "s"): return .string(s)
            case UInt8(ascii: "o"): return .objectPath(s)
            default: return .signature(s)
            }
        case UInt8(ascii: "b"): return basic(Int32(0)).map { .bool($0 != 0) }
        case UInt8(ascii: "y"): return basic(UInt8(0)).map { .byte($0) }
        case UInt8(ascii: "n"): return basic(Int16(0)).map { .int16($0) }
        case UInt8(ascii: "q"): return basic(UInt16(0)).map { .uint16($0) }
        case UInt8(ascii: "i"): return basic(Int32(0)).map { .int32($0) }
        case UInt8(ascii: "u"): return basic(UInt32(0)).map { .uint32($0) }
        case UInt8(ascii: "x"): return basic(Int64(0)).map { .int64($0) }
        case UInt8(ascii: "t"): return basic(UInt64(0)).map { .uint64($0) }
        case UInt8(ascii: "d"): return basic(Double(0)).map { .double($0) }
        case UInt8(ascii: "h"): return basic(Int32(0)).map { _ in .unixFD }
        default: return nil
        }
    }

    private static func typeCode(_ code: Unicode.Scalar) -> CChar { CChar(bitPattern: UInt8(code.value)) }
}

/// A handler handed to sd-bus as a slot's userdata (retained; released by the slot's destroy
/// callback, exactly once).
private final class HandlerBox {
    let handler: ((message: BusMessage, error: BusError?)) -> Void

    init(decoded handler: @escaping ((message: BusMessage, error: BusError?)) -> Void) {
        self.handler = handler
    }

    /// Signals: errors do not occur.
    init(messages handler: @escaping (BusMessage) -> Void) {
        self.handler = { decoded in handler(decoded.message) }
    }
}

private let busMessageCallback: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let box = Unmanaged<HandlerBox>.fromOpaque(userdata).takeUnretainedValue()
    box.handler(SystemBus.decode(message))
    return 0
}

private let busDestroyCallback: sd_bus_destroy_t = { userdata in
    guard let userdata else { return }
    Unmanaged<HandlerBox>.fromOpaque(userdata).release()
}
