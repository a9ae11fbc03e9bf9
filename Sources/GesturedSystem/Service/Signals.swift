internal import Glibc

/// The signals the daemon reacts to.
public enum UnixSignal: Int32, Sendable, CaseIterable {
    case hangup = 1
    case interrupt = 2
    case terminate = 15

    public var name: String {
        switch self {
        case .hangup: "SIGHUP"
        case .interrupt: "SIGINT"
        case .terminate: "SIGTERM"
        }
    }
}

/// Delivers signals as an `AsyncStream` (swift-service-lifecycle's `UnixSignalsSequence`).
///
/// A C handler writes the signal's number into a self-pipe (the classic async-signal-safe
/// pattern: whichever thread the kernel picks runs it, and nothing is lost); a thread of its own,
/// blocked in `read(2)` on the pipe's other end, hands it to every `SignalSource` that wants it
/// (no Dispatch source: it would start libdispatch's worker pool and its 1 Hz monitor timer,
/// DESIGN.md "Daemon, event loop and socket protocol" › "One event loop"). libdispatch's
/// own signal sources were used before: on Linux they read a signalfd, which sees a signal only
/// while every thread blocks it, and a process-directed SIGTERM that reached the main thread
/// parked in `dispatch_main` was lost (the daemon never shut down; seen under load in
/// `SystemdDaemonTests`). DESIGN.md "Daemon, event loop and socket protocol" › "One event loop".
///
/// Create it from nonisolated code, never from top-level `main.swift` code (STYLE.md B8).
public final class SignalSource: Sendable {
    public let signals: AsyncStream<UnixSignal>
    private let id: Int

    public init(_ wanted: [UnixSignal] = UnixSignal.allCases) {
        let (stream, continuation) = AsyncStream.makeStream(of: UnixSignal.self)
        self.signals = stream
        self.id = SignalHub.shared.subscribe(Set(wanted), continuation)
    }

    public func cancel() {
        SignalHub.shared.unsubscribe(id)
    }
}

/// Ignores SIGPIPE process-wide: writes to vanished clients then fail with EPIPE instead.
public func ignoreBrokenPipeSignal() {
    _ = Glibc.signal(SIGPIPE, SIG_IGN)
}

/// The write end of the self-pipe, read by the handler (set once, before any handler is installed).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Async-signal-safe: one `write(2)` of the signal's number, errno kept.
private func writeSignalToPipe(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// The process's one self-pipe and the subscribers it fans out to.
private final class SignalHub: Sendable {
    static let shared = SignalHub()

    private struct Subscriber {
        var wanted: Set<UnixSignal>
        var continuation: AsyncStream<UnixSignal>.Continuation
    }

    private struct State {
        var nextID = 0
        var subscribers: [Int: Subscriber] = [:]
        var installed: Set<UnixSignal> = []
    }

    private let state = PThreadMutex(State())

    private init() {
        var ends: [Int32] = [-1, -1]
        let made = pipe(&ends)
        precondition(made == 0, "gestured: cannot create the signal pipe (errno \(errno))")
        // The write end never blocks a handler; the read end blocks its reader thread.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        signalPipeWriteEnd = ends[1]
        startReader(readEnd: ends[0])
    }

    /// The reader thread: sleeps in `read(2)` until a handler writes, then delivers.
    private func startReader(readEnd: Int32) {
        final class Context: Sendable {
            let hub: SignalHub
            let readEnd: Int32
            init(hub: SignalHub, readEnd: Int32) {
                self.hub = hub
                self.readEnd = readEnd
            }
        }
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 64 * 1024)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Context(hub: self, readEnd: readEnd)).toOpaque()
        let created = pthread_create(&thread, &attributes, { context in
            let context = Unmanaged<Context>.fromOpaque(context!).takeRetainedValue()
            // This thread takes the signals: a mask inherited from the parent (posix_spawn
            // from a libdispatch worker blocks them all) must not keep them pending forever,
            // which it did once nothing sat in `dispatch_main`'s sigsuspend any more.
            var handled = sigset_t()
            sigemptyset(&handled)
            for signal in UnixSignal.allCases { sigaddset(&handled, signal.rawValue) }
            pthread_sigmask(SIG_UNBLOCK, &handled, nil)
            var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            while true {
                let n = withUnsafeMutableBytes(of: &buffer) { read(context.readEnd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return nil }
                withUnsafeBytes(of: &buffer) { bytes in
                    for byte in bytes.prefix(n) {
                        if let signal = UnixSignal(rawValue: Int32(byte)) { context.hub.deliver(signal) }
                    }
                }
            }
        }, context)
        precondition(created == 0, "gestured: cannot start the signal thread (error \(created))")
    }

    func subscribe(_ wanted: Set<UnixSignal>, _ continuation: AsyncStream<UnixSignal>.Continuation) -> Int {
        state.withLock { state in
            for signal in wanted where !state.installed.contains(signal) {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { writeSignalToPipe($0) }
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                _ = sigaction(signal.rawValue, &action, nil)
                state.installed.insert(signal)
            }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(wanted: wanted, continuation: continuation)
            return id
        }
    }

    func unsubscribe(_ id: Int) {
        let removed = state.withLock { $0.subscribers.removeValue(forKey: id) }
        removed?.continuation.finish()
    }

    fileprivate func deliver(_ signal: UnixSignal) {
        let targets = state.withLock { state in
            state.subscribers.values.filter { $0.wanted.contains(signal) }.map(\.continuation)
        }
        for continuation in targets { continuation.yield(signal) }
    }
}
