import Synchronization

/// Log levels, syslog-aligned (STYLE.md B7).
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace = 8
    case debug = 7
    case info = 6
    case notice = 5
    case warning = 4
    case error = 3
    case critical = 2

    /// The syslog priority used in `<N>` prefixes for the journal.
    public var syslogPriority: Int { self == .trace ? 7 : rawValue }

    public var name: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    public init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    /// Lower raw value = more severe; a level passes a threshold when it is at least as severe.
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue > b.rawValue }
}

/// One log record: constant message text plus metadata with dotted lower-case keys.
public struct LogRecord: Sendable, Equatable {
    public var level: LogLevel
    public var label: String
    public var message: String
    public var metadata: [(key: String, value: String)]

    public static func == (a: LogRecord, b: LogRecord) -> Bool {
        a.level == b.level && a.label == b.label && a.message == b.message
            && a.metadata.map(\.key) == b.metadata.map(\.key) && a.metadata.map(\.value) == b.metadata.map(\.value)
    }

    /// `message key=value key='value with spaces'`.
    public var renderedLine: String {
        var line = message
        for (key, value) in metadata {
            let needsQuotes = value.isEmpty || value.contains(" ") || value.contains("=")
            line += " \(key)=" + (needsQuotes ? "'\(value)'" : value)
        }
        return line
    }
}

/// Where records go. Sinks must be thread-safe.
public protocol LogSink: Sendable {
    func write(_ record: LogRecord)
}

/// A logger value: label, threshold, default metadata and a sink (swift-log's shape).
public struct Logger: Sendable {
    public var label: String
    public var level: LogLevel
    public var metadata: [(key: String, value: String)]
    public let sink: any LogSink

    public init(label: String, level: LogLevel = .notice, sink: any LogSink) {
        self.label = label
        self.level = level
        self.metadata = []
        self.sink = sink
    }

    /// A copy carrying extra metadata on every record.
    public func with(_ extra: [(String, String)]) -> Logger {
        var copy = self
        copy.metadata += extra.map { (key: $0.0, value: $0.1) }
        return copy
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level >= self.level }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) {
        guard isEnabled(level) else { return }
        sink.write(
            LogRecord(level: level, label: label, message: message(), metadata: self.metadata + metadata.map { (key: $0.0, value: $0.1) })
        )
    }

    public func trace(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.trace, message(), metadata) }
    public func debug(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.debug, message(), metadata) }
    public func info(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.info, message(), metadata) }
    public func notice(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.notice, message(), metadata) }
    public func warning(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.warning, message(), metadata) }
    public func error(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.error, message(), metadata) }
    public func critical(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.critical, message(), metadata) }
}

/// Keeps records in memory (tests; swift-log's `InMemoryLogHandler`).
public final class RecordingSink: LogSink {
    private let storage = Mutex<[LogRecord]>([])

    public init() {}

    public func write(_ record: LogRecord) {
        storage.withLock { $0.append(record) }
    }

    public var records: [LogRecord] { storage.withLock { $0 } }
}

/// Limits how often one kind of message is logged (libinput `util-ratelimit.c`): the first
/// `burst` in each `interval` pass; then one "suppressing" notice per interval.
public struct RateLimiter: Sendable {
    public enum Verdict: Sendable, Equatable {
        case pass
        /// This is the last one that passes; say that later ones are suppressed.
        case passAndSuppressFurther
        case suppress
    }

    public let burst: Int
    /// Interval in microseconds (monotonic).
    public let intervalMicroseconds: Int64
    private var windowStart: Int64 = .min
    private var count = 0

    public init(burst: Int = 5, intervalMicroseconds: Int64 = 60_000_000) {
        self.burst = burst
        self.intervalMicroseconds = intervalMicroseconds
    }

    /// - Parameter now: monotonic microseconds.
    public mutating func check(now: Int64) -> Verdict {
        if windowStart == .min || now - windowStart >= intervalMicroseconds {
            windowStart = now
            count = 0
        }
        count += 1
        if count < burst { return .pass }
        if count == burst { return .passAndSuppressFurther }
        return .suppress
    }
}
