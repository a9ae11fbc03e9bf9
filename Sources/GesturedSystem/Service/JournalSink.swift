internal import Glibc
public import GesturedLogging

/// Writes log records to standard error with `write(2)` (the C `stderr` global is not
/// concurrency-safe in Swift 6). When standard error is the journal (`$JOURNAL_STREAM` names
/// fd 2's device and inode) each line gets a `<N>` syslog priority prefix; otherwise lines are
/// human-formatted with the level name.
public struct JournalSink: LogSink {
    public let isJournal: Bool
    public let prefix: String

    /// - Parameters:
    ///   - environment: the process environment, read once in `main`.
    ///   - prefix: program name for console lines (`gestured`).
    public init(environment: [String: String], prefix: String) {
        self.prefix = prefix
        var isJournal = false
        if let stream = environment["JOURNAL_STREAM"] {
            let parts = stream.split(separator: ":")
            var st = stat()
            if parts.count == 2, fstat(2, &st) == 0, UInt64(parts[0]) == UInt64(st.st_dev), UInt64(parts[1]) == UInt64(st.st_ino) {
                isJournal = true
            }
        }
        self.isJournal = isJournal
    }

    public func write(_ record: LogRecord) {
        let line: String
        if isJournal {
            line = "<\(record.level.syslogPriority)>\(record.renderedLine)\n"
        } else {
            line = "\(prefix): \(record.level.name): \(record.renderedLine)\n"
        }
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}

/// Writes a whole string to standard output with `write(2)` (for command output, not logs).
public func writeStandardOutput(_ text: String) {
    writeAll(fd: 1, text)
}

/// Writes a whole string to standard error with `write(2)`.
public func writeStandardError(_ text: String) {
    writeAll(fd: 2, text)
}

private func writeAll(fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
    }
}
