internal import Dispatch
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

/// Delivers signals as an `AsyncStream` (swift-service-lifecycle's `UnixSignalsSequence`):
/// each signal is ignored at the C level and observed through a Dispatch signal source.
///
/// Create it from nonisolated code, never from top-level `main.swift` code (STYLE.md B8).
public final class SignalSource {
    public let signals: AsyncStream<UnixSignal>
    private let sources: [any DispatchSourceSignal]

    public init(_ wanted: [UnixSignal] = UnixSignal.allCases) {
        let (stream, continuation) = AsyncStream.makeStream(of: UnixSignal.self)
        let queue = DispatchQueue(label: "gestured.signals")
        var sources: [any DispatchSourceSignal] = []
        for signalValue in wanted {
            _ = Glibc.signal(signalValue.rawValue, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalValue.rawValue, queue: queue)
            source.setEventHandler { continuation.yield(signalValue) }
            source.resume()
            sources.append(source)
        }
        self.signals = stream
        self.sources = sources
    }

    public func cancel() {
        for source in sources { source.cancel() }
    }
}

/// Ignores SIGPIPE process-wide: writes to vanished clients then fail with EPIPE instead.
public func ignoreBrokenPipeSignal() {
    _ = Glibc.signal(SIGPIPE, SIG_IGN)
}
