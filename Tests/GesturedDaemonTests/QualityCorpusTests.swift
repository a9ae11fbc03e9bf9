import Foundation
import GesturedDaemon
import Testing

@testable import gestured_eval

/// The recognition-quality evaluation (docs/evaluation.md) as a regression test: every
/// labelled recording of the shared corpus is replayed with `config/evaluation.conf`, and no
/// corpus group may pass fewer recordings than `quality-baseline.txt` records (written by
/// `gestured-eval --write-baseline`). Skips visibly without the corpus.
@Suite("Recognition quality on the corpus", .tags(.corpus))
struct QualityCorpusTests {
    /// The package root, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `GESTURED_CORPUS_DIR`, else the first `shared/corpus` found walking up from this file.
    static let corpus: String? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["GESTURED_CORPUS_DIR"], !path.isEmpty {
            return fileManager.fileExists(atPath: path + "/real") ? path : nil
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/corpus")
            if fileManager.fileExists(atPath: candidate.appendingPathComponent("real").path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    static let baseline: [String: (passed: Int, total: Int)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("quality-baseline.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return EvaluationReport.parseBaseline(text)
    }()

    @Test(
        "no corpus group passes fewer labelled recordings than the recorded baseline",
        .enabled(if: corpus != nil, "the corpus (shared/corpus or GESTURED_CORPUS_DIR) is absent"),
        arguments: EvaluationReport.baselineGroups
    )
    func group(_ group: String) throws {
        let corpus = try #require(Self.corpus)
        let recorded = try #require(Self.baseline[group], "quality-baseline.txt has no line for \(group)")
        let configPath = Self.packageRoot.appendingPathComponent("config/evaluation.conf").path
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

extension Tag {
    /// Tests that read the third-party corpus.
    @Tag static var corpus: Self
}
