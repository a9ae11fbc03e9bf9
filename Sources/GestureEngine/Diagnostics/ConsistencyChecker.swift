/// Validates an engine output stream against the output contract (STYLE.md B9, spec §3.1,
/// §3.6, §7), like Android's input-event consistency verifier. Pure; feed it outputs in order.
///
/// Gesture rules: per sequence, continuous kinds emit exactly one `began`, any `changed`, then
/// exactly one `ended` or `cancelled`, and nothing after; discrete kinds emit exactly one
/// `recognized`; a name never has two open sequences; sequences are unique; no value is NaN or
/// infinite; gesture timestamps never decrease. Sink rules: per touch `began`, `moved`*, then one
/// `ended` or `cancelled`, nothing after; a touch's timestamps never decrease.
public struct ConsistencyChecker: Sendable {
    /// One broken rule, with the offending output.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// Position of the offending output in everything fed so far (0-based).
        public var index: Int
        /// What was wrong, naming the gesture or touch.
        public var message: String
        public var description: String { "output \(index): \(message)" }
    }

    enum SequenceState: Sendable, Hashable {
        case open
        case closed
    }

    private var sequences: [UInt64: (name: String, state: SequenceState)] = [:]
    private var openByName: [String: UInt64] = [:]
    private var touches: [TouchID: (closed: Bool, last: Timestamp)] = [:]
    private var lastGestureTime: Timestamp?
    private var index = 0
    /// Every violation found so far, in stream order.
    public private(set) var violations: [Violation] = []

    public init() {}

    /// Checks a whole stream (and, with `requireClosed`, that every gesture and touch ended).
    public static func check(_ outputs: [EngineOutput], requireClosed: Bool = false) -> [Violation] {
        var checker = ConsistencyChecker()
        checker.feed(outputs)
        if requireClosed { checker.finish() }
        return checker.violations
    }

    /// Checks outputs in emission order.
    public mutating func feed(_ outputs: [EngineOutput]) {
        for output in outputs { feed(output) }
    }

    /// Checks one output.
    public mutating func feed(_ output: EngineOutput) {
        defer { index += 1 }
        switch output {
        case .gesture(let event): check(event)
        case .touch(let event): check(event)
        }
    }

    /// Reports sequences and touches that never closed.
    public mutating func finish() {
        for (name, sequence) in openByName.sorted(by: { $0.key < $1.key }) {
            report("gesture '\(name)' sequence \(sequence) never ended")
        }
        for (id, touch) in touches.sorted(by: { $0.key < $1.key }) where !touch.closed {
            report("touch \(id) never ended at the sink")
        }
    }

    private mutating func report(_ message: String) {
        violations.append(Violation(index: index, message: message))
    }

    private mutating func check(_ event: GestureEvent) {
        if let last = lastGestureTime, event.timestamp < last {
            report("'\(event.name)' timestamp \(event.timestamp) before \(last)")
        }
        lastGestureTime = event.timestamp
        checkFinite(event)
        let known = sequences[event.sequence]
        if let known, known.name != event.name {
            report("sequence \(event.sequence) used by '\(known.name)' and '\(event.name)'")
            return
        }
        switch event.state {
        case .recognized:
            if known != nil { report("'\(event.name)' recognized twice in sequence \(event.sequence)") }
            if openByName[event.name] != nil { report("'\(event.name)' recognized while a sequence is open") }
            sequences[event.sequence] = (event.name, .closed)
        case .began:
            if known != nil { report("'\(event.name)' began twice in sequence \(event.sequence)") }
            if let open = openByName[event.name] {
                report("'\(event.name)' began while sequence \(open) is still open")
            }
            sequences[event.sequence] = (event.name, .open)
            openByName[event.name] = event.sequence
        case .changed, .ended, .cancelled:
            guard let known else {
                report("'\(event.name)' \(event.state.rawValue) without began (sequence \(event.sequence))")
                return
            }
            switch known.state {
            case .closed:
                report("'\(event.name)' \(event.state.rawValue) after the sequence \(event.sequence) closed")
            case .open:
                if event.state != .changed {
                    sequences[event.sequence] = (event.name, .closed)
                    openByName[event.name] = nil
                }
            }
        case .possible, .failed:
            report("'\(event.name)' emitted \(event.state.rawValue), which is never an action")
        }
    }

    private mutating func checkFinite(_ event: GestureEvent) {
        var numbers: [(String, Double)] = [
            ("location.x", event.location.x), ("location.y", event.location.y),
            ("locationFraction.x", event.locationFraction.x), ("locationFraction.y", event.locationFraction.y),
        ]
        if let v = event.scale { numbers.append(("scale", v)) }
        if let v = event.rotation { numbers.append(("rotation", v)) }
        if let v = event.translation { numbers += [("translation.x", v.x), ("translation.y", v.y)] }
        if let v = event.velocity { numbers += [("velocity.x", v.x), ("velocity.y", v.y)] }
        if let v = event.scalarVelocity { numbers.append(("scalarVelocity", v)) }
        if let v = event.translationDelta { numbers += [("translationDelta.x", v.x), ("translationDelta.y", v.y)] }
        if let v = event.translationFraction { numbers += [("translationFraction.x", v.x), ("translationFraction.y", v.y)] }
        if let v = event.scaleDelta { numbers.append(("scaleDelta", v)) }
        if let v = event.rotationDelta { numbers.append(("rotationDelta", v)) }
        if let f = event.fling {
            numbers += [
                ("fling.restLocation.x", f.restLocation.x), ("fling.restLocation.y", f.restLocation.y),
                ("fling.duration", f.duration),
            ]
        }
        for (key, value) in event.values.sorted(by: { $0.key < $1.key }) { numbers.append((key, value)) }
        for (key, value) in numbers where !value.isFinite {
            report("'\(event.name)' \(key) is \(value)")
        }
    }

    private mutating func check(_ event: SinkTouchEvent) {
        if !event.position.x.isFinite || !event.position.y.isFinite {
            report("touch \(event.touch) position is not finite")
        }
        let known = touches[event.touch]
        if let known, event.timestamp < known.last {
            report("touch \(event.touch) timestamp went backwards")
        }
        switch event.phase {
        case .began:
            if known != nil { report("touch \(event.touch) began twice") }
            touches[event.touch] = (false, event.timestamp)
        case .moved, .stationary, .ended, .cancelled:
            guard let known else {
                report("touch \(event.touch) \(event.phase.rawValue) before began")
                return
            }
            if known.closed {
                report("touch \(event.touch) \(event.phase.rawValue) after it ended")
                return
            }
            let closes = event.phase == .ended || event.phase == .cancelled
            touches[event.touch] = (closes, event.timestamp)
        }
    }
}
