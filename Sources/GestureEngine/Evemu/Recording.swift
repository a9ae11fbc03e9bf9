/// A parsed input recording: the device (when the file or a separate description says what
/// it is), its events in file order, and what the parser had to guess or skip.
public struct Recording: Hashable, Sendable {
    /// The recording's text format.
    public enum Format: String, Hashable, Sendable {
        /// evemu-record text: optional `# EVEMU` header with `N: I: P: B: A:` lines, `E:` lines.
        case evemu
        /// `libinput record` YAML, version 1.
        case libinputRecord
        /// An evtest text log (`Event: time …, type 3 (EV_ABS), …`).
        case evtest
    }

    /// The device description: from the file's header, else the one supplied to the parser,
    /// else inferred from the events (with a warning). `nil` only when there are no events
    /// and no header.
    public var device: DeviceDescription?
    /// Every event in file order, with the file's timestamps.
    public var events: [RawEvent]
    /// Things the parser noticed that do not stop it (truncation, inferred ranges, skipped
    /// lines), each naming the file and line.
    public var warnings: [RecordingDiagnostic]
    /// The format the text was in.
    public var format: Format

    public init(
        device: DeviceDescription?,
        events: [RawEvent],
        warnings: [RecordingDiagnostic] = [],
        format: Format = .evemu
    ) {
        self.device = device
        self.events = events
        self.warnings = warnings
        self.format = format
    }
}

/// A warning about a recording, printed as `file:line: message` (or `file: message`).
public struct RecordingDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The file name given to the parser.
    public var file: String
    /// 1-based line number, when the warning is about one line.
    public var line: Int?
    /// What was noticed, e.g. `truncated: the last frame has no SYN_REPORT (3 events kept)`.
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// A recording that cannot be read: where, what was expected, and what was found.
///
/// Prints like a compiler: `bug.evemu:12: expected 'E: <sec>.<usec> <type> <code> <value>', found 'E: 1.0 3'`.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name given to the parser.
    public var file: String
    /// 1-based line number; `nil` when the problem is the whole file (e.g. its format).
    public var line: Int?
    /// What the parser expected, e.g. `'E: <sec>.<usec> <type> <code> <value>'`.
    public var expected: String
    /// What it found (the offending line, shortened), or a reason when there is no line.
    public var found: String

    public init(file: String, line: Int?, expected: String, found: String) {
        self.file = file
        self.line = line
        self.expected = expected
        self.found = found
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return "\(place): expected \(expected), found \(found)"
    }
}
