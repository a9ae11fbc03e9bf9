import GestureEngine
import GesturedCLISupport
import GesturedDaemon

/// Leave-one-board-out over the tuning boards (docs/evaluation.md, "Leave one board out"):
/// for each board, the touch-filter thresholds are chosen on the other boards from a small
/// grid, then the left-out board is measured with them. The figure says how well thresholds
/// chosen on some pads hold on a pad they were not chosen on.
struct LeaveOneBoardOut {
    /// One point of the grid: a name and the `--filter` overrides it applies.
    struct Candidate: Sendable {
        var name: String
        var overrides: String?
    }

    /// The grid: the filter's defaults, and each threshold that decides palms, thumbs and
    /// lifts one step below and above its default (one at a time: 13 points, not 3^6).
    /// The steps are round and about a quarter of the default, so that they are a choice a
    /// tuner would try, not a search fitted to the boards.
    static let grid: [Candidate] = {
        var candidates = [Candidate(name: "defaults", overrides: nil)]
        let keys: [(key: String, low: Double, high: Double)] = [
            ("palmPressure", 0.45, 0.65),  // default 0.55 of the range
            ("edgeBand", 0.06, 0.10),  // 8 % of the width
            ("thumbBand", 0.12, 0.18),  // 15 % of the height
            ("palmConfirmTime", 0.10, 0.20),  // 150 ms
            ("liftDelay", 0.03, 0.05),  // 40 ms
            ("heldTapDuration", 0.12, 0.18),  // 150 ms
        ]
        for (key, low, high) in keys {
            candidates.append(Candidate(name: "\(key)=\(low)", overrides: "\(key)=\(low)"))
            candidates.append(Candidate(name: "\(key)=\(high)", overrides: "\(key)=\(high)"))
        }
        return candidates
    }()

    var corpus: String
    var configuration: LoadedConfiguration
    var split: EvaluationSplit
    var baseSettings: TouchFilterSettings

    /// Runs the grid on every tuning board and returns the report's lines.
    func run(progress: (String) -> Void) throws(UsageError) -> [String] {
        let boards = split.tuningBoards
        let base = Evaluator(corpus: corpus, configuration: configuration)
        let recordings = base.labelledRecordings()
        // passed[candidate][board], and the palm/thumb-alone figures.
        var passed: [[Int]] = []
        var palms: [[(Int, Int)]] = []
        var totals: [Int] = boards.map { board in recordings.count { $0.path.hasPrefix(board.prefix) } }
        for candidate in Self.grid {
            var settings = baseSettings
            if let overrides = candidate.overrides { try EvaluateCommand.applyOverrides(overrides, to: &settings) }
            let evaluator = Evaluator(corpus: corpus, configuration: configuration, filterSettings: settings)
            var row: [Int] = []
            var palmRow: [(Int, Int)] = []
            for (index, board) in boards.enumerated() {
                let results = recordings.filter { $0.path.hasPrefix(board.prefix) }.map {
                    evaluator.evaluate(path: $0.path, expectation: $0.expectation)
                }
                totals[index] = results.count
                row.append(results.count(where: \.passed))
                let palmResults = results.filter { $0.expectation.category == "palm/thumb alone" }
                palmRow.append((palmResults.count(where: \.passed), palmResults.count))
            }
            progress("  \(pad(candidate.name, 24)) " + zip(boards, row).map { "\($0.board) \($1)" }.joined(separator: "  "))
            passed.append(row)
            palms.append(palmRow)
        }
        var lines = ["leave one board out (grid of \(Self.grid.count) filter settings, chosen on the other boards):"]
        var sumPassed = 0
        var sumTotal = 0
        var sumPalms = (0, 0)
        for (index, board) in boards.enumerated() {
            // The candidate passing the most recordings of the other boards; ties keep the
            // earlier candidate (the defaults first).
            var best = 0
            var bestScore = -1
            for candidate in Self.grid.indices {
                let score = boards.indices.filter { $0 != index }.reduce(0) { $0 + passed[candidate][$1] }
                if score > bestScore {
                    bestScore = score
                    best = candidate
                }
            }
            let others = boards.indices.filter { $0 != index }.reduce(0) { $0 + totals[$1] }
            let got = passed[best][index]
            let palm = palms[best][index]
            sumPassed += got
            sumTotal += totals[index]
            sumPalms = (sumPalms.0 + palm.0, sumPalms.1 + palm.1)
            lines.append(
                "  \(pad(board.board, 8)) chosen \(pad(Self.grid[best].name, 22)) (others \(bestScore)/\(others)); left out: "
                    + "\(got)/\(totals[index]) (\(percent(Double(got) * 100 / Double(max(1, totals[index]))))), "
                    + "palm/thumb alone \(palm.0)/\(palm.1); with the defaults \(passed[0][index])/\(totals[index])")
        }
        lines.append(
            "  all left-out boards: \(sumPassed)/\(sumTotal) (\(percent(Double(sumPassed) * 100 / Double(max(1, sumTotal))))), "
                + "palm/thumb alone \(sumPalms.0)/\(sumPalms.1)")
        return lines
    }

    private func pad(_ text: String, _ n: Int) -> String {
        text.count >= n ? text : text + String(repeating: " ", count: n - text.count)
    }
}
