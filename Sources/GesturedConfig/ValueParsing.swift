import GestureEngine

/// A value-parsing failure: the message and, when useful, a hint.
struct ValueError: Error, Sendable {
    var message: String
    var hint: String?
    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}

/// Parsers for the value syntaxes of gestured.conf(5). Each returns the value in the engine's
/// base unit: millimetres, seconds, radians.
enum ValueParsing {
    /// Splits "7.5mm" into (7.5, "mm"). The number is a plain decimal (sign, digits, point,
    /// exponent); everything after it is the unit.
    static func splitNumber(_ text: String) -> (Double, String)? {
        var end = text.startIndex
        var seenDigit = false
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if c.isASCII, c.isNumber {
                seenDigit = true
            } else if c == "." || ((c == "-" || c == "+") && index == text.startIndex) {
                // part of the number
            } else if (c == "e" || c == "E"), seenDigit {
                // An exponent only when followed by a digit or sign+digit; otherwise it is a unit.
                let next = text.index(after: index)
                guard next < text.endIndex else { break }
                var digitIndex = next
                if text[next] == "-" || text[next] == "+" { digitIndex = text.index(after: next) }
                guard digitIndex < text.endIndex, text[digitIndex].isASCII, text[digitIndex].isNumber else { break }
                index = digitIndex
                end = text.index(after: index)
                index = end
                continue
            } else {
                break
            }
            index = text.index(after: index)
            end = index
        }
        guard seenDigit, let number = Double(text[..<end]), number.isFinite else { return nil }
        let unit = text[end...].trimmingSpaces()
        return (number, String(unit))
    }

    private static func number(_ text: String, what: String) throws(ValueError) -> (Double, String) {
        guard let parsed = splitNumber(text) else {
            throw ValueError("'\(text)' is not a number", hint: what)
        }
        return parsed
    }

    /// A non-negative length: `7mm`, `0.5cm`.
    static func length(_ text: String) throws(ValueError) -> Double {
        let (value, unit) = try number(text, what: "write a length such as 7mm")
        let mm: Double
        switch unit {
        case "mm": mm = value
        case "cm": mm = value * 10
        case "": throw ValueError("length '\(text)' needs a unit", hint: "write \(text)mm")
        default: throw ValueError("'\(unit)' is not a length unit", hint: "use mm or cm")
        }
        guard mm >= 0 else { throw ValueError("length '\(text)' must not be negative") }
        return mm
    }

    /// A length, or `infinity` for "no limit".
    static func lengthOrInfinity(_ text: String) throws(ValueError) -> Double {
        if text == "infinity" { return .infinity }
        return try length(text)
    }

    /// A non-negative duration in seconds: `750ms`, `0.5s`, `200us`.
    static func duration(_ text: String) throws(ValueError) -> Double {
        let (value, unit) = try number(text, what: "write a duration such as 500ms")
        let seconds: Double
        switch unit {
        case "s": seconds = value
        case "ms": seconds = value / 1000
        case "us", "µs": seconds = value / 1_000_000
        case "": throw ValueError("duration '\(text)' needs a unit", hint: "write \(text)ms or \(text)s")
        default: throw ValueError("'\(unit)' is not a time unit", hint: "use ms, s or us")
        }
        guard seconds >= 0 else { throw ValueError("duration '\(text)' must not be negative") }
        return seconds
    }

    /// An angle in radians: `77.5deg`, `0.1rad`.
    static func angle(_ text: String) throws(ValueError) -> Double {
        let (value, unit) = try number(text, what: "write an angle such as 5deg")
        let radians: Double
        switch unit {
        case "deg", "°": radians = value * Double.pi / 180
        case "rad": radians = value
        case "": throw ValueError("angle '\(text)' needs a unit", hint: "write \(text)deg")
        default: throw ValueError("'\(unit)' is not an angle unit", hint: "use deg or rad")
        }
        guard radians >= 0 else { throw ValueError("angle '\(text)' must not be negative") }
        return radians
    }

    /// A speed in mm/s: `100mm/s`.
    static func speed(_ text: String) throws(ValueError) -> Double {
        let (value, unit) = try number(text, what: "write a speed such as 100mm/s")
        guard unit == "mm/s" else {
            if unit.isEmpty { throw ValueError("speed '\(text)' needs a unit", hint: "write \(text)mm/s") }
            throw ValueError("'\(unit)' is not a speed unit", hint: "use mm/s")
        }
        guard value >= 0 else { throw ValueError("speed '\(text)' must not be negative") }
        return value
    }

    /// A unitless number (a rate, a factor), `> 0` when `positive`.
    static func plainNumber(_ text: String, positive: Bool = false) throws(ValueError) -> Double {
        let (value, unit) = try number(text, what: "write a plain number such as 0.5")
        guard unit.isEmpty else {
            throw ValueError("this value takes no unit, found '\(unit)'", hint: "write \(text.dropLast(unit.count))")
        }
        if positive, value <= 0 { throw ValueError("'\(text)' must be greater than 0") }
        if value < 0 { throw ValueError("'\(text)' must not be negative") }
        return value
    }

    /// An integer within `range`.
    static func integer(_ text: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
        guard let value = Int(text) else {
            if let (_, unit) = splitNumber(text), !unit.isEmpty {
                throw ValueError("this value is a count and takes no unit, found '\(unit)'")
            }
            throw ValueError("'\(text)' is not an integer")
        }
        guard range.contains(value) else {
            let upper = range.upperBound == Int.max ? "" : " and \(range.upperBound)"
            throw ValueError(
                range.upperBound == Int.max
                    ? "'\(text)' must be at least \(range.lowerBound)"
                    : "'\(text)' must be between \(range.lowerBound)\(upper)"
            )
        }
        return value
    }

    /// An integer, or `infinity` for "no limit" (`Int.max`).
    static func integerOrInfinity(_ text: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
        if text == "infinity" { return Int.max }
        return try integer(text, in: range)
    }

    /// A boolean: yes/no, true/false, on/off, 1/0.
    static func boolean(_ text: String) throws(ValueError) -> Bool {
        switch text.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw ValueError("'\(text)' is not a boolean", hint: "use yes or no")
        }
    }

    /// A list separated by commas and/or whitespace; empty items are dropped.
    static func list(_ text: String) -> [String] {
        text.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
    }

    /// A list whose items must come from `allowed` (spelled as on the wire).
    static func enumList<T>(_ text: String, _ what: String, _ allowed: [(String, T)]) throws(ValueError) -> [T] {
        var result: [T] = []
        for item in list(text) {
            guard let match = allowed.first(where: { $0.0 == item }) else {
                let names = allowed.map(\.0)
                let hint = Suggest.closest(to: item, among: names).map { "did you mean '\($0)'?" }
                throw ValueError(
                    "'\(item)' is not a \(what) (expected one of \(names.joined(separator: ", ")))",
                    hint: hint
                )
            }
            result.append(match.1)
        }
        return result
    }

    static func directions(_ text: String) throws(ValueError) -> Set<Direction> {
        Set(try enumList(text, "direction", Direction.allCases.map { ($0.rawValue, $0) }))
    }

    static func edges(_ text: String) throws(ValueError) -> Set<Edge> {
        Set(try enumList(text, "edge", Edge.allCases.map { ($0.rawValue, $0) }))
    }

    static func deviceKinds(_ text: String) throws(ValueError) -> Set<DeviceKind> {
        Set(try enumList(text, "device kind", DeviceKind.allCases.map { ($0.rawValue, $0) }))
    }

    static func tools(_ text: String) throws(ValueError) -> Set<ToolType> {
        Set(try enumList(text, "tool", [("finger", ToolType.finger), ("pen", .pen), ("palm", .palm)]))
    }

    /// A region: `surface`, `edge:left:5mm`, `rect:10mm,0mm,80mm,20mm` or `rect:10%,0%,80%,20%`.
    static func region(_ text: String) throws(ValueError) -> Region {
        let hint = "write surface, edge:left:5mm, rect:10mm,0mm,80mm,20mm or rect:10%,0%,80%,20%"
        if text == "surface" { return .surface }
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "edge":
            guard parts.count == 3 else {
                throw ValueError("'\(text)' is not a region", hint: "write edge:EDGE:WIDTH, e.g. edge:left:5mm")
            }
            let edge = try enumList(parts[1], "edge", Edge.allCases.map { ($0.rawValue, $0) })
            guard edge.count == 1 else { throw ValueError("an edge region names exactly one edge") }
            return .edge(edge[0], width: try length(parts[2]))
        case "rect":
            guard parts.count == 2 else { throw ValueError("'\(text)' is not a region", hint: hint) }
            let items = parts[1].split(separator: ",").map { String($0.trimmingSpaces()) }
            guard items.count == 4 else {
                throw ValueError("a rectangle needs 4 values x,y,width,height, found \(items.count)", hint: hint)
            }
            if items.allSatisfy({ $0.hasSuffix("%") }) {
                var fractions: [Double] = []
                for item in items {
                    guard let (value, _) = splitNumber(item), value >= 0, value <= 100 else {
                        throw ValueError("'\(item)' is not a percentage between 0% and 100%")
                    }
                    fractions.append(value / 100)
                }
                return .fraction(x: fractions[0], y: fractions[1], width: fractions[2], height: fractions[3])
            }
            if items.contains(where: { $0.hasSuffix("%") }) {
                throw ValueError("a rectangle is either all millimetres or all percentages", hint: hint)
            }
            var mm: [Double] = []
            for item in items { mm.append(try length(item)) }
            return .rectangle(PhysicalRect(x: mm[0], y: mm[1], width: mm[2], height: mm[3]))
        default:
            throw ValueError("'\(text)' is not a region", hint: hint)
        }
    }

    /// A 16-bit id in hex (`0x04f3`) or decimal.
    static func usbID(_ text: String) throws(ValueError) -> UInt16 {
        let lower = text.lowercased()
        let value: UInt16?
        if lower.hasPrefix("0x") {
            value = UInt16(lower.dropFirst(2), radix: 16)
        } else {
            value = UInt16(lower)
        }
        guard let value else { throw ValueError("'\(text)' is not a 16-bit id", hint: "write it in hex, e.g. 0x04f3") }
        return value
    }

    /// A file mode in octal (`0660`).
    static func mode(_ text: String) throws(ValueError) -> UInt32 {
        guard let value = UInt32(text, radix: 8), value <= 0o7777 else {
            throw ValueError("'\(text)' is not an octal file mode", hint: "write e.g. 0660")
        }
        return value
    }
}

extension StringProtocol {
    func trimmingSpaces() -> Substring {
        var s = self[...]
        while let first = s.first, first == " " || first == "\t" { s = s.dropFirst() }
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return Substring(s)
    }
}

/// "Did you mean" suggestions by edit distance.
enum Suggest {
    /// Levenshtein distance, case-insensitive.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate nearest to `word`, when it is close enough to be a likely typo
    /// (at most 2 edits, or a third of the word's length for long words); the first of
    /// equally near candidates. Distances past that bound, or past the best so far, are
    /// never needed exactly: each candidate's computation stops once it must exceed them
    /// (a file of typos, or the fuzzer, asks for a suggestion per unknown key).
    static func closest(to word: String, among candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        let bound = Swift.max(2, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let limit = Swift.min(bound, (best?.distance ?? bound + 1) - 1)
            guard limit >= 0, let d = distance(target, Array(candidate.lowercased()), atMost: limit) else { continue }
            best = (candidate, d)
            if d == 0 { break }
        }
        return best?.name
    }

    /// The Levenshtein distance of `a` and `b`, or nil when it is more than `limit`.
    static func distance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return Swift.max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = Swift.min(rowMinimum, current[j])
            }
            // No later row has an entry below this row's least.
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
