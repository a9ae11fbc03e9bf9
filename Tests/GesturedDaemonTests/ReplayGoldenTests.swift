import Foundation
import GestureEngine
import GesturedConfig
import GesturedTestSupport
import Testing

@testable import GesturedDaemon

/// Replays through the daemon's own pipeline (decoder + engine, `gestured --replay`'s path)
/// with the shipped configuration.
enum Replay {
    static let shippedConfiguration: Configuration = {
        let text = (try? String(contentsOf: packageRootDirectory.appendingPathComponent("config/gestured.conf"), encoding: .utf8)) ?? ""
        return Configuration.parse(text, fileName: "gestured.conf").configuration
    }()

    /// All engine outputs of a recording, deadlines drained at the end.
    static func outputs(of recording: LoadedRecording, configuration: Configuration = shippedConfiguration) -> [EngineOutput] {
        let engine = configuration.engineConfiguration(for: recording.device, kind: recording.device.kind)
        var pipeline = GesturePipeline(node: "replay", device: recording.device, configuration: engine)
        return pipeline.feed(recording.events) + pipeline.finishReplay()
    }

    static func gestureTranscript(_ outputs: [EngineOutput], origin: Timestamp) -> String {
        Transcript.render(outputs.filter { if case .gesture = $0 { true } else { false } }, origin: origin)
    }
}

/// Tier 2 (STYLE.md B13): the project's own fixtures against reviewed transcripts.
/// `GESTURED_RECORD_GOLDENS=1 swift test` rewrites them; a missing golden is written and fails.
@Suite("Golden transcripts of the project's fixtures", .tags(.golden))
struct ReplayGoldenTests {
    static let fixtureRoot = packageRootDirectory.appendingPathComponent("Tests/GestureEngineTests/Fixtures")

    static var fixtures: [String] {
        let enumerator = FileManager.default.enumerator(atPath: fixtureRoot.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if name.hasSuffix(".evemu") { names.append(name) }
        }
        return names.sorted()
    }

    @Test("the fixture replays to its golden transcript", arguments: fixtures)
    func fixtureMatchesGolden(_ name: String) throws {
        let url = Self.fixtureRoot.appendingPathComponent(name)
        let recording = try RecordingLoader.parse(text: try String(contentsOf: url, encoding: .utf8), name: name, description: nil)
        let outputs = Replay.outputs(of: recording)
        #expect(ConsistencyChecker.check(outputs, requireClosed: true).isEmpty)
        let origin = recording.events.first?.time ?? .zero
        let actual = Replay.gestureTranscript(outputs, origin: origin)
        let goldenURL = url.deletingPathExtension().appendingPathExtension("expected")
        let record = ProcessInfo.processInfo.environment["GESTURED_RECORD_GOLDENS"] == "1"
        guard let golden = try? String(contentsOf: goldenURL, encoding: .utf8), !record else {
            try actual.write(to: goldenURL, atomically: true, encoding: .utf8)
            if !record { Issue.record("no golden for \(name); wrote \(goldenURL.lastPathComponent) — review and commit it") }
            return
        }
        if golden != actual {
            let expectedLines = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            var diff: [String] = []
            for i in 0..<max(expectedLines.count, actualLines.count) {
                let e = i < expectedLines.count ? String(expectedLines[i]) : "<none>"
                let a = i < actualLines.count ? String(actualLines[i]) : "<none>"
                if e != a { diff.append("line \(i + 1):\n  expected: \(e)\n  actual:   \(a)") }
            }
            Issue.record("transcript of \(name) differs from its golden:\n\(diff.joined(separator: "\n"))")
        }
    }
}

/// Tier 3: every recording of the shared corpus replays through decoder and engine with the
/// shipped configuration without an error, a crash or a consistency violation.
@Suite("Corpus replay invariants", .tags(.corpus))
struct CorpusReplayTests {
    static var recordings: [URL] {
        SharedCorpus.files(under: "real").filter { $0.pathExtension != "json" }
    }

    @Test("every corpus recording replays without a consistency violation", .enabled(if: SharedCorpus.isPresent, SharedCorpus.absentReason))
    func everyRecordingReplays() throws {
        var byFolder: [String: (files: Int, gestures: [String: Int])] = [:]
        var failures: [String] = []
        for url in Self.recordings {
            let relative = SharedCorpus.relative(url)
            let parts = relative.split(separator: "/")
            let folder = parts.prefix(parts.count > 3 && parts[1] == "chromiumos-autotest" ? 3 : 2).joined(separator: "/")
            let text = try SharedCorpus.text(of: url)
            guard let recording = try? RecordingLoader.parse(text: text, name: relative, description: nil) else { continue }
            let outputs = Replay.outputs(of: recording)
            let violations = ConsistencyChecker.check(outputs, requireClosed: true)
            if !violations.isEmpty { failures.append("\(relative): \(violations.prefix(3))") }
            var entry = byFolder[folder] ?? (0, [:])
            entry.files += 1
            for case .gesture(let g) in outputs where g.state == .recognized || g.state == .began {
                entry.gestures[g.kind.name, default: 0] += 1
            }
            byFolder[folder] = entry
        }
        #expect(failures.isEmpty, "\(failures.count) recordings violate the output contract:\n\(failures.prefix(20).joined(separator: "\n"))")
        #expect(byFolder.values.map(\.files).reduce(0, +) > 500)
        // The report the issue asks for: how many files replay and what was recognized, by folder.
        for folder in byFolder.keys.sorted() {
            let entry = byFolder[folder]!
            let kinds = entry.gestures.keys.sorted().map { "\($0)=\(entry.gestures[$0]!)" }.joined(separator: " ")
            print("corpus replay: \(folder): \(entry.files) files; \(kinds)")
        }
    }
}

extension Tag {
    @Tag static var golden: Self
    @Tag static var corpus: Self
}
