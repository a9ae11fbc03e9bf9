/// One problem found in a configuration file, with its position.
///
/// Rendered like a compiler message so editors and `grep` understand it:
/// `gestured.conf:12:1: warning: unknown key 'Tapz' in [Gesture double-tap], ignoring (did you mean 'Taps'?)`.
public struct ConfigDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad it is: errors make the configuration unusable, warnings are ignored input.
    public enum Severity: String, Hashable, Sendable {
        case error
        case warning
    }

    public var severity: Severity
    /// The file name as given to the parser (a path, or a label such as "<stdin>").
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in characters, of the offending key, value or header.
    public var column: Int
    /// What is wrong, naming the key/section/value.
    public var message: String
    /// What to do about it ("did you mean 'Taps'?"), or nil.
    public var hint: String?

    public init(severity: Severity, file: String, line: Int, column: Int, message: String, hint: String? = nil) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// `file:line:column: severity: message (hint)`.
    public var rendered: String {
        var text = "\(file):\(line):\(column): \(severity.rawValue): \(message)"
        if let hint { text += " (\(hint))" }
        return text
    }

    public var description: String { rendered }
}

/// A position in a configuration file.
struct SourceLocation: Hashable, Sendable {
    var file: String
    var line: Int
    var column: Int
}

/// Collects diagnostics in the order they were found.
struct DiagnosticCollector {
    var diagnostics: [ConfigDiagnostic] = []

    mutating func error(_ at: SourceLocation, _ message: String, hint: String? = nil) {
        diagnostics.append(
            ConfigDiagnostic(
                severity: .error,
                file: at.file,
                line: at.line,
                column: at.column,
                message: message,
                hint: hint
            )
        )
    }

    mutating func warning(_ at: SourceLocation, _ message: String, hint: String? = nil) {
        diagnostics.append(
            ConfigDiagnostic(
                severity: .warning,
                file: at.file,
                line: at.line,
                column: at.column,
                message: message,
                hint: hint
            )
        )
    }
}
