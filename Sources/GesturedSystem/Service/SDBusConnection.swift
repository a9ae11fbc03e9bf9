internal import CLinuxInput
internal import Glibc

/// One connection to a D-Bus system bus through libsystemd's sd-bus, driven by an
/// ``EventLoop`` instead of sd-event and without a thread of its own:
///
/// - the connection's socket (`sd_bus_get_fd`) is one more descriptor of the loop, watched
///   for reading always and for writing while `sd_bus_get_events` asks for `POLLOUT`;
/// - sd-bus's own deadline (`sd_bus_get_timeout`: method-call timeouts, absolute
///   CLOCK_MONOTONIC µs, the loop timer's clock) is a ``LoopTimer``;
/// - whenever one of them fires, or a call was queued, `sd_bus_process` runs until it has
///   nothing left, and the interest above is set again.
///
/// Nothing blocks: `sd_bus_start` only connects the socket (authentication and `Hello` go on
/// asynchronously), matches are installed with `sd_bus_add_match_async` and methods called
/// with `sd_bus_call_async`. Replies and signals are decoded at once into ``BusMessage``
/// (``SDBusMessage``), so no sd-bus type leaves this target, and their handlers run on the
/// loop thread. sd-bus parses every byte the bus sends.
///
/// Confinement: every method must be called on the loop thread (from an actor whose executor
/// is the loop). `@unchecked Sendable` only so that blocks queued on the loop may capture it.
public final class SDBusConnection: @unchecked Sendable {
    /// Where the system bus listens when `DBUS_SYSTEM_BUS_ADDRESS` is not set.
    public static let defaultAddress = "unix:path=/run/dbus/system_bus_socket"

    /// The address of the system bus for an environment: `DBUS_SYSTEM_BUS_ADDRESS`, else
    /// ``defaultAddress`` (what `sd_bus_open_system` does, read from the daemon's own
    /// environment rather than the process's, so tests in one process use their own buses).
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
    private var processingQueued = false
    private let onClosed: (String) -> Void
    public let address: String

    /// Connects to the bus at `address` (authentication completes asynchronously; calls made
    /// before go out once it has).
    /// - Parameter onClosed: called once, on the loop thread, if the connection is lost (the
    ///   bus closed it, refused the authentication or a match, or sent what is not D-Bus).
    /// - Throws: when the address is malformed or its socket cannot be connected (no bus).
    public init(address: String, loop: EventLoop, onClosed: @escaping (String) -> Void) throws(SystemError) {
        self.loop = loop
        self.address = address
        self.onClosed = onClosed
        var created: OpaquePointer?
        var r = sd_bus_new(&created)
        guard r >= 0, let bus = created else { throw SystemError(operation: "create an sd-bus connection", errno: Errno(rawValue: -r)) }
        r = sd_bus_set_address(bus, address)
        if r >= 0 { r = sd_bus_set_bus_client(bus, 1) }
        if r >= 0 { r = sd_bus_start(bus) }
        guard r >= 0 else {
            sd_bus_close_unref(bus)
            throw SystemError(operation: "connect to the system bus", path: address, errno: Errno(rawValue: -r))
        }
        do {
            watch = try loop.watch(sd_bus_get_fd(bus)) { [weak self] in self?.process() }
        } catch {
            sd_bus_close_unref(bus)
            throw SystemError(operation: "watch the system bus connection", path: address, errno: error)
        }
        self.bus = bus
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
    /// - Throws: on a closed connection, or a rule sd-bus cannot parse (`EINVAL`).
    public func addMatch(_ rule: String, handler: @escaping (BusMessage) -> Void) throws(SystemError) {
        guard let bus else { throw SystemError(operation: "add a match on the closed system bus", errno: .connectionReset) }
        let box = Unmanaged.passRetained(ReplyBox { decoded in handler(decoded.message) }).toOpaque()
        let r = gestured_bus_add_match_async(bus, rule, sdBusMessageCallback, sdBusDestroyCallback, box)
        if r < 0 {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            throw SystemError(operation: "add the match \(rule)", errno: Errno(rawValue: -r))
        }
        scheduleProcessing()
    }

    /// Calls a method; `reply` runs on the loop thread with the reply or its error (sd-bus
    /// answers a timeout or a lost connection with `org.freedesktop.DBus.Error.NoReply`),
    /// never from inside this call.
    /// - Parameter arguments: strings, object paths, booleans and 32-bit unsigned integers.
    /// - Parameter timeoutMicroseconds: 0 for sd-bus's default (25 s).
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
            return fail(reply, BusError(name: "org.freedesktop.DBus.Error.Disconnected", message: "the system bus connection is closed"))
        }
        var created: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &created, destination, path, interface, member)
        guard r >= 0, let message = created else {
            return fail(reply, BusError(name: "org.freedesktop.DBus.Error.Failed", message: "cannot create the call \(interface).\(member): \(Errno(rawValue: -r))"))
        }
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            r = SDBusMessage.append(argument, to: message)
            guard r >= 0 else {
                return fail(reply, BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "cannot append \(argument) to \(interface).\(member)"))
            }
        }
        let box = Unmanaged.passRetained(ReplyBox { decoded in
            if let error = decoded.error { reply(.failure(error)) } else { reply(.success(decoded.message)) }
        }).toOpaque()
        r = gestured_bus_call_async(bus, message, sdBusMessageCallback, sdBusDestroyCallback, box, timeoutMicroseconds)
        if r < 0 {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            return fail(reply, BusError(name: "org.freedesktop.DBus.Error.Failed", message: "cannot send \(interface).\(member): \(Errno(rawValue: -r))"))
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

    // MARK: Processing

    /// Failures found while making a call, answered on the next processing pass: replies
    /// always come later, never from inside the call.
    private var failedCalls: [(reply: (Result<BusMessage, BusError>) -> Void, error: BusError)] = []

    private func fail(_ reply: @escaping (Result<BusMessage, BusError>) -> Void, _ error: BusError) {
        failedCalls.append((reply, error))
        scheduleProcessing()
    }

    /// Processes once the current work on the loop is done (a call or match queued output).
    private func scheduleProcessing() {
        guard !processingQueued else { return }
        processingQueued = true
        loop.execute { [weak self] in
            guard let self else { return }
            self.processingQueued = false
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
            // 0 = process at once (the timer fires a deadline in the past at once).
            timer?.schedule(atMonotonicMicroseconds: Int64(min(deadline, UInt64(Int64.max))))
        } else {
            timer?.disarm()
        }
    }
}

/// A handler handed to sd-bus as a slot's userdata: retained when the slot is made, released
/// by the slot's destroy callback, exactly once (also for a call still pending at close).
private final class ReplyBox {
    let handler: ((message: BusMessage, error: BusError?)) -> Void

    init(_ handler: @escaping ((message: BusMessage, error: BusError?)) -> Void) {
        self.handler = handler
    }
}

private let sdBusMessageCallback: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let box = Unmanaged<ReplyBox>.fromOpaque(userdata).takeUnretainedValue()
    box.handler(SDBusMessage.decode(message))
    return 0
}

private let sdBusDestroyCallback: sd_bus_destroy_t = { userdata in
    guard let userdata else { return }
    Unmanaged<ReplyBox>.fromOpaque(userdata).release()
}
