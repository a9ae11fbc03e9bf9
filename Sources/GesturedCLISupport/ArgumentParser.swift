/// The release of gestured and gesturectl (`--version`, the `hello` reply's `daemon_version`).
public let gesturedRelease = "0.1.0"

/// Exit statuses shared by `gestured` and `gesturectl` (sysexits.h, STYLE.md B6).
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    /// `EX_USAGE`: bad command line.
    case usage = 64
    /// `EX_DATAERR`: bad input data (a malformed recording).
    case dataError = 65
    /// `EX_NOINPUT`: an input file or device does not exist or cannot be read.
    case noInput = 66
    /// `EX_UNAVAILABLE`: the daemon is not reachable.
    case unavailable = 69
    /// `EX_CONFIG`: the configuration does not load.
    case config = 78
}

/// A command-line error, printed as `gestured: <message>` with exit status 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Declares one option.
public struct OptionSpec: Sendable, Equatable {
    public var name: String
    public var takesValue: Bool
    public var help: String
    public var valueName: String

    /// A flag (`--json`).
    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, takesValue: false, help: help, valueName: "")
    }

    /// An option with a value (`--config FILE` or `--config=FILE`).
    public static func option(_ name: String, value: String, help: String) -> OptionSpec {
        OptionSpec(name: name, takesValue: true, help: help, valueName: value)
    }
}

/// The parsed command line: flags, option values (last wins) and positional arguments.
public struct ParsedArguments: Sendable, Equatable {
    public var flags: Set<String> = []
    public var values: [String: String] = [:]
    /// Every value given for each option, in command-line order (for repeatable options).
    public var allValues: [String: [String]] = [:]
    public var positionals: [String] = []

    public func has(_ flag: String) -> Bool { flags.contains(flag) }
    public func value(_ option: String) -> String? { values[option] }
    /// Every value of a repeatable option, in order (empty when it was not given).
    public func values(_ option: String) -> [String] { allValues[option] ?? [] }
}

/// A deliberately tiny parser: GNU long options only, `--` ends options.
public struct ArgumentParser: Sendable {
    public var specs: [OptionSpec]

    public init(_ specs: [OptionSpec]) { self.specs = specs }

    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            // The two short options every command line has: -h (--help), -V (--version).
            if !optionsEnded, let long = ["-h": "help", "-V": "version"][argument], specs.contains(where: { $0.name == long }) {
                argument = "--" + long
            }
            if optionsEnded || !argument.hasPrefix("--") || argument == "-" {
                if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
                    throw UsageError("unknown option '\(argument)' (options are spelled --name)")
                }
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                let hint = closest(to: name).map { " (did you mean '--\($0)'?)" } ?? ""
                throw UsageError("unknown option '--\(name)'\(hint)")
            }
            if spec.takesValue {
                if let inlineValue {
                    result.values[name] = inlineValue
                    result.allValues[name, default: []].append(inlineValue)
                } else if index < arguments.count {
                    result.values[name] = arguments[index]
                    result.allValues[name, default: []].append(arguments[index])
                    index += 1
                } else {
                    throw UsageError("option '--\(name)' needs a value (\(spec.valueName))")
                }
            } else {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value") }
                result.flags.insert(name)
            }
        }
        return result
    }

    /// The option list for `--help`.
    public func helpText() -> String {
        specs.map { spec in
            let left = "  --\(spec.name)" + (spec.takesValue ? " \(spec.valueName)" : "")
            let pad = String(repeating: " ", count: max(2, 28 - left.count))
            return left + pad + spec.help
        }.joined(separator: "\n")
    }

    private func closest(to name: String) -> String? {
        let scored = specs.map { ($0.name, editDistance(name, $0.name)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, name.count / 3) else { return nil }
        return best
    }
}

/// " (did you mean 'X'?)" for the closest of `candidates` within a third of the name's length
/// (at least 2 edits), else "".
public func didYouMean(_ name: String, among candidates: [String]) -> String {
    let scored = candidates.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
    guard let (best, distance) = scored, distance <= max(2, name.count / 3) else { return "" }
    return " (did you mean '\(best)'?)"
}

/// Levenshtein distance, for "did you mean" hints.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
