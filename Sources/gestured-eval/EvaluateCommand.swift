import GesturedConfig
import GestureEngine
import GesturedCLISupport
import GesturedDaemon
import GesturedSystem

/// `gestured-eval`: replays every labelled recording of the shared corpus with the stated
/// configuration and prints how many do what their label says (docs/evaluation.md).
enum EvaluateCommand {
    static let usage = """
        usage: gestured-eval [--corpus DIR] [--config FILE] [--split FILE] [--description DESC] [--only TEXT]
                             [--quiet] [--no-filter]
                             [--lobo] [--stress [--quick] [--dump DIR]]
                             [--write-baseline FILE] [--check-baseline FILE]

        Replays every labelled recording of the corpus (DIR/real, descriptions from
        DIR/devices) through the gestured --replay pipeline with the configuration FILE
        (default config/evaluation.conf), compares the gestures with the label, and prints
        pass/total per label category and device, per group and set of the tuning /
        validation split (default config/evaluation-split), and each failure.

        """

    static let parser = ArgumentParser([
        .option("corpus", value: "DIR", help: "the corpus (default $GESTURED_CORPUS_DIR, else ../shared/corpus)"),
        .option("config", value: "FILE", help: "configuration (default config/evaluation.conf)"),
        .option("description", value: "DESC", help: "description for header-less recordings of a board the corpus has none for"),
        .option("split", value: "FILE", help: "tuning/validation split (default config/evaluation-split)"),
        .option("only", value: "TEXT", help: "only recordings whose path contains TEXT"),
        .flag("quiet", help: "do not list the failures"),
        .flag("stress", help: "the synthesized stress set on real descriptions, shipped configuration (docs/evaluation.md)"),
        .flag("quick", help: "with --stress: only the fast subset (the stress test's)"),
        .option("dump", value: "DIR", help: "with --stress: write each failing case to DIR as an evemu recording"),
        .flag("lobo", help: "leave one tuning board out: choose filter thresholds on the others, measure it (slow)"),
        .flag("trace", help: "print every gesture and touch event of every replay"),
        .flag("no-filter", help: "replay without the touch filter (palms, thumbs, jitter)"),
        .option("filter", value: "KEY=VALUE,…", help: "override touch-filter settings (see --help)"),
        .option("write-baseline", value: "FILE", help: "write 'passed total' to FILE"),
        .option("check-baseline", value: "FILE", help: "exit 1 when fewer pass than FILE records"),
        .flag("help", help: "show this help"),
    ])

    /// `--filter palmPressure=150,thumbBand=0.2`: experiments with the filter's thresholds
    /// (lengths in mm, times in s, pressures in device units, fractions plain).
    static func applyOverrides(_ text: String, to settings: inout TouchFilterSettings) throws(UsageError) {
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Double(parts[1]) else { throw UsageError("expected KEY=NUMBER, found '\(item)'") }
            switch parts[0] {
            case "palmPressure": settings.palmPressure = value > 0 ? value : nil
            case "palmMajor": settings.palmTouchMajor = value
            case "palmPressureAtBegin": settings.palmPressureAtBegin = value > 0 ? value : nil
            case "edgeBand": settings.edgeBandFraction = value
            case "topEdgeBand": settings.topEdgeBandFraction = value
            case "minimumLoneTap": settings.minimumLoneTapDuration = value
            case "edgeFingerMajor": settings.edgeFingerMajor = value
            case "sensorJump": settings.sensorJumpStep = value
            case "box": settings.boxSize = value
            case "dropsConfirmedMotion": settings.dropsConfirmedMotion = value != 0
            case "holdsUnknownPressure": settings.holdsUnknownPressure = value != 0
            case "splitDrop": settings.splitPressureDrop = value
            case "splitDistance": settings.splitDistance = value
            case "edgeTime": settings.edgeReleaseTime = value
            case "edgePair": settings.edgePairDistance = value
            case "thumbBand": settings.thumbBandFraction = value
            case "thumbRelease": settings.thumbReleaseDistance = value
            case "heldTapDuration": settings.heldTapDuration = value
            case "heldTapMovement": settings.heldTapMovement = value
            case "hysteresis": settings.hysteresis = value
            case "liftDelay": settings.liftDelay = value
            case "reappear": settings.reappearDistance = value
            case "flickers": settings.flickerLimit = Int(value)
            case "palmMemoryTime": settings.palmMemoryTime = value
            case "palmMemoryDistance": settings.palmMemoryDistance = value
            case "palmConfirmTime": settings.palmConfirmTime = value
            case "clickingFinger": settings.clickingFingerDistance = value
            case "scrollTapWindow": settings.scrollTapWindow = value
            case "scrollTapTravel": settings.scrollTapTravel = value
            case "thumbExit": settings.thumbExitFraction = value
            case "palmReversals": settings.palmReversalCount = Int(value)
            case "palmReversalStep": settings.palmReversalStep = value
            case "palmReturnWait": settings.palmReturnWait = value
            case "thumbDiagonalWidth": settings.thumbDiagonalWidth = value
            case "thumbDiagonalHeight": settings.thumbDiagonalHeight = value
            case "tapMinimumPressure": settings.tapMinimumPressure = value > 0 ? value : nil
            default: throw UsageError("unknown filter setting '\(parts[0])'")
            }
        }
    }

    /// `--stress`: the stress set with the configuration (default the shipped one).
    static func runStress(corpus: String, configuration: LoadedConfiguration, configPath: String, parsed: ParsedArguments) -> ExitCode {
        let stress = StressSet(corpus: corpus, configuration: configuration)
        let quick = parsed.has("quick")
        var results: [StressSet.Result] = []
        for description in StressSet.descriptions {
            guard parsed.value("only").map({ description.path.contains($0) }) ?? true else { continue }
            do {
                results += stress.run(description, device: try stress.load(description)) { _, variant in
                    !quick || StressSet.quickVariants.contains(variant.name)
                }
            } catch {
                writeStandardError("gestured-eval: \(description.path): \(error)\n")
                return .dataError
            }
        }
        let report = StressReport(results: results)
        writeStandardOutput("gestured-eval: stress set, configuration \(configPath)\n\n")
        writeStandardOutput(report.render(showFailures: !parsed.has("quiet")))
        if let path = parsed.value("write-baseline"), let failed = writeBaseline(report.baselineText, to: path) {
            return failed
        }
        if let path = parsed.value("check-baseline") {
            guard let text = try? Files.readText(path: path) else {
                writeStandardError("gestured-eval: cannot read \(path)\n")
                return .dataError
            }
            let checks = StressReport.parseBaseline(text).map { name, recorded in
                BaselineCheck(name: name, figures: report.figures(description: name), recorded: recorded.passed)
            }
            if reportRegressions(checks, path: path) { return .failure }
        }
        if let directory = parsed.value("dump") {
            for (index, result) in results.enumerated() where !result.passed {
                guard let text = result.events else { continue }
                let name = "\(result.description) \(result.scenario.name) \(result.variant.name.split(separator: " (").first ?? "")"
                let file = directory + "/" + String(index) + "-" + String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" }) + ".evemu"
                let header = "# gestured-eval --stress: \(result.description): \(result.scenario.name), \(result.variant.name)\n# "
                    + result.failures.joined(separator: "; ") + "\n"
                do {
                    try Files.writeText(header + text, path: file)
                } catch {
                    writeStandardError("gestured-eval: \(error.description)\n")
                    return .failure
                }
            }
        }
        return .success
    }

    static func run(arguments: [String], environment: [String: String]) -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try parser.parse(arguments)
        } catch {
            writeStandardError("gestured-eval: \(error)\n\(usage)")
            return .usage
        }
        if parsed.has("help") {
            writeStandardOutput(usage + parser.helpText())
            return .success
        }
        let corpus = parsed.value("corpus") ?? environment["GESTURED_CORPUS_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "../shared/corpus"
        guard Files.exists(corpus + "/real") else {
            writeStandardError("gestured-eval: no corpus at '\(corpus)' (expected '\(corpus)/real'); pass --corpus DIR\n")
            return .noInput
        }
        let configPath = parsed.value("config") ?? (parsed.has("stress") ? "config/gestured.conf" : "config/evaluation.conf")
        let configuration: LoadedConfiguration
        switch ConfigLoader.load(mainPath: configPath) {
        case .success(let loaded): configuration = loaded
        case .failure(let failure):
            for line in failure.lines { writeStandardError(line + "\n") }
            return .config
        }
        if parsed.has("stress") {
            return runStress(corpus: corpus, configuration: configuration, configPath: configPath, parsed: parsed)
        }
        var settings = parsed.has("no-filter") ? TouchFilterSettings.disabled : configuration.configuration.touchFilter
        if let overrides = parsed.value("filter") {
            do {
                try applyOverrides(overrides, to: &settings)
            } catch {
                writeStandardError("gestured-eval: --filter: \(error)\n")
                return .usage
            }
        }
        let splitPath = parsed.value("split") ?? "config/evaluation-split"
        let split: EvaluationSplit
        do {
            split = try EvaluationSplit.parse(try Files.readText(path: splitPath), fileName: splitPath)
        } catch {
            writeStandardError("gestured-eval: \(error)\n")
            return .dataError
        }
        if parsed.has("lobo") {
            let lobo = LeaveOneBoardOut(
                corpus: corpus, configuration: configuration, configPath: configPath, split: split, baseSettings: settings)
            writeStandardOutput("gestured-eval: leave one board out, configuration \(configPath), split \(splitPath)\n")
            do {
                let lines = try lobo.run { writeStandardOutput($0 + "\n") }
                writeStandardOutput("\n" + lines.joined(separator: "\n") + "\n")
            } catch {
                writeStandardError("gestured-eval: --lobo: \(error)\n")
                return .usage
            }
            return .success
        }
        var evaluator = Evaluator(corpus: corpus, configuration: configuration, filterSettings: settings)
        evaluator.trace = parsed.has("trace")
        if let path = parsed.value("description") {
            do {
                evaluator.fallbackDescription = try RecordingParser.parseDescription(try Files.readText(path: path), fileName: path)
            } catch {
                writeStandardError("gestured-eval: --description: \(error)\n")
                return .dataError
            }
        }
        var recordings = evaluator.labelledRecordings()
        // A recording no line places (a new board or folder) is still measured, in a group of
        // its own, and named: it must be placed before it is used to choose anything.
        let unplaced = recordings.filter { split.group(of: $0.path) == nil }
        if let first = unplaced.first {
            writeStandardError(
                "gestured-eval: warning: \(splitPath): \(unplaced.count) labelled recording(s) in neither the tuning nor the validation set, e.g. '\(first.path)'; reported as 'not in the split'\n")
        }
        if let only = parsed.value("only") { recordings = recordings.filter { $0.path.contains(only) } }
        let report = EvaluationReport(
            results: recordings.map { evaluator.evaluate(path: $0.path, expectation: $0.expectation) }, split: split)
        writeStandardOutput("gestured-eval: \(report.total) labelled recordings, configuration \(configPath)\n\n")
        writeStandardOutput(report.render(showFailures: !parsed.has("quiet")))
        if let path = parsed.value("write-baseline"), let failed = writeBaseline(report.baselineText, to: path) {
            return failed
        }
        if let path = parsed.value("check-baseline") {
            guard let text = try? Files.readText(path: path), case let baseline = EvaluationReport.parseBaseline(text),
                baseline["all"] != nil
            else {
                writeStandardError("gestured-eval: \(path): expected a line 'all PASSED TOTAL'\n")
                return .dataError
            }
            // Every folder holds its line, not only the sum: a gain on one folder must not
            // hide a loss on another.
            var groups = EvaluationReport.baselineGroups.map { ($0, report.figures(group: $0)) }
            groups.append(("all", (report.passed, report.total)))
            let checks = groups.compactMap { group, figures in
                baseline[group].map { BaselineCheck(name: group, figures: figures, recorded: $0.passed) }
            }
            if reportRegressions(checks, path: path) { return .failure }
        }
        return .success
    }
    /// One line of a baseline file against this run: `name` passed `figures` now and
    /// `recorded` when the baseline was written.
    struct BaselineCheck {
        var name: String
        var figures: (passed: Int, total: Int)
        var recorded: Int
    }

    /// `--write-baseline`: writes `text` to `path`; the exit code when that fails, nil when done.
    static func writeBaseline(_ text: String, to path: String) -> ExitCode? {
        do {
            try Files.writeText(text, path: path)
        } catch {
            writeStandardError("gestured-eval: \(error.description)\n")
            return .failure
        }
        writeStandardOutput("baseline written to \(path)\n")
        return nil
    }

    /// `--check-baseline`: names every group or description of `checks` that passes fewer
    /// recordings than the baseline `path` records (each line holds its own, so a gain on
    /// one cannot hide a loss on another); true when there is any.
    static func reportRegressions(_ checks: [BaselineCheck], path: String) -> Bool {
        var regressed = false
        for check in checks where check.figures.total > 0 && check.figures.passed < check.recorded {
            writeStandardError(
                "gestured-eval: regression in \(check.name): \(check.figures.passed)/\(check.figures.total) pass, the baseline \(path) records \(check.recorded)\n")
            regressed = true
        }
        return regressed
    }
}
