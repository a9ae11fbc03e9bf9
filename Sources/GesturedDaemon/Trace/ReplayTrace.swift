public import GestureEngine

/// What the touch filter decided about one contact, as a trace shows it: the filter's own
/// decisions (``TouchFilterDecision``: a palm with its ``PalmReason``, a tap denied with its
/// ``NoTapReason``, a contact held back with its ``TouchFilterDecision/HeldReason``), placed
/// on the contact's path and in words.
public struct TouchDecision: Hashable, Sendable {
    public enum Kind: String, Sendable {
        /// Never passed on: a palm, or a thumb resting in its band.
        case filtered
        /// Passed on, then cancelled while the contact was still down: a palm after all.
        case palm
        /// Marked as no tap: the contact may not make a tap.
        case noTap = "no-tap"
        /// Passed on only some time after it landed (edge, thumb or palm confirmation).
        case heldBack = "held-back"
    }

    public var kind: Kind
    /// Words for people: "palm, never passed on".
    public var label: String
    /// The filter's reason in words ("pressure", "after scroll"), when it gives one.
    public var reason: String?
    public var time: Timestamp

    public init(kind: Kind, label: String, reason: String? = nil, time: Timestamp) {
        self.kind = kind
        self.label = label
        self.reason = reason
        self.time = time
    }
}

/// One contact of a recording: where it went (as the kernel reported it) and what the filter
/// passed on of it.
public struct TraceTouch: Sendable {
    public struct Sample: Sendable {
        public var time: Timestamp
        public var position: PhysicalPoint
    }

    public var id: TouchID
    public var toolType: ToolType
    /// Every position the assembler reported, landing to lift.
    public var samples: [Sample] = []
    /// The positions the filter passed on to the recognizers.
    public var delivered: [Sample] = []
    /// How the contact ended on the kernel side: ended, cancelled (device gone, end of the
    /// recording) or nil when it was still down at the end.
    public var endPhase: TouchPhase?
    /// How its delivered part ended: ended, or cancelled by the filter or the end.
    public var deliveredEndPhase: TouchPhase?
    public var decisions: [TouchDecision] = []
    /// Made by the filter (a finger the pad counts but reports no slot for).
    public var isSynthetic = false

    public var start: Timestamp { samples.first?.time ?? delivered.first?.time ?? Timestamp(microseconds: 0) }
    public var end: Timestamp { max(samples.last?.time ?? start, delivered.last?.time ?? start) }

    /// Length of the reported path, millimetres.
    public var pathLength: Double {
        var length = 0.0
        for (a, b) in zip(samples, samples.dropFirst()) {
            let dx = b.position.x - a.position.x
            let dy = b.position.y - a.position.y
            length += (dx * dx + dy * dy).squareRoot()
        }
        return length
    }
}

/// One recognition attempt of a configured gesture: its events in order.
public struct TraceGesture: Sendable {
    public struct Step: Sendable {
        public var state: GestureState
        public var time: Timestamp
        public var fingers: Int
    }

    public var name: String
    public var kind: GestureKind
    public var sequence: UInt64
    public var steps: [Step] = []
    /// Where it began, millimetres.
    public var location: PhysicalPoint
    /// Details of the last step worth a word ("left", "scale 1.8").
    public var detail: String?

    public var start: Timestamp { steps.first?.time ?? Timestamp(microseconds: 0) }
    public var end: Timestamp { steps.last?.time ?? start }
    /// recognized, ended or cancelled; nil when the recording ended in between.
    public var outcome: GestureState? {
        guard let last = steps.last?.state, [.recognized, .ended, .cancelled].contains(last) else { return nil }
        return last
    }
    public var isDiscrete: Bool { steps.count == 1 && steps[0].state == .recognized }
}

/// A recording replayed through the daemon's decoder, touch filter and engine, with what each
/// stage made of it: the picture `gestured --replay FILE --svg OUT` draws (``TraceSVG``).
public struct ReplayTrace: Sendable {
    public var file: String
    public var deviceName: String
    public var deviceKind: DeviceKind
    public var widthMM: Double
    public var heightMM: Double
    public var approximateUnits: Bool
    public var configuration: String
    public var start: Timestamp
    public var end: Timestamp
    public var touches: [TraceTouch]
    public var gestures: [TraceGesture]

    /// Replays `recording` through the pipeline of `setup` (as `--replay` does, as fast as
    /// possible) and, alongside it, the same assembler and touch filter (deterministic, so
    /// they see exactly the frames the pipeline sees), which the pipeline does not expose.
    public static func record(
        file: String,
        recording: LoadedRecording,
        setup: DeviceSetup,
        kind: DeviceKind,
        configuration: String
    ) -> ReplayTrace {
        let device = setup.device
        let filterSettings = setup.filterSettings
        var pipeline = GesturePipeline(node: file, device: device, configuration: setup.configuration, filterSettings: filterSettings)
        var outputs = pipeline.feed(recording.events)
        outputs += pipeline.finishReplay()

        var assembler = FrameAssembler(device: device, maxTouches: setup.configuration.maxTouches)
        var filter = TouchFilter(device: device, settings: filterSettings)
        filter.recordsDecisions = true
        var verdicts: [TouchID: [TouchFilterDecision]] = [:]
        func drainVerdicts() {
            for decision in filter.drainDecisions() { verdicts[decision.touch, default: []].append(decision) }
        }
        var touches: [TouchID: TraceTouch] = [:]
        var order: [TouchID] = []
        func touch(_ t: Touch) -> TouchID {
            if touches[t.id] == nil {
                touches[t.id] = TraceTouch(id: t.id, toolType: t.toolType)
                order.append(t.id)
            }
            return t.id
        }
        func observeAssembled(_ frame: Frame) {
            for t in frame.touches {
                let id = touch(t)
                let sample = TraceTouch.Sample(time: frame.timestamp, position: t.position)
                if t.phase != .stationary || touches[id]!.samples.isEmpty { touches[id]!.samples.append(sample) }
                if t.phase == .ended || t.phase == .cancelled { touches[id]!.endPhase = t.phase }
                if t.toolType == .palm { touches[id]!.toolType = .palm }
            }
        }
        func observeDelivered(_ frame: Frame) {
            for t in frame.touches {
                let known = touches[t.id] != nil
                let id = touch(t)
                if !known { touches[id]!.isSynthetic = true }
                let sample = TraceTouch.Sample(time: frame.timestamp, position: t.position)
                if t.phase != .stationary || touches[id]!.delivered.isEmpty { touches[id]!.delivered.append(sample) }
                if t.phase == .ended || t.phase == .cancelled { touches[id]!.deliveredEndPhase = t.phase }
            }
        }
        var last = recording.events.first?.time ?? Timestamp(microseconds: 0)
        for event in recording.events {
            last = max(last, event.time)
            guard let assembled = assembler.feed(event) else { continue }
            let filtered = filter.process(assembled)
            if let lifts = filtered.ahead { observeDelivered(lifts) }
            observeAssembled(assembled)
            if let frame = filtered.frame { observeDelivered(frame) }
            drainVerdicts()
        }
        if let lifts = filter.fire(upTo: Timestamp(microseconds: Int64.max / 2)) { observeDelivered(lifts) }
        drainVerdicts()

        var list = order.map { touches[$0]! }
        for index in list.indices { list[index].decisions = decisions(for: list[index], verdicts: verdicts[list[index].id] ?? []) }

        var gestures: [TraceGesture] = []
        var index: [String: Int] = [:]
        for output in outputs {
            guard case .gesture(let e) = output else { continue }
            let key = "\(e.name)#\(e.sequence)"
            if index[key] == nil {
                index[key] = gestures.count
                gestures.append(TraceGesture(name: e.name, kind: e.kind, sequence: e.sequence, location: e.location))
            }
            let i = index[key]!
            gestures[i].steps.append(TraceGesture.Step(state: e.state, time: e.timestamp, fingers: e.fingers))
            if let detail = detail(of: e) { gestures[i].detail = detail }
            last = max(last, e.timestamp)
        }
        let first = recording.events.first?.time ?? Timestamp(microseconds: 0)
        return ReplayTrace(
            file: file,
            deviceName: device.name,
            deviceKind: kind,
            widthMM: device.widthMillimeters,
            heightMM: device.heightMillimeters,
            approximateUnits: !device.hasResolution,
            configuration: configuration,
            start: first,
            end: max(last, first),
            touches: list,
            gestures: gestures
        )
    }

    /// The filter's decisions about one contact, from its own records (``verdicts``) and what
    /// it passed on: a palm never passed on or taken back while down, held back (and for how
    /// long), no tap; each with the filter's reason.
    static func decisions(for touch: TraceTouch, verdicts: [TouchFilterDecision]) -> [TouchDecision] {
        if touch.isSynthetic { return [] }
        var result: [TouchDecision] = []
        let firstDelivered = touch.delivered.first
        if let held = verdicts.first(where: { $0.held != nil }), let reason = held.held {
            if let firstDelivered {
                let late = Int(((firstDelivered.time - touch.start) * 1000).rounded())
                result.append(TouchDecision(kind: .heldBack, label: "held back \(late) ms", reason: words(reason.rawValue), time: firstDelivered.time))
            } else if !verdicts.contains(where: { $0.flags.palm != nil }) {
                result.append(TouchDecision(kind: .filtered, label: "held back, never passed on", reason: words(reason.rawValue), time: held.timestamp))
            }
        }
        if let palm = verdicts.first(where: { $0.flags.palm != nil }), let reason = palm.flags.palm {
            if firstDelivered == nil || !palm.delivered {
                if firstDelivered == nil {
                    result.append(TouchDecision(kind: .filtered, label: "palm, never passed on", reason: words(reason.rawValue), time: palm.timestamp))
                }
            } else {
                result.append(TouchDecision(kind: .palm, label: "palm, taken back while down", reason: words(reason.rawValue), time: palm.timestamp))
            }
        } else if firstDelivered == nil && result.isEmpty {
            result.append(TouchDecision(kind: .filtered, label: "never passed on", time: touch.start))
        }
        if let noTap = verdicts.first(where: { $0.flags.noTap != nil }), let reason = noTap.flags.noTap {
            result.append(TouchDecision(kind: .noTap, label: "no tap", reason: words(reason.rawValue), time: noTap.timestamp))
        }
        return result
    }

    /// `afterScroll` → "after scroll".
    static func words(_ camel: String) -> String {
        var out = ""
        for c in camel {
            if c.isUppercase {
                out += " " + c.lowercased()
            } else {
                out.append(c)
            }
        }
        return out
    }

    static func detail(of e: GestureEvent) -> String? {
        if let edge = e.edge { return "from the \(edge.rawValue) edge" }
        if let direction = e.direction { return direction.rawValue }
        if let scale = e.scale { return "scale \(TraceSVG.number(scale, places: 2))" }
        if let rotation = e.rotation { return "\(TraceSVG.number(rotation * 180 / Double.pi, places: 0))°" }
        if let taps = e.taps, taps > 1 { return "\(taps) taps" }
        return nil
    }
}
