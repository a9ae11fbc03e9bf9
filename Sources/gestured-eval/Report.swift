/// The evaluation's figures and its printed table.
public struct EvaluationReport: Sendable {
    public var results: [RecordingResult]
    /// The tuning / validation split the figures are also reported by (nil: not reported).
    public var split: EvaluationSplit?

    public init(results: [RecordingResult], split: EvaluationSplit? = nil) {
        self.results = results
        self.split = split
    }

    public var passed: Int { results.count(where: \.passed) }
    public var total: Int { results.count }
    /// Percent of recordings that pass (0 when there are none).
    public var passRate: Double { total == 0 ? 0 : Double(passed) * 100 / Double(total) }

    /// Palm and resting-thumb recordings ("palm/thumb alone"): how many produce nothing.
    public var palmFigures: (passed: Int, total: Int) {
        let palms = results.filter { $0.expectation.category == "palm/thumb alone" }
        return (palms.count(where: \.passed), palms.count)
    }

    /// The column a device is counted in: the three hardware_Trackpad boards stand alone.
    static func column(_ result: RecordingResult) -> String {
        let device = result.expectation.device
        if ["alex", "lumpy", "link"].contains(device) { return device }
        if result.path.hasPrefix("chromiumos-autotest/") { return "other ChromeOS" }
        return "evemu/xorg"
    }

    /// The whole report: category × device table, per-device figures, and every failure with
    /// what was expected and what came out.
    public func render(showFailures: Bool = true) -> String {
        var lines: [String] = []
        let columns = ["alex", "lumpy", "link", "other ChromeOS", "evemu/xorg"]
        var categories: [String] = []
        for result in results where !categories.contains(result.expectation.category) {
            categories.append(result.expectation.category)
        }
        categories.sort()
        let width = max(28, (categories.map(\.count).max() ?? 0) + 2)
        func cell(_ rows: [RecordingResult]) -> String {
            rows.isEmpty ? "-" : "\(rows.count(where: \.passed))/\(rows.count)"
        }
        func pad(_ text: String, _ n: Int) -> String { text.count >= n ? text : text + String(repeating: " ", count: n - text.count) }
        lines.append(pad("category", width) + columns.map { pad($0, 16) }.joined() + "total")
        for category in categories {
            let rows = results.filter { $0.expectation.category == category }
            var line = pad(category, width)
            for column in columns { line += pad(cell(rows.filter { Self.column($0) == column }), 16) }
            line += cell(rows)
            lines.append(line)
        }
        var totalLine = pad("all", width)
        for column in columns { totalLine += pad(cell(results.filter { Self.column($0) == column }), 16) }
        totalLine += cell(results)
        lines.append(totalLine)
        lines.append("")
        lines.append("per device:")
        var devices: [String] = []
        for result in results where !devices.contains(result.expectation.device) { devices.append(result.expectation.device) }
        for device in devices.sorted() {
            let rows = results.filter { $0.expectation.device == device }
            lines.append("  " + pad(device, 50) + cell(rows))
        }
        if let split { lines += splitLines(split) }
        lines.append("")
        let palms = palmFigures
        lines.append(
            "passed \(passed)/\(total) (\(percent(passRate))); palm/thumb alone producing nothing: \(palms.passed)/\(palms.total)")
        if showFailures {
            let failures = results.filter { !$0.passed }
            if !failures.isEmpty {
                lines.append("")
                lines.append("failures (\(failures.count)):")
                for result in failures {
                    lines.append("  \(result.path)")
                    lines.append("    label:    \(result.expectation.category): \(result.expectation.label)")
                    lines.append("    expected: \(result.expectation.summary)")
                    lines.append("    got:      \(result.observation?.summary ?? "nothing (not replayed)")")
                    lines.append("    why:      \(result.failures.joined(separator: "; "))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Figures per group of the split (folder or board) and per set, each with its
    /// palm/thumb-alone figure.
    func splitLines(_ split: EvaluationSplit) -> [String] {
        func pad(_ text: String, _ n: Int) -> String { text.count >= n ? text : text + String(repeating: " ", count: n - text.count) }
        func figures(_ rows: [RecordingResult]) -> String {
            let passed = rows.count(where: \.passed)
            let palms = rows.filter { $0.expectation.category == "palm/thumb alone" }
            let rate = rows.isEmpty ? 0 : Double(passed) * 100 / Double(rows.count)
            var text = pad("\(passed)/\(rows.count)", 10) + "(\(percent(rate)))"
            if !palms.isEmpty { text = pad(text, 19) + " palm/thumb alone producing nothing \(palms.count(where: \.passed))/\(palms.count)" }
            return text
        }
        var lines = ["", "tuning and validation (config/evaluation-split):"]
        for set in EvaluationSet.allCases {
            for group in split.groups where group.set == set {
                let rows = results.filter { split.group(of: $0.path)?.prefix == group.prefix }
                if rows.isEmpty { continue }
                lines.append("  " + pad(set.rawValue, 12) + pad(group.prefix, 52) + figures(rows))
            }
            let rows = results.filter { split.group(of: $0.path)?.set == set }
            lines.append("  " + pad(set.rawValue + " set", 64) + figures(rows))
        }
        return lines
    }

    /// Passing and total recordings of one set of the split.
    public func figures(set: EvaluationSet) -> (passed: Int, total: Int) {
        guard let split else { return (0, 0) }
        let rows = results.filter { split.group(of: $0.path)?.set == set }
        return (rows.count(where: \.passed), rows.count)
    }

    /// The groups a baseline records, so a test can evaluate them in parallel: the corpus
    /// folders, by path prefix.
    public static let baselineGroups = [
        "chromiumos-autotest/hardware_Trackpad/", "chromiumos-autotest/firmware_TouchMTB/", "chromiumos-autotest/touch_",
        "evemu-devices/", "xorg-integration-tests/",
    ]

    /// Passing and total recordings of one baseline group.
    public func figures(group: String) -> (passed: Int, total: Int) {
        let rows = results.filter { $0.path.hasPrefix(group) }
        return (rows.count(where: \.passed), rows.count)
    }

    /// The committed baseline: one `GROUP PASSED TOTAL` line per group, then `all`.
    public var baselineText: String {
        var text = "# gestured-eval baseline (written by gestured-eval --write-baseline): group, passing, labelled\n"
        for group in Self.baselineGroups {
            let f = figures(group: group)
            text += "\(group) \(f.passed) \(f.total)\n"
        }
        if split != nil {
            for set in EvaluationSet.allCases {
                let f = figures(set: set)
                text += "\(set.rawValue) \(f.passed) \(f.total)\n"
            }
        }
        text += "all \(passed) \(total)\n"
        return text
    }

    /// Reads a baseline's `GROUP PASSED TOTAL` lines.
    public static func parseBaseline(_ text: String) -> [String: (passed: Int, total: Int)] {
        var result: [String: (passed: Int, total: Int)] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let passed = Int(fields[1]), let total = Int(fields[2]) else { continue }
            result[String(fields[0])] = (passed, total)
        }
        return result
    }
}

func percent(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
}
