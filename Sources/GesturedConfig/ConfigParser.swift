import GestureEngine

/// One configuration text and the name its diagnostics use.
public struct ConfigSource: Hashable, Sendable {
    /// A path or label ("/etc/gestured/gestured.conf", "<stdin>").
    public var name: String
    public var contents: String

    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

/// What parsing produced: the configuration and every diagnostic, in file order.
public struct ConfigParseResult: Hashable, Sendable {
    /// Usable only when ``hasErrors`` is false (erroneous keys are left at their defaults).
    public var configuration: Configuration
    public var diagnostics: [ConfigDiagnostic]

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    public var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .warning } }
}

extension Configuration {
    /// Parses one file.
    public static func parse(_ contents: String, fileName: String) -> ConfigParseResult {
        parse([ConfigSource(name: fileName, contents: contents)])
    }

    /// Parses layered files: the main file first, then drop-ins (and quirks) in the order
    /// given — callers pass drop-ins sorted lexically by file name. A section named again in a
    /// later file is the same section: each key it sets replaces the earlier value, keys it
    /// does not set keep theirs. Gestures keep the position of their first declaration.
    ///
    /// Every problem is reported, not just the first: unknown sections and keys are warnings
    /// (with a "did you mean" hint) and are ignored; bad values, keys that do not fit the
    /// gesture's kind, unknown gesture names in relations and `RequireFailureOf=` cycles are
    /// errors.
    public static func parse(_ sources: [ConfigSource]) -> ConfigParseResult {
        var parser = ConfigParser()
        for source in sources {
            parser.add(source)
        }
        return parser.finish()
    }
}

/// A section after layering: the latest entry per key, keys in first-seen order.
private struct MergedSection {
    var type: String
    var name: String?
    var location: SourceLocation
    var keyOrder: [String] = []
    var entries: [String: INIEntry] = [:]

    mutating func set(_ entry: INIEntry) {
        if entries[entry.key] == nil { keyOrder.append(entry.key) }
        entries[entry.key] = entry
    }

    var orderedEntries: [INIEntry] { keyOrder.compactMap { entries[$0] } }
}

private let sectionTypes = ["Daemon", "TouchFilter", "Device", "Gesture"]

private struct ConfigParser {
    var diagnostics = DiagnosticCollector()
    var sections: [MergedSection] = []
    var sectionIndex: [String: Int] = [:]
    /// Values already reported as invalid while reading, so building does not repeat them.
    var reportedValues: Set<SourceLocation> = []
    /// Position of each file in the layering order, to sort diagnostics file by file.
    var fileOrder: [String: Int] = [:]

    mutating func add(_ source: ConfigSource) {
        if fileOrder[source.name] == nil { fileOrder[source.name] = fileOrder.count }
        let lexed = INILexer.lex(file: source.name, contents: source.contents, diagnostics: &diagnostics)
        for section in lexed {
            addSection(section)
        }
    }

    private mutating func addSection(_ section: INISection) {
        // A header the lexer could not read was already reported.
        if section.type.isEmpty { return }
        let header = "[\(section.type)\(section.name.map { " " + $0 } ?? "")]"
        guard sectionTypes.contains(section.type) else {
            let hint = Suggest.closest(to: section.type, among: sectionTypes).map { "did you mean [\($0)]?" }
            diagnostics.warning(section.location, "unknown section \(header), ignoring", hint: hint)
            return
        }
        switch (section.type, section.name) {
        case ("Daemon", .some), ("TouchFilter", .some):
            diagnostics.error(section.nameLocation, "[\(section.type)] takes no name", hint: "write [\(section.type)]")
            return
        case ("Device", nil), ("Gesture", nil):
            diagnostics.error(
                section.location,
                "[\(section.type)] needs a name",
                hint:
                    "write [\(section.type) NAME], e.g. [\(section.type) \(section.type == "Device" ? "touchpads" : "double-tap")]"
            )
            return
        case ("Gesture", .some(let name)) where !isValidGestureName(name):
            diagnostics.error(
                section.nameLocation,
                "'\(name)' is not a valid gesture name",
                hint: "use letters, digits, '-', '_' and '.'"
            )
            return
        default:
            break
        }
        let id = section.type + "\u{0}" + (section.name ?? "")
        let index: Int
        if let existing = sectionIndex[id] {
            index = existing
        } else {
            index = sections.count
            sectionIndex[id] = index
            sections.append(MergedSection(type: section.type, name: section.name, location: section.location))
        }
        for entry in section.entries where checkEntry(entry, in: section.type, header: header) {
            sections[index].set(entry)
        }
    }

    /// Warns about unknown keys, reports value syntax errors; true when the key is known.
    private mutating func checkEntry(_ entry: INIEntry, in type: String, header: String) -> Bool {
        switch type {
        case "Daemon":
            guard let spec = daemonKeys.first(where: { $0.name == entry.key }) else {
                unknownKey(entry, header: header, candidates: daemonKeys.map(\.name))
                return false
            }
            var scratch = DaemonSettings()
            reportValueError(entry) { v throws(ValueError) in try spec.apply(&scratch, v) }
        case "TouchFilter":
            guard let spec = touchFilterKeys.first(where: { $0.name == entry.key }) else {
                unknownKey(entry, header: header, candidates: touchFilterKeys.map(\.name))
                return false
            }
            var scratch = TouchFilterSettings()
            reportValueError(entry) { v throws(ValueError) in try spec.apply(&scratch, v) }
        case "Device":
            guard let spec = deviceKeys.first(where: { $0.name == entry.key }) else {
                unknownKey(entry, header: header, candidates: deviceKeys.map(\.name))
                return false
            }
            var scratch = DeviceRule(name: "")
            reportValueError(entry) { v throws(ValueError) in try spec.apply(&scratch, v) }
        default:
            guard let spec = gestureKeys.first(where: { $0.name == entry.key }) else {
                unknownKey(entry, header: header, candidates: gestureKeys.map(\.name))
                return false
            }
            // Check the value against the kinds the key applies to; it is valid when one of
            // them accepts it. Whether it fits the section's kind (and that kind's range, e.g.
            // Fingers=1 for a pinch) is checked after layering, once Kind= is final.
            let kinds = spec.kinds ?? [.tap]
            var firstError: ValueError?
            for kind in kinds {
                var scratch = RecognizerConfiguration(name: "", kind: kind.defaultKind)
                do {
                    try spec.apply(&scratch, entry.value)
                    firstError = nil
                    break
                } catch {
                    firstError = firstError ?? error
                }
            }
            if let firstError { report(firstError, for: entry) }
        }
        return true
    }

    private mutating func unknownKey(_ entry: INIEntry, header: String, candidates: [String]) {
        let hint = Suggest.closest(to: entry.key, among: candidates).map { "did you mean '\($0)'?" }
        diagnostics.warning(entry.keyLocation, "unknown key '\(entry.key)' in \(header), ignoring", hint: hint)
    }

    private mutating func reportValueError(_ entry: INIEntry, _ apply: (String) throws(ValueError) -> Void) {
        do {
            try apply(entry.value)
        } catch {
            report(error, for: entry)
        }
    }

    private mutating func report(_ error: ValueError, for entry: INIEntry) {
        guard reportedValues.insert(entry.valueLocation).inserted else { return }
        diagnostics.error(entry.valueLocation, "\(entry.key)=: \(error.message)", hint: error.hint)
    }

    /// Applies an effective entry; a failure not seen while reading is reported now.
    private mutating func apply<Target>(_ spec: KeySpec<Target>, _ entry: INIEntry, to target: inout Target) {
        do {
            try spec.apply(&target, entry.value)
        } catch {
            report(error, for: entry)
        }
    }

    private func isValidGestureName(_ name: String) -> Bool {
        name.unicodeScalars.allSatisfy { s in
            (s.value < 128 && (s.properties.isAlphabetic || ("0"..."9").contains(s))) || s == "-" || s == "_"
                || s == "."
        }
    }

    // MARK: Building

    mutating func finish() -> ConfigParseResult {
        var configuration = Configuration()
        var gestureEntries: [String: [String: INIEntry]] = [:]
        var gestureLocations: [String: SourceLocation] = [:]
        var ruleEntries: [(DeviceRule, INIEntry?)] = []

        for section in sections {
            switch section.type {
            case "Daemon":
                for entry in section.orderedEntries {
                    guard let spec = daemonKeys.first(where: { $0.name == entry.key }) else { continue }
                    apply(spec, entry, to: &configuration.daemon)
                }
                if configuration.daemon.clientQueueSoft > configuration.daemon.clientQueueHard,
                    let entry = section.entries["ClientQueueSoft"] ?? section.entries["ClientQueueHard"]
                {
                    diagnostics.error(
                        entry.valueLocation,
                        "ClientQueueSoft= (\(configuration.daemon.clientQueueSoft)) must not exceed ClientQueueHard= (\(configuration.daemon.clientQueueHard))"
                    )
                }
            case "TouchFilter":
                for entry in section.orderedEntries {
                    guard let spec = touchFilterKeys.first(where: { $0.name == entry.key }) else { continue }
                    do {
                        try spec.apply(&configuration.touchFilter, entry.value)
                    } catch {
                        report(error, for: entry)
                    }
                }
            case "Device":
                var rule = DeviceRule(name: section.name ?? "")
                for entry in section.orderedEntries {
                    guard let spec = deviceKeys.first(where: { $0.name == entry.key }) else { continue }
                    apply(spec, entry, to: &rule)
                }
                configuration.deviceRules.append(rule)
                ruleEntries.append((rule, section.entries["Gestures"]))
            default:
                let name = section.name ?? ""
                if let gesture = buildGesture(name: name, section: section) {
                    if let entry = section.entries["WhenLocked"], (try? ValueParsing.boolean(entry.value)) == true {
                        configuration.gesturesWhenLocked.insert(name)
                    }
                    configuration.gestures.append(gesture)
                    gestureEntries[name] = section.entries
                    gestureLocations[name] = section.location
                }
            }
        }

        let names = configuration.gestures.map(\.name)
        checkRelations(configuration.gestures, entries: gestureEntries, names: names)
        checkCycles(configuration.gestures, entries: gestureEntries)
        for (rule, entry) in ruleEntries {
            guard let entry, let gestures = rule.gestures else { continue }
            for name in gestures where !names.contains(name) {
                unknownGesture(name, in: entry, names: names)
            }
        }
        // Diagnostics come out in file order however they were found, so that a reader can
        // fix them from top to bottom.
        let sorted = diagnostics.diagnostics.enumerated().sorted { a, b in
            let x = a.element
            let y = b.element
            if x.file != y.file { return (fileOrder[x.file] ?? Int.max) < (fileOrder[y.file] ?? Int.max) }
            if x.line != y.line { return x.line < y.line }
            if x.column != y.column { return x.column < y.column }
            return a.offset < b.offset
        }.map(\.element)
        return ConfigParseResult(configuration: configuration, diagnostics: sorted)
    }

    private mutating func buildGesture(name: String, section: MergedSection) -> RecognizerConfiguration? {
        let header = "[Gesture \(name)]"
        guard let kindEntry = section.entries["Kind"] else {
            diagnostics.error(
                section.location,
                "\(header) has no Kind=",
                hint: "add Kind= with one of \(KindName.allCases.map(\.rawValue).joined(separator: ", "))"
            )
            return nil
        }
        // An unknown kind was reported when the entry was read.
        guard let kind = KindName(rawValue: kindEntry.value) else { return nil }
        var gesture = RecognizerConfiguration(name: name, kind: kind.defaultKind)
        for entry in section.orderedEntries where entry.key != "Kind" {
            guard let spec = gestureKeys.first(where: { $0.name == entry.key }) else { continue }
            if let kinds = spec.kinds, !kinds.contains(kind) {
                diagnostics.error(
                    entry.keyLocation,
                    "'\(entry.key)=' does not apply to \(header), which has Kind=\(kind.rawValue)",
                    hint: "\(entry.key)= applies to Kind=\(kinds.map(\.rawValue).joined(separator: ", "))"
                )
                continue
            }
            apply(spec, entry, to: &gesture)
        }
        if gesture.policy.minimumFingers > gesture.policy.maximumFingers, let entry = section.entries["MinFingers"] {
            diagnostics.error(
                entry.valueLocation,
                "MinFingers= (\(gesture.policy.minimumFingers)) is greater than MaxFingers= (\(gesture.policy.maximumFingers))"
            )
        }
        if case .edgePan(let p) = gesture.kind, p.edges.isEmpty {
            diagnostics.warning(
                section.location,
                "\(header) sets no Edges=, so it never recognizes",
                hint: "add e.g. Edges=left"
            )
        }
        return gesture
    }

    private mutating func checkRelations(
        _ gestures: [RecognizerConfiguration],
        entries: [String: [String: INIEntry]],
        names: [String]
    ) {
        for gesture in gestures {
            for (key, related) in [
                ("RequireFailureOf", gesture.requiresFailureOf),
                ("RecognizeSimultaneouslyWith", gesture.recognizesSimultaneouslyWith),
            ] {
                guard let entry = entries[gesture.name]?[key] else { continue }
                for name in related {
                    if name == gesture.name {
                        diagnostics.error(entry.valueLocation, "\(key)=: gesture '\(name)' cannot name itself")
                    } else if !names.contains(name) {
                        unknownGesture(name, in: entry, names: names)
                    }
                }
            }
        }
    }

    private mutating func unknownGesture(_ name: String, in entry: INIEntry, names: [String]) {
        let hint = Suggest.closest(to: name, among: names).map { "did you mean '\($0)'?" }
        diagnostics.error(entry.valueLocation, "\(entry.key)=: no gesture is named '\(name)'", hint: hint)
    }

    /// Reports each cycle of `RequireFailureOf=` once, at the entry of the cycle's first
    /// gesture in declaration order.
    private mutating func checkCycles(_ gestures: [RecognizerConfiguration], entries: [String: [String: INIEntry]]) {
        let edges = Dictionary(gestures.map { ($0.name, $0.requiresFailureOf) }, uniquingKeysWith: { a, _ in a })
        let order = gestures.map(\.name)
        var reported = Set<String>()
        for start in order {
            guard !reported.contains(start), let cycle = findCycle(from: start, edges: edges) else { continue }
            // Only report from the cycle member declared first, so each cycle is named once.
            let first = order.first { cycle.contains($0) } ?? start
            guard first == start else { continue }
            cycle.forEach { reported.insert($0) }
            guard let entry = entries[start]?["RequireFailureOf"] else { continue }
            diagnostics.error(
                entry.valueLocation,
                "RequireFailureOf= forms a cycle: \((cycle + [start]).joined(separator: " → "))",
                hint: "a gesture cannot wait, directly or through others, for its own failure"
            )
        }
    }

    /// The cycle through `start` as [start, …], or nil.
    private func findCycle(from start: String, edges: [String: [String]]) -> [String]? {
        var path: [String] = [start]
        var visited: Set<String> = [start]
        func visit(_ node: String) -> Bool {
            for next in edges[node] ?? [] {
                if next == start { return true }
                guard edges[next] != nil, !visited.contains(next) else { continue }
                visited.insert(next)
                path.append(next)
                if visit(next) { return true }
                path.removeLast()
            }
            return false
        }
        return visit(start) ? path : nil
    }
}
