import Foundation
import GesturedDaemon
import GesturedTestSupport
import Testing

@testable import gestured_eval

/// The tuning / validation split (`config/evaluation-split`): parsing, errors, and that the
/// committed file places every labelled recording of the corpus.
@Suite("Evaluation split")
struct EvaluationSplitTests {
    @Test("the longest matching prefix decides a recording's set")
    func longestPrefix() throws {
        let split = try EvaluationSplit.parse(
            "# comment\nvalidation a/\n\ntuning   a/b/\n", fileName: "split")
        #expect(split.group(of: "a/b/c.dat")?.set == .tuning)
        #expect(split.group(of: "a/x.dat")?.set == .validation)
        #expect(split.group(of: "z/x.dat") == nil)
        #expect(split.tuningBoards.map(\.board) == ["b"])
    }

    @Test("a bad line is named with its file and line")
    func badLine() {
        #expect(throws: EvaluationError.self) { try EvaluationSplit.parse("tuning a/\ntest b/\n", fileName: "split") }
        do {
            _ = try EvaluationSplit.parse("tuning a/\ntest b/\n", fileName: "split")
        } catch {
            #expect(error.description == "split:2: expected 'tuning PREFIX' or 'validation PREFIX', found 'test b/'")
        }
        do {
            _ = try EvaluationSplit.parse("tuning a/\nvalidation a/\n", fileName: "split")
        } catch {
            #expect(error.description == "split:2: prefix 'a/' is listed twice")
        }
    }

    @Test(
        "the committed split places every labelled recording, hardware_Trackpad boards in the tuning set",
        .tags(.corpus), .enabled(if: SharedCorpus.isPresent, SharedCorpus.absentReason))
    func committedSplitCoversTheCorpus() throws {
        let corpus = try #require(SharedCorpus.directory).path
        let path = packageRootDirectory.appendingPathComponent("config/evaluation-split").path
        let split = try EvaluationSplit.parse(try String(contentsOfFile: path, encoding: .utf8), fileName: path)
        guard case .success(let configuration) = ConfigLoader.load(mainPath: packageRootDirectory.appendingPathComponent("config/evaluation.conf").path)
        else {
            Issue.record("config/evaluation.conf does not load")
            return
        }
        let recordings = Evaluator(corpus: corpus, configuration: configuration).labelledRecordings()
        #expect(recordings.count > 500)
        let unplaced = recordings.filter { split.group(of: $0.path) == nil }.map(\.path)
        #expect(unplaced.isEmpty, "not in any set: \(unplaced)")
        for recording in recordings {
            let tuned = split.group(of: recording.path)?.set == .tuning
            #expect(tuned == recording.path.hasPrefix("chromiumos-autotest/hardware_Trackpad/"), "\(recording.path)")
        }
        #expect(Set(split.tuningBoards.map(\.board)) == ["alex", "lumpy", "link"])
    }
}
