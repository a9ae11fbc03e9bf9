import GestureEngine
import GesturedCLISupport
import GesturedDaemon
import GesturedSystem

/// Leave-one-board-out over the tuning boards (docs/evaluation.md, "Leave one board out"):
/// for each board, the touch-filter thresholds are chosen on the other boards from a small
/// grid, then the left-out board is measured with them. The figure says how well thresholds
/// chosen on some pads hold on a pad they were not chosen on.
struct LeaveOneBoardOut {
    /// One point of the grid: a name and the `--filter` overrides it applies.
    struct Candidate: Sendable {
        var name: String
        var overrides: String?
        /// An engine threshold of the configuration file: every `from` line becomes `to`.
        var configEdit: (from: String, to: String)?
    }

    /// The grid: the filter's defaults, each threshold that decides palms, thumbs and lifts
    /// one step below and above its default, and two engine thresholds of the configuration
    /// likewise (one at a time: 17 points, not 3^8).
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
        // Engine thresholds of config/evaluation.conf that the touchpad figures hang on: the
        // scroll's 3 mm (libinput's) and the touchpad swipes' 1 s.
        for (from, values) in [("Hysteresis=3mm", ["2mm", "4mm"]), ("MaximumDuration=1s", ["0.75s", "1.5s"])] {
            let key = String(from.split(separator: "=")[0])
            for value in values {
                candidates.append(Candidate(name: "\(key)=\(value)", overrides: nil, configEdit: (from, "\(key)=\(value)")))
            }
        }
        return candidates
    }()

    var corpus: String
    var configuration: LoadedConfiguration
    /// The configuration file's path and text, for the candidates that edit it.
    var configPath: String
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
            var loaded = configuration
            if let edit = candidate.configEdit { loaded = try edited(edit) }
            let evaluator = Evaluator(corpus: corpus, configuration: loaded, filterSettings: settings)
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
        var lines = ["leave one board out (grid of \(Self.grid.count) filter and engine settings, chosen on the other boards):"]
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

    /// The configuration with every `from` line replaced, written beside the original's name
    /// in /tmp and loaded as the daemon would load it.
    private func edited(_ edit: (from: String, to: String)) throws(UsageError) -> LoadedConfiguration {
        guard let text = try? Files.readText(path: configPath) else { throw UsageError("cannot read \(configPath)") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 == Substring(edit.from) ? edit.to : String($0) }
        guard lines.contains(edit.to) else { throw UsageError("\(configPath) has no line '\(edit.from)'") }
        let path = "/tmp/gestured-eval-lobo-\(edit.to.replacing("=", with: "-")).conf"
        do {
            try Files.writeText(lines.joined(separator: "\n"), path: path)
        } catch {
            throw UsageError("cannot write \(path): \(error.description)")
        }
        switch ConfigLoader.load(mainPath: path) {
        case .success(let loaded): return loaded
        case .failure(let failure): throw UsageError(failure.lines.joined(separator: "; "))
        }
    }

    private func pad(_ text: String, _ n: Int) -> String {
        text.count >= n ? text : text + String(repeating: " ", count: n - text.count)
    }
}
