public import GestureEngine
public import GesturedDaemon
import GesturedSystem

/// One recognition as the evaluation sees it: its final values.
public struct GestureRecord: Sendable, Hashable {
    public var name: String
    public var fingers: Int
    public var translation: PhysicalPoint?
    public var scale: Double?
    public var direction: Direction?
    public var cancelled = false
    /// The translation after each event (µs of the event, cumulative translation), for a
    /// continuous gesture's motion after a given moment.
    public var samples: [TranslationSample] = []
}

/// A continuous gesture's cumulative translation as of one of its events.
public struct TranslationSample: Sendable, Hashable {
    /// The event's kernel timestamp (µs).
    public var time: Int64
    public var translation: PhysicalPoint
}

/// What came out of one replay.
public struct Observation: Sendable {
    public var records: [GestureRecord] = []
    /// Holds the engine cancelled while the recording ran (withdrawn, see
    /// ``Evaluator/observation(of:withdrawnBefore:)``): shown, not judged.
    public var withdrawn: [GestureRecord] = []
    /// Path length (mm) of the single touch passed on to the sink while it was the only one.
    public var pointerTravel = 0.0
    /// The time (µs) of the last frame the touch filter passed on with at least the key's
    /// number of touches down; filled only for the counts a check asks about.
    public var lastFrameWithAtLeast: [Int: Int64] = [:]
    /// The kind of device the recording was replayed as.
    public var kind: DeviceKind?

    public func count(_ name: String) -> Int { records.count { $0.name == name } }

    /// `tap×3 scroll×1[up 23.1mm] pointer 40.2mm`.
    public var summary: String {
        var order: [String] = []
        var byName: [String: [GestureRecord]] = [:]
        for record in records {
            if byName[record.name] == nil { order.append(record.name) }
            byName[record.name, default: []].append(record)
        }
        var parts: [String] = order.map { name in
            let group = byName[name] ?? []
            var text = "\(name)×\(group.count)"
            if let sum = Evaluator.summedTranslation(group) {
                text += "[\(Evaluator.dominantDirection(sum).rawValue) \(formatMM((sum.x * sum.x + sum.y * sum.y).squareRoot()))]"
            } else if let scale = group.last?.scale {
                text += "[scale \(Double(Int(scale * 100)) / 100)]"
            } else if let direction = group.last?.direction {
                text += "[\(direction.rawValue)]"
            }
            return text
        }
        for name in Set(withdrawn.map(\.name)).sorted() {
            parts.append("(\(name)×\(withdrawn.count { $0.name == name }) cancelled)")
        }
        parts.append("pointer \(formatMM(pointerTravel))")
        return parts.joined(separator: " ")
    }
}

/// The verdict for one recording.
public struct RecordingResult: Sendable {
    public var path: String
    public var expectation: Expectation
    public var observation: Observation?
    /// Checks that did not hold, as sentences; or the load error.
    public var failures: [String]
    public var passed: Bool { failures.isEmpty }
}

/// Replays labelled recordings through ``GesturePipeline`` (the code path of
/// `gestured --replay`) with a loaded configuration and judges them against their labels.
public struct Evaluator: Sendable {
    /// The corpus root (holding `real/` and `devices/`).
    public var corpus: String
    public var configuration: LoadedConfiguration
    /// The touch filter's settings (``TouchFilterSettings/disabled`` measures the engine alone).
    public var filterSettings: TouchFilterSettings
    /// Print every engine output of every replay (debugging a failure).
    public var trace = false
    /// The description for header-less recordings whose board or device has none in the
    /// corpus (`--description FILE`: a board not among the shared ones).
    public var fallbackDescription: DeviceDescription?

    public init(corpus: String, configuration: LoadedConfiguration, filterSettings: TouchFilterSettings = TouchFilterSettings()) {
        self.corpus = corpus
        self.configuration = configuration
        self.filterSettings = filterSettings
    }

    /// Every labelled recording under `real/`, as (path relative to `real/`, expectation),
    /// sorted by path.
    public func labelledRecordings() -> [(path: String, expectation: Expectation)] {
        Self.walk(corpus + "/real").compactMap { full in
            let relative = String(full.dropFirst(corpus.count + "/real/".count))
            return LabelMapping.expectation(for: relative).map { (relative, $0) }
        }
    }

    /// Replays one recording and judges it.
    public func evaluate(path: String, expectation: Expectation) -> RecordingResult {
        do {
            let observation = try observe(path: path, expectation: expectation)
            return RecordingResult(path: path, expectation: expectation, observation: observation, failures: Self.judge(observation, expectation))
        } catch {
            return RecordingResult(path: path, expectation: expectation, observation: nil, failures: ["did not replay: \(error)"])
        }
    }

    func observe(path: String, expectation: Expectation) throws -> Observation {
        let full = corpus + "/real/" + path
        let text = try Files.readText(path: full)
        var description: DeviceDescription?
        // A board without a description in the corpus (one not among the shared boards) has
        // its ranges inferred from the data, as any header-less recording.
        if let descriptionPath = expectation.descriptionPath ?? matchingDescription(for: path),
            case let descriptionFile = corpus + "/devices/" + descriptionPath, Files.exists(descriptionFile)
        {
            description = try RecordingParser.parseDescription(try Files.readText(path: descriptionFile), fileName: descriptionFile)
            // The ChromiumOS board descriptions carry no name or ids: give them the device's
            // (BoardIdentity.swift), so the quirks match them as they would the hardware.
            if let identity = BoardIdentity.identity(forDescription: descriptionPath) { identity.apply(to: &description!) }
        } else if expectation.descriptionPath != nil {
            description = fallbackDescription
        }
        var recording = try RecordingLoader.parse(text: text, name: full, description: description)
        // A header-less recording (or an `A:`-only description) cannot say what kind of device
        // it came from; the label can.
        if expectation.kind == .touchscreen && recording.device.kind != .touchscreen {
            recording.device.properties.insert(.direct)
        } else if expectation.kind == .touchpad && recording.device.kind != .touchpad {
            recording.device.properties.insert(.pointer)
        }
        let kind = recording.device.kind ?? expectation.kind ?? .touchpad
        guard let setup = configuration.configurator(recording.device, kind, [:]) else {
            throw EvaluationError(description: "no gesture of the configuration applies to this device")
        }
        // The quirks that matched the device apply to the evaluation's filter settings too.
        let filterSettings = self.filterSettings.isEnabled ? self.filterSettings.applying(setup.quirks) : self.filterSettings
        var pipeline = GesturePipeline(node: path, device: setup.device, configuration: setup.configuration, filterSettings: filterSettings)
        var outputs = pipeline.feed(recording.events)
        let whileRecording = outputs.count
        outputs += pipeline.finishReplay()
        let fingerCounts = Set(expectation.checks.compactMap { check -> Int? in
            if case .panDirectionAfter(_, _, let fingers) = check { return fingers }
            return nil
        })
        if trace {
            traceFilteredFrames(recording.events, device: setup.device, settings: filterSettings)
            for output in outputs {
                switch output {
                case .gesture(let e):
                    writeStandardOutput("  \(e.timestamp.microseconds) gesture \(e.name) \(e.state.rawValue) fingers=\(e.fingers)\n")
                case .touch(let t):
                    writeStandardOutput(
                        "  \(t.timestamp.microseconds) touch \(t.touch) \(t.phase.rawValue) (\(formatMM(t.position.x)), \(formatMM(t.position.y)))\n")
                }
            }
        }
        var observation = Self.observation(of: outputs, withdrawnBefore: whileRecording)
        observation.kind = kind
        if !fingerCounts.isEmpty {
            observation.lastFrameWithAtLeast = lastFrames(
                recording.events, device: setup.device, maxTouches: setup.configuration.maxTouches, counts: fingerCounts,
                settings: filterSettings)
        }
        return observation
    }

    /// For each count in `counts`, the time (µs) of the last frame the touch filter passes on
    /// with at least that many touches down (began, moved or stationary). The pipeline does
    /// not expose its frames, so the same assembler and filter run alongside it, as for
    /// `--trace`.
    private func lastFrames(
        _ events: [RawEvent], device: DeviceDescription, maxTouches: Int, counts: Set<Int>, settings: TouchFilterSettings
    ) -> [Int: Int64] {
        var assembler = FrameAssembler(device: device, maxTouches: maxTouches)
        var filter = TouchFilter(device: device, settings: settings)
        var last: [Int: Int64] = [:]
        func note(_ frame: Frame) {
            // A pad that counts more fingers than it has slots (BTN_TOOL_TRIPLETAP on two
            // slots) has an N-finger frame when it says so, as the label's "N-finger contact".
            let tracked = frame.touches.count { $0.phase == .began || $0.phase == .moved || $0.phase == .stationary }
            let down = max(tracked, frame.fingerCount ?? 0)
            for n in counts where down >= n { last[n] = frame.timestamp.microseconds }
        }
        for event in events {
            guard let assembled = assembler.feed(event) else { continue }
            let filtered = filter.process(assembled)
            if let lifts = filtered.ahead { note(lifts) }
            if let frame = filtered.frame { note(frame) }
        }
        return last
    }

    /// Prints what the touch filter passes on, frame by frame (the same assembler and filter
    /// as the pipeline, run alongside it): `time [count] #id phase (x, y) …`.
    private func traceFilteredFrames(_ events: [RawEvent], device: DeviceDescription, settings: TouchFilterSettings) {
        var assembler = FrameAssembler(device: device)
        var filter = TouchFilter(device: device, settings: settings)
        func line(_ frame: Frame, _ tag: String) {
            let touches = frame.touches.map { t in
                "#\(t.id.rawValue) \(t.phase.rawValue) (\(formatMM(t.position.x)), \(formatMM(t.position.y)))"
            }
            let count = frame.fingerCount.map { "[\($0)]" } ?? ""
            writeStandardOutput("  \(frame.timestamp.microseconds) \(tag)\(count)\(frame.isButtonPressed ? " button" : "") \(touches.joined(separator: " "))\n")
        }
        for event in events {
            guard let assembled = assembler.feed(event) else { continue }
            let filtered = filter.process(assembled)
            if let lifts = filtered.ahead { line(lifts, "lifts") }
            if let frame = filtered.frame { line(frame, "frame") }
        }
    }

    /// Gestures and pointer travel from engine outputs.
    ///
    /// A hold (long press) cancelled by an output before `withdrawnBefore` — while the
    /// recording still ran, so by the engine (a swipe, scroll or pinch took its touches on a
    /// touchpad, the filter cancelled them), not by the replay's end — is withdrawn: not an
    /// outcome. A hold carries no motion; what it means is that the fingers stayed, which
    /// only its end says. libinput's hold has a begin and an end that may be cancelled, the
    /// Wayland pointer-gestures protocol tells clients to take no lasting action before a
    /// gesture's end, and libinput side by side (compare.awk) counts a hold of either reader
    /// only at an end that is not cancelled. Pans and pinches deliver their motion as it
    /// happens, so a cancelled scroll still scrolled and counts; so does a hold the replay's
    /// end cancels (its fingers were still down).
    static func observation(of outputs: [EngineOutput], withdrawnBefore: Int = 0) -> Observation {
        var observation = Observation()
        var withdrawn: [Int] = []
        var open: [UInt64: Int] = [:]
        var active: [TouchID: PhysicalPoint] = [:]
        for (position, output) in outputs.enumerated() {
            switch output {
            case .gesture(let event):
                switch event.state {
                case .recognized:
                    observation.records.append(
                        GestureRecord(name: event.name, fingers: event.fingers, translation: event.translation, scale: event.scale, direction: event.direction))
                case .began:
                    open[event.sequence] = observation.records.count
                    var record = GestureRecord(
                        name: event.name, fingers: event.fingers, translation: event.translation, scale: event.scale, direction: event.direction)
                    if let translation = event.translation {
                        record.samples.append(TranslationSample(time: event.timestamp.microseconds, translation: translation))
                    }
                    observation.records.append(record)
                case .changed, .ended, .cancelled:
                    guard let index = open[event.sequence] else { continue }
                    observation.records[index].translation = event.translation ?? observation.records[index].translation
                    if let translation = event.translation {
                        observation.records[index].samples.append(TranslationSample(time: event.timestamp.microseconds, translation: translation))
                    }
                    observation.records[index].scale = event.scale ?? observation.records[index].scale
                    if event.state == .cancelled {
                        observation.records[index].cancelled = true
                        if position < withdrawnBefore, event.kind == .longPress { withdrawn.append(index) }
                    }
                    if event.state != .changed { open[event.sequence] = nil }
                case .possible, .failed:
                    continue
                }
            case .touch(let touch):
                switch touch.phase {
                case .began, .stationary:
                    active[touch.touch] = touch.position
                case .moved:
                    if active.count == 1, let last = active[touch.touch] {
                        let dx = touch.position.x - last.x
                        let dy = touch.position.y - last.y
                        observation.pointerTravel += (dx * dx + dy * dy).squareRoot()
                    }
                    active[touch.touch] = touch.position
                case .ended, .cancelled:
                    active[touch.touch] = nil
                }
            }
        }
        for index in withdrawn.sorted().reversed() {
            observation.withdrawn.insert(observation.records.remove(at: index), at: 0)
        }
        return observation
    }

    /// The sentences of every check that does not hold.
    static func judge(_ observation: Observation, _ expectation: Expectation) -> [String] {
        var failures: [String] = []
        for check in expectation.checks {
            switch check {
            case .count(let name, let relation, let expected):
                let n = observation.count(name)
                if !relation.holds(n, expected) { failures.append("\(name): \(n), expected \(relation.rawValue) \(expected)") }
            case .countOfAny(let names, let relation, let expected):
                let n = names.reduce(0) { $0 + observation.count($1) }
                if !relation.holds(n, expected) {
                    failures.append("\(names.joined(separator: "+")): \(n), expected \(relation.rawValue) \(expected)")
                }
            case .nothingBut(let allowed):
                var unexpected: [String] = []
                for record in observation.records where !allowed.contains(record.name) && !unexpected.contains(record.name) {
                    unexpected.append(record.name)
                }
                if !unexpected.isEmpty { failures.append("unexpected \(unexpected.joined(separator: ", "))") }
            case .panDirection(let name, let direction):
                let group = observation.records.filter { $0.name == name }
                if let sum = summedTranslation(group) {
                    let got = dominantDirection(sum)
                    if got != direction { failures.append("\(name) went \(got.rawValue), expected \(direction.rawValue)") }
                } else {
                    failures.append("no \(name), expected one going \(direction.rawValue)")
                }
            case .panDirectionAfter(let name, let direction, let fingers):
                let group = observation.records.filter { $0.name == name }
                let since = observation.lastFrameWithAtLeast[fingers]
                if let sum = summedTranslation(group, after: since), sum.x != 0 || sum.y != 0 {
                    let got = dominantDirection(sum)
                    if got != direction {
                        failures.append("\(name) went \(got.rawValue) after the last \(fingers)-finger frame, expected \(direction.rawValue)")
                    }
                } else {
                    failures.append("no \(name) motion after the last \(fingers)-finger frame, expected one going \(direction.rawValue)")
                }
            case .panAxis(let name, let horizontal):
                let group = observation.records.filter { $0.name == name }
                if let sum = summedTranslation(group) {
                    // Back-and-forth scrolls sum to little: judge by the travelled axis.
                    let x = group.reduce(0.0) { $0 + abs($1.translation?.x ?? 0) }
                    let y = group.reduce(0.0) { $0 + abs($1.translation?.y ?? 0) }
                    _ = sum
                    if (x > y) != horizontal {
                        failures.append("\(name) mostly \(x > y ? "horizontal" : "vertical"), expected \(horizontal ? "horizontal" : "vertical")")
                    }
                } else {
                    failures.append("no \(name), expected \(horizontal ? "horizontal" : "vertical") ones")
                }
            case .swipeDirection(let name, let direction):
                let group = observation.records.filter { $0.name == name }
                if group.isEmpty {
                    failures.append("no \(name), expected one going \(direction.rawValue)")
                } else if let wrong = group.first(where: { $0.direction != direction }) {
                    failures.append("\(name) went \(wrong.direction?.rawValue ?? "?"), expected \(direction.rawValue)")
                }
            case .pinchScale(let spread):
                if let scale = observation.records.last(where: { $0.name == "pinch" })?.scale {
                    if (scale > 1) != spread { failures.append("pinch scale \(scale), expected \(spread ? "> 1" : "< 1")") }
                } else {
                    failures.append("no pinch, expected one with scale \(spread ? "> 1" : "< 1")")
                }
            case .pointerMotion(let relation, let mm):
                let travel = observation.pointerTravel
                let holds =
                    switch relation {
                    case .atLeast: travel >= mm
                    case .atMost: travel <= mm
                    case .equal: travel == mm
                    }
                if !holds { failures.append("pointer \(formatMM(travel)), expected \(relation.rawValue) \(formatMM(mm))") }
            }
        }
        return failures
    }

    static func summedTranslation(_ group: [GestureRecord]) -> PhysicalPoint? {
        let translations = group.compactMap(\.translation)
        guard !translations.isEmpty else { return nil }
        return translations.reduce(PhysicalPoint(x: 0, y: 0)) { PhysicalPoint(x: $0.x + $1.x, y: $0.y + $1.y) }
    }

    /// The summed translation of `group` after the moment `time` (µs): each recognition's
    /// last translation minus its translation as of `time` (zero when it began later). All of
    /// it when `time` is nil; nil when no recognition has a translation.
    static func summedTranslation(_ group: [GestureRecord], after time: Int64?) -> PhysicalPoint? {
        guard let time else { return summedTranslation(group) }
        var sum: PhysicalPoint?
        for record in group {
            guard let final = record.translation else { continue }
            let before = record.samples.last { $0.time <= time }?.translation ?? PhysicalPoint(x: 0, y: 0)
            let total = sum ?? PhysicalPoint(x: 0, y: 0)
            sum = PhysicalPoint(x: total.x + final.x - before.x, y: total.y + final.y - before.y)
        }
        return sum
    }

    /// Up is toward the top of the surface (y grows downward).
    static func dominantDirection(_ p: PhysicalPoint) -> Direction {
        abs(p.x) > abs(p.y) ? (p.x > 0 ? .right : .left) : (p.y > 0 ? .down : .up)
    }

    /// For a header-less evemu recording, the corpus description whose name is the longest
    /// prefix of the recording's name (`SynPS2-Synaptics-TouchPad-Clickpad.tap.events` ↔
    /// `SynPS2-Synaptics-TouchPad-Clickpad.desc`).
    func matchingDescription(for path: String) -> String? {
        guard let folder = path.split(separator: "/").first.map(String.init), folder == "evemu-devices" || folder == "xorg-integration-tests"
        else { return nil }
        let file = String(path.split(separator: "/").last ?? "")
        var best: String?
        for description in Files.listDirectory(corpus + "/devices/" + folder, suffix: ".desc") {
            let name = String(description.split(separator: "/").last ?? "")
            let stem = String(name.dropLast(5))
            guard file.hasPrefix(stem + ".") || file.hasPrefix(stem + " ") || file.hasPrefix(stem + "-") else { continue }
            if best.map({ $0.count < stem.count + 5 }) ?? true { best = name }
        }
        return best.map { folder + "/" + $0 }
    }

    /// Every file under `path` (depth first, sorted), skipping notes and label files.
    static func walk(_ path: String) -> [String] {
        var files: [String] = []
        for entry in Files.listDirectory(path, suffix: "") {
            let children = Files.listDirectory(entry, suffix: "")
            if !children.isEmpty {
                files += walk(entry)
            } else if !entry.hasSuffix(".md") && !entry.hasSuffix(".json") {
                files.append(entry)
            }
        }
        return files
    }
}

/// A recording that could not be evaluated, with the reason.
public struct EvaluationError: Error, CustomStringConvertible {
    public var description: String
}
