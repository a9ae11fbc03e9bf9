import GesturedCLISupport
import GesturedConfig
import GesturedProtocol
import GesturedSystem

/// What an action does: one of `Command=`, `Keys=`, `Click=`.
enum ActionEffect: Sendable, Equatable {
    /// Run with `/bin/sh -c`.
    case command(String)
    /// Press this combination through the daemon (`send_keys`); `names` as written.
    case keys(names: [String])
    /// Click this button through the daemon (`click`).
    case click(button: String)

    /// The key that set it, for messages.
    var key: String {
        switch self {
        case .command: "Command"
        case .keys: "Keys"
        case .click: "Click"
        }
    }

    /// As written in the file.
    var text: String {
        switch self {
        case .command(let command): command
        case .keys(let names): names.joined(separator: "+")
        case .click(let button): button
        }
    }
}

/// One `[Action NAME]` of actions.conf(5): which gesture events it matches and the shell
/// command it runs for them.
struct Action: Sendable {
    var name: String
    /// Line of the `[Action …]` header (for messages about the action as a whole).
    var line: Int
    /// Each filter is a list; an empty list does not filter. An event must pass all of them.
    var gestures: [String] = []
    var kinds: [String] = []
    var states: [WireGestureState] = []
    var fingers: [ClosedRange<Int>] = []
    var directions: [String] = []
    var edges: [String] = []
    var devices: [String] = []
    /// `When=` comparisons, all of which must hold.
    var conditions: [ActionCondition] = []
    /// `Command=`, `Keys=` or `Click=`; nil only while the section is being read.
    var effect: ActionEffect?
    /// Run at most once per gesture id (one began…ended attempt).
    var once = false
    /// Run also for events of a locked seat (`locked: true`); off, the action waits for the
    /// session to be unlocked.
    var whenLocked = false

    /// True when `event` passes every filter and condition.
    func matches(_ event: GestureEventMessage) -> Bool {
        if !gestures.isEmpty, !gestures.contains(event.name) { return false }
        if !kinds.isEmpty, !kinds.contains(event.kind) { return false }
        if !states.isEmpty, !states.contains(event.state) { return false }
        if !fingers.isEmpty, !fingers.contains(where: { $0.contains(event.fingers) }) { return false }
        if !directions.isEmpty, !directions.contains(event.direction ?? "") { return false }
        if !edges.isEmpty, !edges.contains(event.edge ?? "") { return false }
        if !devices.isEmpty {
            let kernelName = event.device.split(separator: "/").last.map(String.init) ?? event.device
            if !devices.contains(where: { $0 == event.device || $0 == kernelName || $0 == event.deviceName }) { return false }
        }
        return conditions.allSatisfy { $0.holds(for: event) }
    }
}

/// `When=VARIABLE OPERATOR NUMBER[UNIT]`, e.g. `scale>1.3`, `rotation<=-30deg`, `distance>=40mm`.
struct ActionCondition: Sendable, CustomStringConvertible {
    enum Operator: String, Sendable, CaseIterable {
        // Two-character operators first: the parser tries them in this order.
        case greaterOrEqual = ">="
        case lessOrEqual = "<="
        case equal = "=="
        case notEqual = "!="
        case greater = ">"
        case less = "<"

        func compare(_ a: Double, _ b: Double) -> Bool {
            switch self {
            case .greaterOrEqual: a >= b
            case .lessOrEqual: a <= b
            case .equal: a == b
            case .notEqual: a != b
            case .greater: a > b
            case .less: a < b
            }
        }
    }

    var variable: ActionVariable
    var comparison: Operator
    /// In the variable's unit (degrees for rotation).
    var value: Double

    /// False when the event does not carry the variable (a swipe has no scale).
    func holds(for event: GestureEventMessage) -> Bool {
        guard let actual = variable.value(event) else { return false }
        return comparison.compare(actual, value)
    }

    var description: String { "\(variable.name)\(comparison.rawValue)\(value)" }
}

/// A value of a gesture event that `When=` can compare, with the unit it is compared in.
struct ActionVariable: Sendable {
    var name: String
    /// The unit suffix accepted on the number ("mm", "deg", …), nil for plain numbers.
    var unit: String?
    /// Other suffixes accepted, with the factor that converts them to `unit`.
    var alternateUnits: [String: Double] = [:]
    var value: @Sendable (GestureEventMessage) -> Double?

    static let radiansToDegrees = 180 / Double.pi

    /// Every built-in variable; custom recognizer values are `value.NAME`.
    static let all: [ActionVariable] = [
        ActionVariable(name: "fingers", unit: nil) { Double($0.fingers) },
        ActionVariable(name: "taps", unit: nil) { $0.taps.map(Double.init) },
        ActionVariable(name: "scale", unit: nil) { $0.scale },
        ActionVariable(name: "scale_velocity", unit: "/s") { $0.scaleVelocity },
        ActionVariable(name: "rotation", unit: "deg", alternateUnits: ["rad": radiansToDegrees]) { $0.rotation.map { $0 * radiansToDegrees } },
        ActionVariable(name: "rotation_velocity", unit: "deg/s", alternateUnits: ["rad/s": radiansToDegrees]) {
            $0.rotationVelocity.map { $0 * radiansToDegrees }
        },
        ActionVariable(name: "dx", unit: "mm") { $0.dxMM },
        ActionVariable(name: "dy", unit: "mm") { $0.dyMM },
        ActionVariable(name: "distance", unit: "mm") { event in
            guard let dx = event.dxMM, let dy = event.dyMM else { return nil }
            return (dx * dx + dy * dy).squareRoot()
        },
        ActionVariable(name: "vx", unit: "mm/s") { $0.vxMMPerS },
        ActionVariable(name: "vy", unit: "mm/s") { $0.vyMMPerS },
        ActionVariable(name: "speed", unit: "mm/s") { event in
            guard let vx = event.vxMMPerS, let vy = event.vyMMPerS else { return nil }
            return (vx * vx + vy * vy).squareRoot()
        },
        ActionVariable(name: "x", unit: "mm") { $0.xMM },
        ActionVariable(name: "y", unit: "mm") { $0.yMM },
        ActionVariable(name: "x_fraction", unit: nil) { $0.xFraction },
        ActionVariable(name: "y_fraction", unit: nil) { $0.yFraction },
    ]

    static func named(_ name: String) -> ActionVariable? {
        if let builtIn = all.first(where: { $0.name == name }) { return builtIn }
        if name.hasPrefix("value."), name.count > 6 {
            let key = String(name.dropFirst(6))
            return ActionVariable(name: name, unit: nil) { $0.values?[key] }
        }
        return nil
    }
}

/// The parsed file: actions in file order, and every problem found.
struct ActionsFile: Sendable {
    var actions: [Action] = []
    var diagnostics: [ConfigDiagnostic] = []

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    static let keys = ["Gesture", "Kind", "State", "Fingers", "Direction", "Edge", "Device", "When", "Command", "Keys", "Click", "Once", "WhenLocked"]
    static let builtInKinds = ["tap", "long_press", "pan", "swipe", "pinch", "rotation", "edge_pan"]
    static let directions = ["left", "right", "up", "down"]
    static let edges = ["left", "right", "top", "bottom"]

    /// Parses actions.conf text. `file` names it in diagnostics.
    static func parse(file: String, contents: String) -> ActionsFile {
        var result = ActionsFile()
        var parser = Parser(file: file)
        parser.parse(contents)
        result.actions = parser.actions
        result.diagnostics = parser.diagnostics
        return result
    }

    /// The daemon-side subscription that delivers at least every event some action matches.
    /// States are never filtered: `Once=` needs each gesture's final state to forget its id.
    /// Names, kinds and devices are filtered only when every action filters on them, because
    /// the daemon ANDs its filters while actions are alternatives.
    var subscription: SubscribeRequest {
        func union(_ lists: [[String]]) -> [String]? {
            guard !lists.isEmpty, lists.allSatisfy({ !$0.isEmpty }) else { return nil }
            var seen: [String] = []
            for item in lists.joined() where !seen.contains(item) { seen.append(item) }
            return seen
        }
        let byName = union(actions.map(\.gestures))
        return SubscribeRequest(
            gestures: byName,
            kinds: byName == nil ? union(actions.map(\.kinds)) : nil,
            devices: union(actions.map(\.devices))
        )
    }
}

/// A systemd-style INI reader for actions.conf, like GesturedConfig's (whose lexer is
/// internal to that module): `[Action NAME]` headers, `Key=Value` lines, `#`/`;` comments.
private struct Parser {
    let file: String
    var actions: [Action] = []
    var diagnostics: [ConfigDiagnostic] = []
    /// The action being read, nil inside a broken or unknown section (its keys are skipped
    /// so one mistake does not cascade).
    private var current: Action?
    /// Line of the `Command=`/`Keys=`/`Click=` that set the current action's effect.
    private var effectLine = 0
    private var inDeadSection = false

    init(file: String) { self.file = file }

    mutating func error(_ line: Int, _ column: Int, _ message: String, hint: String? = nil) {
        diagnostics.append(ConfigDiagnostic(severity: .error, file: file, line: line, column: column, message: message, hint: hint))
    }

    mutating func warning(_ line: Int, _ column: Int, _ message: String, hint: String? = nil) {
        diagnostics.append(ConfigDiagnostic(severity: .warning, file: file, line: line, column: column, message: message, hint: hint))
    }

    mutating func parse(_ contents: String) {
        var lineNumber = 0
        for rawLine in ConfigText.lines(contents) {
            lineNumber += 1
            var line = rawLine
            if line.last == "\r" { line = line.dropLast() }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            let text = trimTrailing(line.dropFirst(indent))
            let column = indent + 1
            guard let first = text.first, first != "#", first != ";" else { continue }
            if first == "[" {
                header(text, line: lineNumber, column: column)
                continue
            }
            guard let equals = text.firstIndex(of: "=") else {
                error(lineNumber, column, "expected 'Key=Value' or an '[Action NAME]' header, found '\(text)'")
                continue
            }
            let key = trimTrailing(text[..<equals])
            let afterEquals = text[text.index(after: equals)...]
            let valueIndent = afterEquals.prefix { $0 == " " || $0 == "\t" }.count
            var value = afterEquals.dropFirst(valueIndent)
            var valueColumn = column + text.distance(from: text.startIndex, to: equals) + 1 + valueIndent
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
                valueColumn += 1
            }
            if key.isEmpty {
                error(lineNumber, column, "missing key before '='")
                continue
            }
            if inDeadSection { continue }
            guard current != nil else {
                error(lineNumber, column, "'\(key)=' appears before any section header", hint: "start with a section such as [Action zoom-in]")
                continue
            }
            entry(String(key), String(value), line: lineNumber, keyColumn: column, valueColumn: valueColumn)
        }
        finishSection()
    }

    private mutating func header(_ text: Substring, line: Int, column: Int) {
        finishSection()
        guard text.last == "]" else {
            error(line, column, "section header is missing its closing ']'")
            inDeadSection = true
            return
        }
        let inner = text.dropFirst().dropLast()
        let leading = inner.prefix { $0 == " " || $0 == "\t" }.count
        let body = inner.dropFirst(leading)
        let type = body.prefix { $0 != " " && $0 != "\t" }
        let rest = body.dropFirst(type.count)
        let nameIndent = rest.prefix { $0 == " " || $0 == "\t" }.count
        let name = trimTrailing(rest.dropFirst(nameIndent))
        guard type == "Action" else {
            let hint = editDistance(String(type), "Action") <= 2 ? "did you mean [Action \(name.isEmpty ? "NAME" : name)]?" : "actions.conf has only [Action NAME] sections"
            error(line, column + 1 + leading, "unknown section type '[\(type)]'", hint: hint)
            inDeadSection = true
            return
        }
        guard !name.isEmpty else {
            error(line, column, "an [Action] section needs a name", hint: "for example [Action zoom-in]")
            inDeadSection = true
            return
        }
        let nameColumn = column + 1 + leading + type.count + nameIndent
        if actions.contains(where: { $0.name == name }) {
            error(line, nameColumn, "action '\(name)' is defined twice")
        }
        current = Action(name: String(name), line: line)
        effectLine = 0
        inDeadSection = false
    }

    private mutating func finishSection() {
        defer {
            current = nil
            inDeadSection = false
        }
        guard let action = current else { return }
        guard action.effect != nil else {
            if effectLine == 0 {
                error(
                    action.line, 1, "[Action \(action.name)] has no Command=, Keys= or Click=",
                    hint: "add a line such as Command=notify-send \"$GESTURED_NAME\" or Keys=super+Page_Up")
            }
            return
        }
        if let effect = action.effect, effect.key != "Command", !action.once, Self.firesRepeatedly(action) {
            warning(
                effectLine, 1,
                "[Action \(action.name)] presses \(effect.key)=\(effect.text) on every event of a continuous gesture (many a second; the daemon rate-limits them)",
                hint: "add Once=yes, or State=ended")
        }
        let filters = action.gestures.count + action.kinds.count + action.states.count + action.fingers.count + action.directions.count
            + action.edges.count + action.devices.count + action.conditions.count
        if filters == 0 {
            warning(action.line, 1, "[Action \(action.name)] has no filter and runs for every event of every gesture", hint: "add Gesture= or Kind=")
        }
        actions.append(action)
    }

    /// Whether `action` can match many events of one gesture: `changed` among its states, or
    /// no state filter on a continuous kind (long_press, pan, pinch, rotation, edge_pan:
    /// began, changed…, ended).
    private static func firesRepeatedly(_ action: Action) -> Bool {
        if action.states.contains(.changed) { return true }
        guard action.states.isEmpty else { return false }
        let continuous = ["long_press", "pan", "pinch", "rotation", "edge_pan"]
        return !action.kinds.isEmpty && action.kinds.allSatisfy { continuous.contains($0) }
    }

    /// Splits a list value on spaces and commas, keeping each item's column.
    private func items(_ value: String, column: Int) -> [(text: String, column: Int)] {
        var result: [(String, Int)] = []
        var currentItem = ""
        var start = column
        for (offset, character) in value.enumerated() {
            if character == " " || character == "\t" || character == "," {
                if !currentItem.isEmpty { result.append((currentItem, start)) }
                currentItem = ""
                continue
            }
            if currentItem.isEmpty { start = column + offset }
            currentItem.append(character)
        }
        if !currentItem.isEmpty { result.append((currentItem, start)) }
        return result
    }

    private mutating func entry(_ key: String, _ value: String, line: Int, keyColumn: Int, valueColumn: Int) {
        guard var action = current else { return }
        defer { current = action }
        let list = items(value, column: valueColumn)
        switch key {
        case "Gesture":
            action.gestures += list.map(\.text)
        case "Kind":
            for item in list {
                if !ActionsFile.builtInKinds.contains(item.text), let close = closest(item.text, in: ActionsFile.builtInKinds) {
                    warning(line, item.column, "'\(item.text)' is not a built-in kind (custom kinds are fine)", hint: "did you mean '\(close)'?")
                }
                action.kinds.append(item.text)
            }
        case "State":
            for item in list {
                if let state = WireGestureState(rawValue: item.text) {
                    action.states.append(state)
                } else {
                    let known = WireGestureState.allCases.map(\.rawValue)
                    let hint = closest(item.text, in: known).map { "did you mean '\($0)'?" } ?? "one of \(known.joined(separator: ", "))"
                    error(line, item.column, "unknown state '\(item.text)'", hint: hint)
                }
            }
        case "Fingers":
            for item in list {
                if let range = fingerRange(item.text) {
                    action.fingers.append(range)
                } else {
                    error(line, item.column, "'\(item.text)' is not a finger count", hint: "a number such as 3, or a range such as 2-4")
                }
            }
        case "Direction":
            action.directions += checked(list, allowed: ActionsFile.directions, what: "direction", line: line)
        case "Edge":
            action.edges += checked(list, allowed: ActionsFile.edges, what: "edge", line: line)
        case "Device":
            // Device names contain spaces ("ELAN Touchscreen"), so the value is one item.
            if !value.isEmpty { action.devices.append(value) }
        case "When":
            if let condition = condition(value, line: line, column: valueColumn) { action.conditions.append(condition) }
        case "Command", "Keys", "Click":
            if effectLine != 0 {
                let earlier = action.effect?.key ?? key
                let hint = earlier == "Command" && key == "Command" ? "join the commands with ';' or '&&'" : "an action does one thing: split it into two actions"
                error(line, keyColumn, "\(key)= given after \(earlier)= (line \(effectLine)) in [Action \(action.name)]", hint: hint)
                return
            }
            effectLine = line
            guard !value.isEmpty else {
                error(line, valueColumn, "\(key)= is empty")
                return
            }
            action.effect = effect(key, value, line: line, column: valueColumn)
        case "Once":
            switch value.lowercased() {
            case "yes", "true", "on", "1": action.once = true
            case "no", "false", "off", "0": action.once = false
            default: error(line, valueColumn, "Once= takes yes or no, not '\(value)'")
            }
        case "WhenLocked":
            switch value.lowercased() {
            case "yes", "true", "on", "1": action.whenLocked = true
            case "no", "false", "off", "0": action.whenLocked = false
            default: error(line, valueColumn, "WhenLocked= takes yes or no, not '\(value)'")
            }
        default:
            let hint = closest(key, in: ActionsFile.keys).map { "did you mean '\($0)'?" } ?? "keys are \(ActionsFile.keys.joined(separator: ", "))"
            error(line, keyColumn, "unknown key '\(key)' in [Action \(action.name)]", hint: hint)
        }
    }

    private mutating func checked(_ list: [(text: String, column: Int)], allowed: [String], what: String, line: Int) -> [String] {
        var result: [String] = []
        for item in list {
            if allowed.contains(item.text) {
                result.append(item.text)
            } else {
                error(line, item.column, "unknown \(what) '\(item.text)'", hint: "one of \(allowed.joined(separator: ", "))")
            }
        }
        return result
    }

    /// `Command=` as is; `Keys=` split on '+' and each name checked against the kernel's key
    /// names (InputNames, the daemon's own table); `Click=` one button name.
    private mutating func effect(_ key: String, _ value: String, line: Int, column: Int) -> ActionEffect? {
        switch key {
        case "Keys":
            var names: [String] = []
            var offset = 0
            for part in value.split(separator: "+", omittingEmptySubsequences: false) {
                let leading = part.prefix { $0 == " " }.count
                let name = String(part).trimmingSpaces()
                let nameColumn = column + offset + leading
                offset += part.count + 1
                guard !name.isEmpty else {
                    error(line, nameColumn, "empty key name in Keys=\(value)", hint: "separate keys with '+'; the plus key is 'plus'")
                    return nil
                }
                if case .failure(let problem) = InputNames.key(name) {
                    let hint = problem.suggestion.map { "did you mean '\($0)'?" } ?? "kernel names such as KEY_PAGEUP, or aliases such as super, ctrl, Page_Up (gestured-ipc(7))"
                    error(line, nameColumn, "unknown key '\(name)' in Keys=", hint: hint)
                    return nil
                }
                names.append(name)
            }
            guard names.count <= 8 else {
                error(line, column, "Keys= presses \(names.count) keys; at most 8 go together")
                return nil
            }
            return .keys(names: names)
        case "Click":
            if case .failure(let problem) = InputNames.button(value) {
                let known = InputNames.buttonNames.map(\.name).joined(separator: ", ")
                let hint = problem.suggestion.map { "did you mean '\($0)'?" } ?? "one of \(known)"
                error(line, column, "unknown button '\(value)' in Click=", hint: hint)
                return nil
            }
            return .click(button: value)
        default:
            return .command(value)
        }
    }

    private func fingerRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 1, let n = Int(parts[0]), n > 0 { return n...n }
        if parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), low > 0, low <= high { return low...high }
        return nil
    }

    private mutating func condition(_ value: String, line: Int, column: Int) -> ActionCondition? {
        let characters = Array(value)
        // The variable: letters, digits, '_' and '.' (value.NAME).
        var index = 0
        while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" || characters[index] == "." {
            index += 1
        }
        let name = String(characters[0..<index])
        guard !name.isEmpty else {
            error(line, column, "When= needs a comparison such as scale>1.3")
            return nil
        }
        guard let variable = ActionVariable.named(name) else {
            let names = ActionVariable.all.map(\.name)
            let hint = closest(name, in: names).map { "did you mean '\($0)'?" } ?? "one of \(names.joined(separator: ", ")), or value.NAME"
            error(line, column, "unknown value '\(name)' in When=", hint: hint)
            return nil
        }
        while index < characters.count, characters[index] == " " { index += 1 }
        let rest = String(characters[index...])
        guard let comparison = ActionCondition.Operator.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else {
            error(line, column + index, "expected a comparison (>, >=, <, <=, ==, !=) after '\(name)'")
            return nil
        }
        index += comparison.rawValue.count
        while index < characters.count, characters[index] == " " { index += 1 }
        let numberColumn = column + index
        let operand = String(characters[index...])
        let numberText = operand.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" }
        guard !numberText.isEmpty, var number = Double(numberText) else {
            error(line, numberColumn, "expected a number after '\(name)\(comparison.rawValue)', found '\(operand)'")
            return nil
        }
        let unit = operand.dropFirst(numberText.count).trimmingSpaces()
        if !unit.isEmpty {
            if unit == variable.unit {
                // already in the variable's unit
            } else if let factor = variable.alternateUnits[unit] {
                number *= factor
            } else {
                let expected = variable.unit.map { "'\(name)' is compared in \($0)" } ?? "'\(name)' takes a plain number"
                error(line, numberColumn + numberText.count, "unit '\(unit)' does not fit \(name)", hint: expected)
                return nil
            }
        }
        return ActionCondition(variable: variable, comparison: comparison, value: number)
    }

    /// The first candidate nearest to `word` (case-insensitive), when within
    /// max(2, a third of the word). Each candidate's distance is computed once.
    private func closest(_ word: String, in candidates: [String]) -> String? {
        let lowered = word.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, word.count / 3) else { return nil }
        return best.candidate
    }

    private func trimTrailing(_ s: Substring) -> Substring {
        var s = s
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
