internal import Glibc

/// A value of a D-Bus message body, decoded into Swift (``DBusWire`` reads and writes them).
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

/// One connection to a D-Bus system bus, the project's own client (DESIGN.md "A D-Bus client
/// of our own"): a Unix stream socket, `EXTERNAL` authentication, then the messages of
/// ``DBusWire``. Driven by an ``EventLoop``: the socket is watched by the loop (readable
/// always, writable while output is queued), and method-call timeouts are a loop timer.
/// Nothing blocks: authentication, `Hello`, matches and method calls go out asynchronously,
/// and replies and signals run their handlers on the loop thread.
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

    /// A method call's wait for its reply when the caller gives none (sd-bus's default).
    public static let defaultTimeoutMicroseconds: UInt64 = 25_000_000

    private struct Pending {
        var deadline: Int64
        var reply: (Result<BusMessage, BusError>) -> Void
    }

    private let loop: EventLoop
    private var fd: Int32 = -1
    private var watch: FileWatch?
    private var timer: LoopTimer?
    /// Until the bus's `OK`: messages wait in `held`, behind the authentication lines.
    private var authenticated = false
    private var input: [UInt8] = []
    private var inputStart = 0
    private var output: [UInt8] = []
    private var outputStart = 0
    private var held: [UInt8] = []
    private var nextSerial: UInt32 = 1
    private var pending: [UInt32: Pending] = [:]
    private var matches: [(rule: BusMatchRule, handler: (BusMessage) -> Void)] = []
    private var dispatchQueued = false
    private let onClosed: (String) -> Void
    public let address: String
    /// This connection's unique name (":1.42"), once the bus answered `Hello`.
    public private(set) var uniqueName: String?

    /// Connects to the bus at `address` (authentication completes asynchronously; calls made
    /// before go out once it has).
    /// - Parameter onClosed: called once, on the loop thread, if the connection is lost (the
    ///   bus closed it, refused the authentication or a match, or sent what is not D-Bus).
    /// - Throws: when the address is malformed or none of its sockets can be connected (no bus).
    public init(address: String, loop: EventLoop, onClosed: @escaping (String) -> Void) throws(SystemError) {
        self.loop = loop
        self.address = address
        self.onClosed = onClosed
        let targets: [DBusWire.SocketAddress]
        do {
            targets = try DBusWire.socketAddresses(address)
        } catch {
            throw SystemError(operation: "use the D-Bus address (\(error))", path: address, errno: .invalidArgument)
        }
        var lastError = SystemError(operation: "connect to the system bus", path: address, errno: .noSuchFileOrDirectory)
        for target in targets {
            do {
                fd = try Self.connect(target)
                break
            } catch {
                lastError = SystemError(operation: "connect to the system bus", path: address, errno: error)
            }
        }
        guard fd >= 0 else { throw lastError }
        do {
            watch = try loop.watch(fd) { [weak self] in self?.readable() }
        } catch {
            _ = Glibc.close(fd)
            fd = -1
            throw SystemError(operation: "watch the system bus connection", path: address, errno: error)
        }
        timer = loop.makeTimer { [weak self] in self?.expire() }
        output = DBusWire.authentication(uid: geteuid())
        // The first message must be Hello; its timeout also bounds the authentication.
        send(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello", arguments: [], timeoutMicroseconds: 0) {
            [weak self] result in
            switch result {
            case .success(let reply): self?.uniqueName = reply.body.first?.text
            case .failure(let error): self?.lose("the bus did not answer Hello: \(error)")
            }
        }
        scheduleProcessing()
    }

    deinit {
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// Whether the connection is still up.
    public var isOpen: Bool { fd >= 0 }

    /// Installs a match rule (`type='signal',…`, D-Bus specification) and calls `handler`
    /// for every message it matches. A rule the bus refuses closes the connection.
    /// - Throws: on a closed connection, or a rule that is not one (`EINVAL`).
    public func addMatch(_ rule: String, handler: @escaping (BusMessage) -> Void) throws(SystemError) {
        guard fd >= 0 else { throw SystemError(operation: "add a match on the closed system bus", errno: .connectionReset) }
        let parsed: BusMatchRule
        do {
            parsed = try BusMatchRule(parsing: rule)
        } catch {
            throw SystemError(operation: "add the match \(rule) (\(error))", errno: .invalidArgument)
        }
        matches.append((parsed, handler))
        send(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "AddMatch", arguments: [.string(rule)], timeoutMicroseconds: 0) {
            [weak self] result in
            if case .failure(let error) = result { self?.lose("the bus refused the match \(rule): \(error)") }
        }
        scheduleProcessing()
    }

    /// Calls a method; `reply` runs on the loop thread with the reply's body or its error (a
    /// timeout is `org.freedesktop.DBus.Error.NoReply`).
    /// - Parameter arguments: values of the basic types (strings, object paths, booleans,
    ///   integers).
    /// - Parameter timeoutMicroseconds: 0 for ``defaultTimeoutMicroseconds``.
    public func call(
        destination: String,
        path: String,
        interface: String,
        member: String,
        arguments: [BusValue] = [],
        timeoutMicroseconds: UInt64 = 0,
        reply: @escaping (Result<BusMessage, BusError>) -> Void
    ) {
        guard fd >= 0 else {
            fail(reply, BusError(name: "org.freedesktop.DBus.Error.Disconnected", message: "the system bus connection is closed"))
            return
        }
        send(destination: destination, path: path, interface: interface, member: member, arguments: arguments, timeoutMicroseconds: timeoutMicroseconds, reply: reply)
        scheduleProcessing()
    }

    /// Closes the connection (pending calls are dropped without their replies).
    public func close() {
        watch?.cancel()
        watch = nil
        timer?.cancel()
        timer = nil
        // Not flushed: nothing queued matters once closing.
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
        pending.removeAll()
        matches.removeAll()
        output.removeAll()
        held.removeAll()
        input.removeAll()
        inputStart = 0
        outputStart = 0
    }

    // MARK: Sending

    private func send(
        destination: String, path: String, interface: String, member: String, arguments: [BusValue], timeoutMicroseconds: UInt64,
        reply: @escaping (Result<BusMessage, BusError>) -> Void
    ) {
        let serial = nextSerial
        nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
        let header = DBusWire.Header(type: .methodCall, serial: serial, path: path, interface: interface, member: member, destination: destination)
        let bytes: [UInt8]
        do {
            bytes = try DBusWire.encode(header, body: arguments)
        } catch {
            fail(reply, BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "cannot send \(interface).\(member): \(error)"))
            return
        }
        let timeout = timeoutMicroseconds == 0 ? Self.defaultTimeoutMicroseconds : timeoutMicroseconds
        pending[serial] = Pending(deadline: MonotonicClock.nowMicroseconds() + Int64(min(timeout, UInt64(Int64.max / 2))), reply: reply)
        queue(bytes)
        armTimer()
    }

    private func queue(_ bytes: [UInt8]) {
        if authenticated { output += bytes } else { held += bytes }
    }

    /// Writes what the socket takes; the rest waits for it to be writable.
    private func flush() {
        while fd >= 0, outputStart < output.count {
            let result = output.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + outputStart, raw.count - outputStart, Int32(MSG_NOSIGNAL))
            }
            if result > 0 {
                outputStart += result
                continue
            }
            let errno = Errno.current
            if errno == .interrupted { continue }
            if errno == .wouldBlock {
                if watch?.watchesWritable == false { watch?.setWritableHandler { [weak self] in self?.flush() } }
                return
            }
            lose("cannot write to the bus: \(errno)")
            return
        }
        output.removeAll(keepingCapacity: true)
        outputStart = 0
        if watch?.watchesWritable == true { watch?.setWritableHandler(nil) }
    }

    // MARK: Receiving

    private func readable() {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while fd >= 0 {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                input += chunk[0..<n]
                continue
            }
            if n == 0 { return lose("the bus closed the connection") }
            let errno = Errno.current
            if errno == .interrupted { continue }
            if errno == .wouldBlock { break }
            return lose("cannot read from the bus: \(errno)")
        }
        parse()
        flush()
    }

    private func parse() {
        if !authenticated {
            guard let end = lineEnd() else {
                if input.count - inputStart > 512 { lose("the bus's authentication answer is not a line") }
                return
            }
            let line = String(decoding: input[inputStart..<end], as: UTF8.self)
            inputStart = end + 2
            guard line.hasPrefix("OK ") else { return lose("the bus refused the authentication: \(line)") }
            authenticated = true
            output += held
            held = []
        }
        while fd >= 0 {
            let length: Int?
            do {
                length = try DBusWire.messageLength(input[inputStart...])
            } catch {
                return lose("the bus sent what is not D-Bus: \(error)")
            }
            guard let length, input.count - inputStart >= length else { break }
            let bytes = Array(input[inputStart..<inputStart + length])
            inputStart += length
            let decoded: (header: DBusWire.Header, body: [BusValue])
            do {
                decoded = try DBusWire.decode(bytes)
            } catch {
                // A malformed message from a peer is skipped (the bus checks what it
                // forwards, so this is rare); the stream itself is still in step.
                continue
            }
            dispatch(decoded.header, decoded.body)
        }
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 65536)
            inputStart = 0
        } else if inputStart > 65536 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    private func lineEnd() -> Int? {
        var i = inputStart
        while i + 1 < input.count {
            if input[i] == 13, input[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }

    private func dispatch(_ header: DBusWire.Header, _ body: [BusValue]) {
        let message = BusMessage(sender: header.sender, path: header.path, interface: header.interface, member: header.member, body: body)
        switch header.type {
        case .methodReturn, .error:
            guard let serial = header.replySerial, let call = pending.removeValue(forKey: serial) else { return }
            armTimer()
            if header.type == .error {
                call.reply(.failure(BusError(name: header.errorName ?? "org.freedesktop.DBus.Error.Failed", message: body.first?.text ?? "")))
            } else {
                call.reply(.success(message))
            }
        case .signal:
            for match in matches where match.rule.matches(header, body) {
                guard fd >= 0 else { return }
                match.handler(message)
            }
        case .methodCall:
            // Nothing is served here (sd-bus answered the same to what it had no object for).
            guard header.flags & DBusWire.noReplyExpected == 0, let sender = header.sender else { return }
            let serial = nextSerial
            nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
            let answer = DBusWire.Header(
                type: .error, flags: DBusWire.noReplyExpected, serial: serial, errorName: "org.freedesktop.DBus.Error.UnknownObject",
                replySerial: header.serial, destination: sender)
            if let bytes = try? DBusWire.encode(answer, body: [.string("gestured serves no objects")]) { queue(bytes) }
        }
    }

    // MARK: Timeouts and failures

    private func armTimer() {
        guard let deadline = pending.values.lazy.map(\.deadline).min() else {
            timer?.disarm()
            return
        }
        timer?.schedule(atMonotonicMicroseconds: deadline)
    }

    private func expire() {
        let now = MonotonicClock.nowMicroseconds()
        let expired = pending.filter { $0.value.deadline <= now }.sorted { $0.key < $1.key }
        for (serial, _) in expired { pending[serial] = nil }
        armTimer()
        for (_, call) in expired {
            guard fd >= 0 else { return }
            call.reply(.failure(BusError(name: "org.freedesktop.DBus.Error.NoReply", message: "Method call timed out")))
        }
        flush()
    }

    private func lose(_ reason: String) {
        guard fd >= 0 else { return }
        close()
        onClosed(reason)
    }

    /// Failures found while making a call, answered on the next processing pass: replies
    /// always come later, never from inside the call.
    private var failedCalls: [(reply: (Result<BusMessage, BusError>) -> Void, error: BusError)] = []

    private func fail(_ reply: @escaping (Result<BusMessage, BusError>) -> Void, _ error: BusError) {
        failedCalls.append((reply, error))
        scheduleProcessing()
    }

    /// Writes once the current work on the loop is done (after a call queued output).
    private func scheduleProcessing() {
        guard !dispatchQueued else { return }
        dispatchQueued = true
        loop.execute { [weak self] in
            guard let self else { return }
            self.dispatchQueued = false
            let failed = self.failedCalls
            self.failedCalls.removeAll()
            for call in failed { call.reply(.failure(call.error)) }
            self.flush()
        }
    }

    // MARK: The socket

    private static func connect(_ target: DBusWire.SocketAddress) throws(Errno) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name: [UInt8]
        switch target {
        case .path(let path): name = Array(path.utf8) + [0]
        case .abstract(let abstract): name = [0] + Array(abstract.utf8)
        }
        guard name.count <= MemoryLayout.size(ofValue: address.sun_path) else { throw .nameTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in name.enumerated() { raw[i] = byte }
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Errno.current }
        while true {
            let r = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) } }
            if r == 0 { return fd }
            let errno = Errno.current
            if errno == .interrupted { continue }
            // A Unix socket whose listener's backlog is full: the connection completes when
            // writable; the first write tells if it failed.
            if errno == .wouldBlock || errno.rawValue == EINPROGRESS { return fd }
            _ = Glibc.close(fd)
            throw errno
        }
    }
}
