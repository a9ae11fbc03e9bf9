public import GestureEngine
public import GesturedDaemon
import GesturedConfig
import GesturedSystem

/// The stress set (docs/evaluation.md, "The stress set"): every gesture of the shipped
/// configuration, synthesized on real device descriptions under each stress variant, replayed
/// through ``GesturePipeline`` (the `gestured --replay` path: evemu text, ``RecordingLoader``,
/// assembler, touch filter, engine with the touchpad policy) and judged by what the user
/// means.
public struct StressSet: Sendable {
    /// A real description from `../shared/corpus/devices`.
    public struct Description: Sendable, Hashable {
        /// Path relative to the corpus `devices/` folder.
        public var path: String
        public var name: String { String(path.split(separator: "/").last ?? Substring(path)).replacing(".desc", with: "") }
    }

    /// Four touchscreens and four touchpads of seven makers: with and without resolution,
    /// pressure (0…50, 0…255, none) and touch size, 2 to 10 slots.
    public static let descriptions: [Description] = [
        "evemu-devices/Atmel maXTouch Touchscreen.desc",  // 10 slots, no resolution, no pressure, no size
        "evemu-devices/ELAN Touchscreen.desc",  // 10 slots, 10 units/mm, touch size
        "evemu-devices/Wacom Cintiq 24HD touch Finger.desc",  // 10 slots, 10 units/mm, touch size
        "xorg-integration-tests/n4.desc",  // 10 slots, pressure 0…255, small touch size, no resolution
        "evemu-devices/SynPS2 Synaptics TouchPad.lenovo-p50.desc",  // 2 slots, pressure 0…255 (PS/2 Synaptics)
        "evemu-devices/ETPS2 Elantech Touchpad-ASUS-N500JK.desc",  // 5 slots, pressure 0…255, touch size
        "evemu-devices/Logitech Rechargeable Touchpad T650.desc",  // 10 slots, pressure 0…50, clickpad
        "evemu-devices/Logitech Wireless Touchpad.desc",  // 4 slots, pressure 0…50
    ].map { Description(path: $0) }

    /// The fast subset (`--stress --quick`, and the `stress` test): the plain gesture and the
    /// variants the issue names first.
    public static let quickVariants: Set<String> = [
        "plain", "land 20 ms apart", "lag 12 ms in motion", "pressure 0…50", "resting palm",
    ]

    /// One replay's verdict.
    public struct Result: Sendable {
        public var description: String
        public var kind: DeviceKind
        public var scenario: StressScenario
        public var variant: StressVariant
        public var got: [String]
        public var failures: [String]
        public var events: String?
        public var passed: Bool { failures.isEmpty }
    }

    public var corpus: String
    public var configuration: LoadedConfiguration

    public init(corpus: String, configuration: LoadedConfiguration) {
        self.corpus = corpus
        self.configuration = configuration
    }

    /// Loads a description.
    public func load(_ description: Description) throws -> DeviceDescription {
        let file = corpus + "/devices/" + description.path
        return try RecordingParser.parseDescription(try Files.readText(path: file), fileName: file)
    }

    /// Every scenario × variant on `device` (or the subset `keep` selects), judged.
    public func run(
        _ description: Description, device base: DeviceDescription, keepEvents: Bool = false,
        where keep: (StressScenario, StressVariant) -> Bool = { _, _ in true }
    ) -> [Result] {
        let kind = base.kind ?? .touchscreen
        // The shipped configuration's gestures, or config/evaluation.conf's (which has a
        // `scroll`), by the names the configuration declares.
        let names = Set(configuration.configuration.gestures.map(\.name))
        let evaluation = names.contains("scroll") && !names.contains("touchpad-pinch")
        let scenarios =
            kind == .touchpad
            ? (evaluation ? StressScenario.evaluationTouchpad : StressScenario.touchpad)
            : (evaluation ? StressScenario.evaluationTouchscreen : StressScenario.touchscreen)
        var results: [Result] = []
        for (index, scenario) in scenarios.enumerated() {
            guard scenario.fingers <= maximumFingers(base, kind) else { continue }
            for variant in StressVariant.all where variant.applies(toFingers: scenario.fingers) && keep(scenario, variant) {
                let device = Self.device(base, variant)
                if variant.speedFactor != 1, !scenario.moves { continue }  // nothing to hurry
                let palmScenario = scenario.motion == .palmAlone
                if palmScenario && variant.palm { continue }  // one palm is the scenario
                if (variant.palm || palmScenario) && kind == .touchscreen && device.axis(.absMTPressure) == nil
                    && device.axis(.absMTTouchMajor) == nil && device.axis(.absMTToolType) == nil
                {
                    continue  // a palm on a screen that reports no pressure, size or tool is a finger to it
                }
                if variant.palm && scenario.fingers + 1 > device.slotCount {
                    continue  // the palm takes a slot the fingers need: the pad cannot report them
                }
                results.append(replay(description.name, device: device, kind: kind, scenario: scenario, variant: variant, index: index, keepEvents: keepEvents))
            }
        }
        return results
    }

    /// Touchscreens track only their slots; touchpads count more in `BTN_TOOL_*`.
    func maximumFingers(_ device: DeviceDescription, _ kind: DeviceKind) -> Int {
        if kind == .touchpad {
            if device.supports(.btnToolQuadTap) { return 4 }
            if device.supports(.btnToolTripleTap) { return 3 }
            return device.slotCount
        }
        return device.slotCount
    }

    /// The description with the variant's pressure and size axes.
    static func device(_ base: DeviceDescription, _ variant: StressVariant) -> DeviceDescription {
        var device = base
        func set(_ usage: EventUsage, _ axis: AxisInfo?) {
            device.axes[usage.code] = axis
            if axis == nil { device.codes.remove(usage) }
        }
        switch variant.pressure {
        case .native: break
        case .range50, .range255:
            let axis = AxisInfo(minimum: 0, maximum: variant.pressure == .range50 ? 50 : 255)
            set(.absMTPressure, axis)
            if device.axis(.absX) != nil { set(.absPressure, axis) }
        case .none:
            set(.absMTPressure, nil)
            set(.absPressure, nil)
        }
        switch variant.size {
        case .native: break
        case .present:
            if let x = device.xAxis {
                set(.absMTTouchMajor, AxisInfo(minimum: 0, maximum: x.maximum - x.minimum, resolution: x.resolution))
            }
        case .absent:
            for usage in [EventUsage.absMTTouchMajor, .absMTTouchMinor, .absMTWidthMajor, .absMTWidthMinor] { set(usage, nil) }
        }
        return device
    }

    func replay(
        _ name: String, device: DeviceDescription, kind: DeviceKind, scenario: StressScenario, variant: StressVariant, index: Int,
        keepEvents: Bool
    ) -> Result {
        var result = Result(description: name, kind: kind, scenario: scenario, variant: variant, got: [], failures: [])
        let script = StressScript.script(scenario, variant, device: device, kind: kind, index: index)
        var synthesizer = GestureSynthesizer(
            device: device, frameInterval: 1 / variant.rate, jitterMillimeters: variant.jitter, seed: variant.seed &+ UInt64(index))
        let text = EvemuWriter.recording(device: device, events: synthesizer.events(for: script))
        do {
            // The `gestured --replay FILE` path: the recording's own header describes the device.
            let recording = try RecordingLoader.parse(text: text, name: "\(name): \(scenario.name), \(variant.name)", description: nil)
            var (_, pipeline) = GesturePipeline.forReplay(
                node: name, device: recording.device, kind: recording.device.kind ?? kind, configurator: configuration.configurator)
            var outputs = pipeline.feed(recording.events)
            let whileRecording = outputs.count
            outputs += pipeline.finishReplay()
            let records = Self.records(outputs, withdrawnBefore: whileRecording)
            result.got = records.map(\.summary)
            result.failures = Self.judge(records, scenario)
        } catch {
            result.failures = ["did not replay: \(error)"]
        }
        if keepEvents || !result.passed { result.events = text }
        return result
    }

    /// One recognition: a discrete gesture's `recognized`, a continuous one's `began` with its
    /// last values.
    struct Record {
        var name: String
        /// A swipe's direction, or a pan's: the dominant axis of its last translation.
        var direction: Direction?
        var scale: Double?
        var rotation: Double?
        var summary: String {
            var text = name
            if let direction { text += " \(direction.rawValue)" }
            if let scale { text += " scale \(Double(Int(scale * 100)) / 100)" }
            if let rotation { text += " rotation \(Double(Int(rotation * 100)) / 100)" }
            return text
        }
    }

    /// A hold the engine cancelled while the recording ran is withdrawn, as in the corpus
    /// evaluation (``Evaluator/observation(of:withdrawnBefore:)``).
    static func records(_ outputs: [EngineOutput], withdrawnBefore: Int = 0) -> [Record] {
        var records: [Record] = []
        var open: [UInt64: Int] = [:]
        var withdrawn: [Int] = []
        for (position, output) in outputs.enumerated() {
            guard case .gesture(let event) = output else { continue }
            if event.state == .cancelled, event.kind == .longPress, position < withdrawnBefore, let index = open[event.sequence] {
                withdrawn.append(index)
            }
            switch event.state {
            case .recognized:
                records.append(Record(name: event.name, direction: event.direction, scale: event.scale, rotation: event.rotation))
            case .began:
                open[event.sequence] = records.count
                records.append(Record(name: event.name, direction: event.direction, scale: event.scale, rotation: event.rotation))
            case .changed, .ended, .cancelled:
                guard let index = open[event.sequence] else { continue }
                records[index].scale = event.scale ?? records[index].scale
                records[index].rotation = event.rotation ?? records[index].rotation
                records[index].direction = event.direction ?? event.translation.map(Self.dominant) ?? records[index].direction
            case .possible, .failed:
                continue
            }
        }
        for index in withdrawn.sorted().reversed() { records.remove(at: index) }
        return records
    }

    /// Up is toward the top of the surface (y grows downward).
    static func dominant(_ p: PhysicalPoint) -> Direction {
        abs(p.x) > abs(p.y) ? (p.x > 0 ? .right : .left) : (p.y > 0 ? .down : .up)
    }

    static func judge(_ records: [Record], _ scenario: StressScenario) -> [String] {
        guard let expected = scenario.expected else {
            return records.isEmpty ? [] : ["expected no gesture"]
        }
        var failures: [String] = []
        let matching = records.filter { $0.name == expected }
        if matching.count != scenario.repeats {
            failures.append("\(expected) ×\(matching.count), expected ×\(scenario.repeats)")
        }
        let others = records.filter { $0.name != expected && !scenario.tolerated.contains($0.name) }
        if !others.isEmpty { failures.append("also \(others.map(\.name).joined(separator: ", "))") }
        for record in matching {
            if let direction = scenario.direction, record.direction != direction {
                failures.append("went \(record.direction?.rawValue ?? "?"), expected \(direction.rawValue)")
            }
            if let spreads = scenario.spreads, let scale = record.scale, (scale > 1) != spreads {
                failures.append("scale \(scale), expected \(spreads ? "> 1" : "< 1")")
            }
            if let clockwise = scenario.clockwise, let rotation = record.rotation, (rotation > 0) != clockwise {
                failures.append("rotation \(rotation), expected \(clockwise ? "clockwise" : "counter-clockwise")")
            }
        }
        return failures
    }
}

/// The report of a stress run: per description, per variant, per scenario, and the failures.
public struct StressReport: Sendable {
    public var results: [StressSet.Result]

    public init(results: [StressSet.Result]) { self.results = results }

    public var passed: Int { results.count(where: \.passed) }

    /// Passing and total replays of one description (by name).
    public func figures(description: String) -> (passed: Int, total: Int) {
        let rows = results.filter { $0.description == description }
        return (rows.count(where: \.passed), rows.count)
    }

    /// `PASSED TOTAL NAME` per description, the stress baseline's lines.
    public var baselineText: String {
        var text = "# gestured-eval --stress baseline (written by --write-baseline): passing, replays, description\n"
        var order: [String] = []
        for result in results where !order.contains(result.description) { order.append(result.description) }
        for name in order {
            let f = figures(description: name)
            text += "\(f.passed) \(f.total) \(name)\n"
        }
        return text
    }

    /// Reads the stress baseline: description name → (passed, total).
    public static func parseBaseline(_ text: String) -> [String: (passed: Int, total: Int)] {
        var result: [String: (passed: Int, total: Int)] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, let passed = Int(fields[0]), let total = Int(fields[1]) else { continue }
            result[String(fields[2])] = (passed, total)
        }
        return result
    }

    /// Variants (rows) × descriptions (columns D1…), failures per cell ("." = none).
    func matrix() -> [String] {
        var descriptions: [String] = []
        for result in results where !descriptions.contains(result.description) { descriptions.append(result.description) }
        var variants: [String] = []
        for result in results where !variants.contains(result.variant.name) { variants.append(result.variant.name) }
        func pad(_ text: String, _ n: Int) -> String { text.count >= n ? text : text + String(repeating: " ", count: n - text.count) }
        var lines = ["failing cases per variant and description:"]
        for (index, name) in descriptions.enumerated() { lines.append("  D\(index + 1) = \(name)") }
        lines.append("  " + pad("variant", 32) + descriptions.indices.map { pad("D\($0 + 1)", 6) }.joined())
        for variant in variants {
            let label = String(variant.split(separator: " (").first ?? Substring(variant))
            var line = "  " + pad(label, 32)
            for name in descriptions {
                let rows = results.filter { $0.description == name && $0.variant.name == variant }
                let failing = rows.count { !$0.passed }
                line += pad(rows.isEmpty ? "-" : failing == 0 ? "." : "\(failing)", 6)
            }
            lines.append(line)
        }
        return lines
    }

    public func render(showFailures: Bool) -> String {
        func pad(_ text: String, _ n: Int) -> String { text.count >= n ? text + " " : text + String(repeating: " ", count: n - text.count) }
        func figures(_ rows: [StressSet.Result]) -> String {
            let passed = rows.count(where: \.passed)
            return pad("\(passed)/\(rows.count)", 10) + "(\(percent(rows.isEmpty ? 0 : Double(passed) * 100 / Double(rows.count))))"
        }
        func grouped(_ title: String, _ key: (StressSet.Result) -> String) -> [String] {
            var order: [String] = []
            for result in results where !order.contains(key(result)) { order.append(key(result)) }
            return [title] + order.map { name in "  " + pad(name, 62) + figures(results.filter { key($0) == name }) }
        }
        var lines = grouped("per description:", { "\($0.description) (\($0.kind))" })
        lines.append("")
        lines += matrix()
        lines.append("")
        lines += grouped("per variant:", { $0.variant.name })
        lines.append("")
        lines += grouped("per gesture:", { "\($0.kind): \($0.scenario.name)" })
        lines.append("")
        // A description where the gestures, made plainly on the device as it is, all come out
        // as nothing: the user's first minute.
        let silent = Set(results.map(\.description)).filter { name in
            results.filter { $0.description == name && $0.scenario.expected != nil && $0.variant.name == "plain" }.allSatisfy {
                $0.got.isEmpty
            }
        }
        lines.append(
            "stress set: \(passed)/\(results.count) (\(percent(Double(passed) * 100 / Double(max(1, results.count)))))"
                + "; descriptions where the plain gestures recognize nothing: \(silent.isEmpty ? "none" : silent.sorted().joined(separator: ", "))")
        if showFailures {
            let failures = results.filter { !$0.passed }
            if !failures.isEmpty {
                lines.append("")
                lines.append("failures (\(failures.count)):")
                for result in failures {
                    lines.append(
                        "  \(result.description): \(result.scenario.name), \(result.variant.name): got [\(result.got.joined(separator: "; "))]: "
                            + result.failures.joined(separator: "; "))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
