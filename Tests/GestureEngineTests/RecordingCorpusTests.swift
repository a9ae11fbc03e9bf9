import Foundation
import GesturedTestSupport
import Testing

@testable import GestureEngine

/// The third-party corpus, shared with the other test targets (GesturedTestSupport).
typealias Corpus = SharedCorpus

@Suite("Recording corpus", .tags(.corpus))
struct RecordingCorpusTests {
    @Test(
        "every recording in the corpus parses into events, or fails with a clear error",
        .enabled(if: Corpus.isPresent, "the corpus (shared/corpus or GESTURED_CORPUS_DIR) is absent")
    )
    func everyRecording() throws {
        let files = Corpus.files(under: "real")
        #expect(files.count > 500, "expected the whole corpus, found \(files.count) files")
        var parsed = 0
        var withHeader = 0
        var refused: [String] = []
        var warned = 0
        var frames = 0
        var formats: [Recording.Format: Int] = [:]
        for url in files {
            let name = Corpus.relative(url)
            let text = try Corpus.text(of: url)
            do {
                let recording = try RecordingParser.parse(text, fileName: name)
                parsed += 1
                formats[recording.format, default: 0] += 1
                if !recording.warnings.isEmpty { warned += 1 }
                if recording.warnings.allSatisfy({ !$0.message.hasPrefix("no device description") }) { withHeader += 1 }
                let device = try #require(recording.device, "\(name): no device")
                #expect(!recording.events.isEmpty, "\(name): no events")
                var assembler = FrameAssembler(device: device)
                let assembled = assembler.frames(recording.events)
                frames += assembled.count
                let violations = frameStreamViolations(assembled)
                #expect(violations.isEmpty, "\(name): \(violations.prefix(3))")
            } catch let error as RecordingError {
                // Refusals must say which file and why; only the JSON activity logs and the
                // JSON label files are expected here.
                #expect(error.file == name)
                #expect(url.pathExtension == "json" || error.found.contains("JSON"), "\(error)")
                refused.append("\(error)")
            }
        }
        print(
            "corpus recordings: \(files.count) files, \(parsed) parsed (\(formats[.evemu] ?? 0) evemu, "
                + "\(formats[.evtest] ?? 0) evtest, \(formats[.libinputRecord] ?? 0) libinput-record; "
                + "\(withHeader) with a device header), \(warned) with warnings, \(frames) frames assembled, "
                + "\(refused.count) refused:"
        )
        for reason in refused { print("  \(reason)") }
        #expect(parsed > 500)
    }

    @Test(
        "every device description in the corpus parses",
        .enabled(if: Corpus.isPresent, "the corpus (shared/corpus or GESTURED_CORPUS_DIR) is absent")
    )
    func everyDescription() throws {
        let files = Corpus.files(under: "devices").filter { $0.pathExtension != "json" }
        #expect(files.count >= 40)
        var kinds: [String: Int] = [:]
        for url in files {
            let name = Corpus.relative(url)
            let description = try RecordingParser.parseDescription(try Corpus.text(of: url), fileName: name)
            // One corpus file (ntrig-lenovo-T410s.prop) describes a device with no axes at all.
            #expect(description.xAxis != nil || description.axes.isEmpty, "\(name): axes but no X axis")
            kinds[description.kind?.rawValue ?? "none", default: 0] += 1
        }
        print("corpus descriptions: \(files.count) parsed, by kind: \(kinds.sorted { $0.key < $1.key })")
    }
}

extension Tag {
    /// Tests that read the third-party corpus.
    @Tag static var corpus: Self
}
