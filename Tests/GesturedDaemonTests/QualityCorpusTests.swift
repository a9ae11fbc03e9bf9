import Foundation
import GesturedDaemon
import GesturedTestSupport
import Testing

@testable import gestured_eval

/// The recognition-quality evaluation (docs/evaluation.md) as a regression test: every
/// labelled recording of the shared corpus is replayed with `config/evaluation.conf`, and no
/// corpus group may pass fewer recordings than `quality-baseline.txt` records (written by
/// `gestured-eval --write-baseline`). Skips visibly without the corpus.
@Suite("Recognition quality on the corpus", .tags(.corpus))
struct QualityCorpusTests {
    static let baseline: [String: (passed: Int, total: Int)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("quality-baseline.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return EvaluationReport.parseBaseline(text)
    }()

    @Test(
        "no corpus group passes fewer labelled recordings than the recorded baseline",
        .enabled(if: SharedCorpus.isPresent, SharedCorpus.absentReason),
        arguments: EvaluationReport.baselineGroups
    )
    func group(_ group: String) throws {
        let corpus = try #require(SharedCorpus.directory).path
        let recorded = try #require(Self.baseline[group], "quality-baseline.txt has no line for \(group)")
        let configPath = packageRootDirectory.appendingPathComponent("config/evaluation.conf").path
        guard case .success(let configuration) = ConfigLoader.load(mainPath: configPath) else {
            Issue.record("config/evaluation.conf does not load")
            return
        }
        let evaluator = Evaluator(corpus: corpus, configuration: configuration)
        let recordings = evaluator.labelledRecordings().filter { $0.path.hasPrefix(group) }
        let report = EvaluationReport(results: recordings.map { evaluator.evaluate(path: $0.path, expectation: $0.expectation) })
        #expect(report.total == recorded.total, "\(group): \(report.total) labelled recordings, the baseline has \(recorded.total)")
        let failing = report.results.filter { !$0.passed }.map { "\($0.path): \($0.failures.joined(separator: "; "))" }
        #expect(
            report.passed >= recorded.passed,
            "\(group): \(report.passed)/\(report.total) pass, the baseline records \(recorded.passed); failing:\n\(failing.joined(separator: "\n"))"
        )
        print("quality \(group): \(report.passed)/\(report.total) pass (baseline \(recorded.passed))")
    }
}
