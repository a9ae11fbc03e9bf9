import GestureEngine
import GesturedConfig
import GesturedDaemon
import GesturedSystem

/// `gestured-bench corpus`: every recording of `shared/corpus/real` through the daemon's
/// pipeline (decoder + engine, default configuration), against decoding alone.
struct CorpusBenchmark {
    var rounds: Int

    struct Recording {
        var name: String
        var folder: String
        var text: String
        var device: DeviceDescription
        var events: [RawEvent]
    }

    func run() {
        guard let root = Corpus.directory() else {
            print("gestured-bench corpus: the corpus is absent (set GESTURED_CORPUS_DIR or check out ../shared/corpus); nothing measured")
            return
        }
        let parsed = Configuration.parse(EmbeddedResources.defaultConfiguration, fileName: "gestured.conf")
        let configuration = parsed.configuration
        var recordings: [Recording] = []
        var refused = 0
        for path in Corpus.files(under: root + "/real") where !path.hasSuffix(".md") && !path.hasSuffix(".json") {
            let name = String(path.dropFirst(root.count + 1))
            let parts = name.split(separator: "/")
            let folder = parts.prefix(parts.count > 3 && parts[1] == "chromiumos-autotest" ? 3 : 2).joined(separator: "/")
            guard let text = try? Files.readText(path: path),
                let loaded = try? RecordingLoader.parse(text: text, name: name, description: nil)
            else {
                refused += 1
                continue
            }
            recordings.append(Recording(name: name, folder: folder, text: text, device: loaded.device, events: loaded.events))
        }
        let totalEvents = recordings.reduce(0) { $0 + $1.events.count }
        let totalBytes = recordings.reduce(0) { $0 + $1.text.utf8.count }
        print("gestured-bench corpus: \(root)/real")
        print("\(recordings.count) recordings replayed (\(refused) files refused by the parser), \(totalEvents) events, \(totalBytes / 1024) KiB of text")
        print("configuration: built-in defaults; every measurement is the whole corpus, \(rounds) rounds, median shown")
        print("")

        // Gestures by folder (one extra replay, not timed).
        var byFolder: [String: (files: Int, gestures: [String: Int])] = [:]
        var frames = 0
        for r in recordings {
            var pipeline = GesturePipeline(
                node: "replay",
                device: r.device,
                configuration: configuration.engineConfiguration(for: r.device, kind: r.device.kind)
            )
            let outputs = pipeline.feed(r.events) + pipeline.finishReplay()
            var assembler = FrameAssembler(device: r.device)
            for event in r.events where assembler.feed(event) != nil { frames += 1 }
            var entry = byFolder[r.folder] ?? (0, [:])
            entry.files += 1
            for case .gesture(let g) in outputs where g.state == .recognized || g.state == .began {
                entry.gestures[g.kind.name, default: 0] += 1
            }
            byFolder[r.folder] = entry
        }

        var parseTimes: [Double] = []
        var floorTimes: [Double] = []
        var fullTimes: [Double] = []
        var assemblerTimes: [Double] = []
        var pipelineTimes: [Double] = []
        var checksum = 0
        for _ in 0..<rounds {
            // Text parsing alone.
            var t0 = monotonicNanoseconds()
            for r in recordings {
                if let loaded = try? RecordingLoader.parse(text: r.text, name: r.name, description: nil) {
                    checksum &+= loaded.events.count
                }
            }
            parseTimes.append(Double(monotonicNanoseconds() - t0))
            // The floor: parse + assemble.
            t0 = monotonicNanoseconds()
            for r in recordings {
                guard let loaded = try? RecordingLoader.parse(text: r.text, name: r.name, description: nil) else { continue }
                var assembler = FrameAssembler(device: loaded.device)
                for event in loaded.events {
                    if let frame = assembler.feed(event) { checksum &+= frame.touches.count }
                }
            }
            floorTimes.append(Double(monotonicNanoseconds() - t0))
            // Parse + the daemon's pipeline (assembler + engine).
            t0 = monotonicNanoseconds()
            for r in recordings {
                guard let loaded = try? RecordingLoader.parse(text: r.text, name: r.name, description: nil) else { continue }
                var pipeline = GesturePipeline(
                    node: "replay",
                    device: loaded.device,
                    configuration: configuration.engineConfiguration(for: loaded.device, kind: loaded.device.kind)
                )
                checksum &+= pipeline.feed(loaded.events).count + pipeline.finishReplay().count
            }
            fullTimes.append(Double(monotonicNanoseconds() - t0))
            // On parsed events: assembler alone, then the pipeline.
            t0 = monotonicNanoseconds()
            for r in recordings {
                var assembler = FrameAssembler(device: r.device)
                for event in r.events {
                    if let frame = assembler.feed(event) { checksum &+= frame.touches.count }
                }
            }
            assemblerTimes.append(Double(monotonicNanoseconds() - t0))
            t0 = monotonicNanoseconds()
            for r in recordings {
                var pipeline = GesturePipeline(
                    node: "replay",
                    device: r.device,
                    configuration: configuration.engineConfiguration(for: r.device, kind: r.device.kind)
                )
                checksum &+= pipeline.feed(r.events).count + pipeline.finishReplay().count
            }
            pipelineTimes.append(Double(monotonicNanoseconds() - t0))
        }
        if checksum == -1 { print(checksum) }

        func line(_ label: String, _ times: [Double], _ baseline: [Double]?) -> String {
            let median = Summary(times).median
            let perSecond = Double(totalEvents) / (median / 1e9)
            var text = padRight(label, 44) + pad(fixed(median / 1e6, 1) + " ms", 11)
            text += pad(fixed(perSecond / 1e6, 2) + " M events/s", 18)
            if let baseline { text += pad(fixed(median / Summary(baseline).median, 2) + "x", 8) }
            return text
        }
        print(line("text parsing (RecordingParser)", parseTimes, nil))
        print(line("decoding = parsing + FrameAssembler (floor)", floorTimes, nil))
        print(line("parsing + GesturePipeline (decoder+engine)", fullTimes, floorTimes))
        print(line("FrameAssembler on parsed events", assemblerTimes, nil))
        print(line("GesturePipeline on parsed events", pipelineTimes, assemblerTimes))
        print("")
        print("ratios: against the line above them (the floor, then the assembler alone)")
        print("\(frames) frames in all")
        print("")
        print("recognized by folder (began or recognized events, built-in configuration):")
        for folder in byFolder.keys.sorted() {
            let entry = byFolder[folder]!
            let kinds = entry.gestures.keys.sorted().map { "\($0)=\(entry.gestures[$0]!)" }.joined(separator: " ")
            print("  \(folder): \(entry.files) files; \(kinds.isEmpty ? "nothing" : kinds)")
        }
    }
}
