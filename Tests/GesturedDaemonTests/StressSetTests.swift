import Foundation
import GestureEngine
import GesturedDaemon
import GesturedTestSupport
import Testing

@testable import gestured_eval

extension Tag {
    /// The synthesized stress set on real corpus descriptions (docs/evaluation.md).
    @Tag static var stress: Self
}

/// The fast subset of the stress set (`gestured-eval --stress --quick`): every gesture of the
/// shipped configuration, plain and under the variants the issue names first, on each real
/// description; no description may pass fewer replays than `stress-baseline.txt` records.
/// Skips visibly without the corpus (the descriptions are read from it).
@Suite("Stress set on real descriptions", .tags(.stress))
struct StressSetTests {
    /// The two configurations the set runs with, and the baseline file of each: the shipped
    /// one, and the evaluation's (the held-back scoring replays unseen pads with it).
    static let configurations = ["config/gestured.conf", "config/evaluation.conf"]

    static func baseline(_ config: String) -> [String: (passed: Int, total: Int)] {
        let file = config.hasSuffix("evaluation.conf") ? "stress-baseline-evaluation.txt" : "stress-baseline.txt"
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(file)
        return StressReport.parseBaseline((try? String(contentsOf: url, encoding: .utf8)) ?? "")
    }

    static func stressSet(_ config: String = "config/gestured.conf") throws -> StressSet {
        let corpus = try #require(SharedCorpus.directory).path
        let path = packageRootDirectory.appendingPathComponent(config).path
        guard case .success(let configuration) = ConfigLoader.load(mainPath: path) else {
            throw EvaluationError(description: "config/gestured.conf does not load")
        }
        return StressSet(corpus: corpus, configuration: configuration)
    }

    @Test(
        "no description passes fewer quick stress replays than the baseline",
        .enabled(if: SharedCorpus.isPresent, SharedCorpus.absentReason),
        arguments: configurations, StressSet.descriptions
    )
    func description(_ config: String, _ description: StressSet.Description) throws {
        let stress = try Self.stressSet(config)
        let recorded = try #require(Self.baseline(config)[description.name], "the \(config) baseline has no line for \(description.name)")
        let results = stress.run(description, device: try stress.load(description)) { _, variant in
            StressSet.quickVariants.contains(variant.name)
        }
        let report = StressReport(results: results)
        let figures = report.figures(description: description.name)
        #expect(figures.total == recorded.total, "\(config) \(description.name): \(figures.total) replays, the baseline has \(recorded.total)")
        let failing = results.filter { !$0.passed }.map { "\($0.scenario.name), \($0.variant.name): \($0.failures.joined(separator: "; "))" }
        #expect(
            figures.passed >= recorded.passed,
            "\(config) \(description.name): \(figures.passed)/\(figures.total), the baseline records \(recorded.passed); failing:\n\(failing.joined(separator: "\n"))")
        print("stress \(config) \(description.name): \(figures.passed)/\(figures.total) (baseline \(recorded.passed))")
    }

    @Test(
        "a stress replay is deterministic and judged by what the user means",
        .enabled(if: SharedCorpus.isPresent, SharedCorpus.absentReason))
    func deterministicAndJudged() throws {
        let stress = try Self.stressSet()
        let atmel = try #require(StressSet.descriptions.first { $0.name == "Atmel maXTouch Touchscreen" })
        let device = try stress.load(atmel)
        func run() -> [StressSet.Result] {
            stress.run(atmel, device: device, keepEvents: true) { scenario, variant in
                scenario.name == "swipe left" && (variant.name == "plain" || variant.name.hasPrefix("mixed 1"))
            }
        }
        let first = run()
        let second = run()
        #expect(first.count == 2)
        #expect(first.map(\.events) == second.map(\.events))
        // The plain one-finger swipe on a 10-slot screen is a swipe left, and nothing else.
        let plain = try #require(first.first { $0.variant.name == "plain" })
        #expect(plain.passed, "\(plain.failures)")
        #expect(plain.got == ["swipe left"])
    }

    @Test("the judge fails a wrong direction, an extra gesture and a missing one")
    func judge() {
        let swipe = StressScenario(name: "swipe left", fingers: 1, motion: .translate(.left), expected: "swipe", direction: .left)
        #expect(StressSet.judge([.init(name: "swipe", direction: .left)], swipe).isEmpty)
        #expect(StressSet.judge([.init(name: "swipe", direction: .right)], swipe) == ["went right, expected left"])
        #expect(
            StressSet.judge([.init(name: "swipe", direction: .left), .init(name: "pinch")], swipe) == ["also pinch"])
        #expect(StressSet.judge([], swipe) == ["swipe ×0, expected ×1"])
        let nothing = StressScenario(name: "pointer", fingers: 1, motion: .translate(.right), expected: nil)
        #expect(StressSet.judge([], nothing).isEmpty)
        #expect(StressSet.judge([.init(name: "swipe")], nothing) == ["expected no gesture"])
    }
}
