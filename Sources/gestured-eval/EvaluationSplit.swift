/// The tuning / validation split of the labelled recordings (`config/evaluation-split`,
/// docs/evaluation.md "Tuning and validation"): whole boards and folders, by path prefix
/// relative to the corpus `real/` folder. The longest matching prefix decides.
public struct EvaluationSplit: Sendable, Hashable {
    /// (prefix, set), in file order.
    public var groups: [(prefix: String, set: EvaluationSet)]

    public static func == (a: EvaluationSplit, b: EvaluationSplit) -> Bool {
        a.groups.map(\.prefix) == b.groups.map(\.prefix) && a.groups.map(\.set) == b.groups.map(\.set)
    }

    public func hash(into hasher: inout Hasher) {
        for group in groups {
            hasher.combine(group.prefix)
            hasher.combine(group.set)
        }
    }

    /// Parses `SET PREFIX` lines; `#` starts a comment line.
    /// - Throws: ``EvaluationError`` naming `fileName:line` of the first bad line.
    public static func parse(_ text: String, fileName: String) throws(EvaluationError) -> EvaluationSplit {
        var groups: [(prefix: String, set: EvaluationSet)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.count == 2, let set = EvaluationSet(rawValue: fields[0]) else {
                throw EvaluationError(
                    description: "\(fileName):\(index + 1): expected 'tuning PREFIX' or 'validation PREFIX', found '\(line)'")
            }
            if groups.contains(where: { $0.prefix == fields[1] }) {
                throw EvaluationError(description: "\(fileName):\(index + 1): prefix '\(fields[1])' is listed twice")
            }
            groups.append((fields[1], set))
        }
        guard !groups.isEmpty else { throw EvaluationError(description: "\(fileName): no 'tuning'/'validation' line") }
        return EvaluationSplit(groups: groups)
    }

    /// The set and group prefix of a recording (path relative to `real/`), or nil when no
    /// line matches it.
    public func group(of path: String) -> (prefix: String, set: EvaluationSet)? {
        var best: (prefix: String, set: EvaluationSet)?
        for group in groups where path.hasPrefix(group.prefix) {
            if best.map({ $0.prefix.count < group.prefix.count }) ?? true { best = group }
        }
        return best
    }

    /// The hardware_Trackpad boards of the tuning set (the leave-one-board-out folds): the
    /// last path component of each tuning prefix.
    public var tuningBoards: [(board: String, prefix: String)] {
        groups.filter { $0.set == .tuning }.map { group in
            (String(group.prefix.split(separator: "/").last ?? Substring(group.prefix)), group.prefix)
        }
    }
}

/// The two sets a labelled recording can belong to.
public enum EvaluationSet: String, Sendable, Hashable, CaseIterable {
    /// Recordings thresholds and rules are chosen on.
    case tuning
    /// Recordings that only judge: a rule is kept only if it does not lose here.
    case validation
}
