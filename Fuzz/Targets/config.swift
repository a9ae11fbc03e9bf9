import GestureEngine
import GesturedConfig

/// Fuzz target: the INI lexer, the configuration parser and its layering (the input split
/// at NUL bytes into a main file and up to three drop-ins), and the engine built from what
/// the parser accepted.
///
/// Properties beyond "no crash, no sanitizer report":
/// * every diagnostic names one of the files, a line inside it and a column ≥ 1;
/// * a configuration without errors renders to text that parses back, without errors, to
///   the same configuration (as ``Configuration/rendered()`` documents);
/// * that configuration builds an engine for each of the project's devices, and a tap and
///   a two-finger pan from the demo fixtures run through the daemon's pipeline with the
///   consistency checker finding nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let parts = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
    let names = ["/etc/gestured/gestured.conf", "/etc/gestured/conf.d/10-a.conf", "/etc/gestured/conf.d/20-b.conf",
        "/etc/gestured/conf.d/30-c.conf"]
    let sources = parts.enumerated().map { index, part in
        ConfigSource(name: names[index], contents: String(decoding: part, as: UTF8.self))
    }
    // Lines per file, counted once on the input's bytes (decoding replaces invalid UTF-8 but
    // never a `\n`), not again for every diagnostic.
    let lineCounts = parts.map { part in part.count { $0 == 0x0A } + 1 }
    let result = Configuration.parse(sources)
    for diagnostic in result.diagnostics {
        guard let index = sources.firstIndex(where: { $0.name == diagnostic.file }) else {
            fuzzFailure("diagnostic for an unknown file: \(diagnostic)")
        }
        let lines = lineCounts[index]
        if diagnostic.line < 1 || diagnostic.line > lines || diagnostic.column < 1 {
            fuzzFailure("diagnostic outside its \(lines)-line file: \(diagnostic)")
        }
    }
    guard !result.hasErrors else { return 0 }
    let configuration = result.configuration
    let text = configuration.rendered()
    let again = Configuration.parse(text, fileName: "rendered.conf")
    if again.hasErrors { fuzzFailure("the rendered configuration has errors: \(again.errors.prefix(3))\n\(text)") }
    if again.configuration != configuration { fuzzFailure("rendering and parsing changed the configuration\n\(text)") }
    for (index, (device, events)) in ConfigRun.runs.enumerated() {
        let engineConfiguration = configuration.engineConfiguration(for: device)
        // The engine is a function of its configuration and input: a configuration already
        // run on this fixture gives the same outputs again (most mutations change a comment,
        // a daemon key or a value the parser refuses, not the recognizers).
        guard ConfigRun.firstRun(of: engineConfiguration, fixture: index) else { continue }
        var pipeline = GesturePipeline(node: "fuzz", device: device, configuration: engineConfiguration)
        var outputs = pipeline.feed(events)
        outputs += pipeline.finishReplay()
        let violations = ConsistencyChecker.check(outputs, requireClosed: true)
        if let first = violations.first { fuzzFailure("\(violations.count) consistency violations, first: \(first)") }
    }
    return 0
}

enum ConfigRun {
    struct Key: Hashable {
        var fixture: Int
        var configuration: EngineConfiguration
    }

    /// Engine configurations already run, per fixture: at most 1 024, then forgotten at once
    /// (a bounded memory, so a long run's heap stays flat). libFuzzer runs one input at a time.
    nonisolated(unsafe) static var checked: Set<Key> = []

    /// True the first time `configuration` is seen for `fixture` (since the last forgetting).
    static func firstRun(of configuration: EngineConfiguration, fixture: Int) -> Bool {
        if checked.count >= 1_024 { checked.removeAll(keepingCapacity: true) }
        return checked.insert(Key(fixture: fixture, configuration: configuration)).inserted
    }

    static let runs: [(DeviceDescription, [RawEvent])] = {
        [
            "Tests/GestureEngineTests/Fixtures/gestured-demo-touchscreen/tap.evemu",
            "Tests/GestureEngineTests/Fixtures/gestured-demo-clickpad/three-finger-swipe-left.evemu",
        ].map { file in
            guard let text = FuzzFiles.read(file),
                let recording = try? RecordingParser.parse(text, fileName: file), let device = recording.device
            else { fuzzFailure("fixture \(file) missing or unreadable") }
            return (device, recording.events)
        }
    }()
}
