/// One decision of the ``TouchFilter`` about a contact, for `gestured --replay --touches`
/// and `--verbose`: a user's bug report then explains itself.
public struct TouchFilterDecision: Hashable, Sendable, CustomStringConvertible {
    public var timestamp: Timestamp
    public var touch: TouchID
    /// The phase the touch was delivered with.
    public var phase: TouchPhase
    public var flags: TouchFlags
    /// Why the contact is held back, not delivered (yet), when it is.
    public var held: HeldReason?

    /// Why a contact is not delivered yet (it may still become a finger).
    public enum HeldReason: String, Hashable, Sendable {
        case edgeBand
        case thumbBand
        case unknownPressure
    }

    /// `touch #12 cancelled palm(.pressure)`, `touch #3 began held(.edgeBand)`, `touch #3
    /// moved palm(.edge) not delivered`.
    public var description: String {
        var text = "touch \(touch) \(phase.rawValue)"
        if !flags.isEmpty { text += " \(flags)" }
        if let held { text += " held(.\(held.rawValue))" }
        if held == nil && !delivered { text += " not delivered" }
        return text
    }

    /// The touch went to the engine with this phase (false: a decision about a contact the
    /// engine never saw).
    public var delivered = true
}

extension TouchFilter {
    /// The most decisions kept between two ``drainDecisions()`` calls.
    static let decisionLimit = 4096

    /// Notes every delivered touch that carries a flag.
    mutating func note(_ touches: [Touch], at time: Timestamp) {
        for touch in touches where !touch.flags.isEmpty && decisions.count < Self.decisionLimit {
            decisions.append(TouchFilterDecision(timestamp: time, touch: touch.id, phase: touch.phase, flags: touch.flags))
        }
    }

    /// Notes a decision about a contact that is not delivered: held back, or a palm before it
    /// ever was a finger.
    mutating func noteUndelivered(_ id: TouchID, _ phase: TouchPhase, at time: Timestamp, role: ContactRole, palm: PalmReason?) {
        guard recordsDecisions, decisions.count < Self.decisionLimit else { return }
        let held: TouchFilterDecision.HeldReason? =
            switch role {
            case .edgeCandidate: .edgeBand
            case .thumbCandidate: .thumbBand
            case .pressureCandidate: .unknownPressure
            case .finger, .palm, .clicking, .thumb: nil
            }
        guard held != nil || palm != nil else { return }
        var decision = TouchFilterDecision(timestamp: time, touch: id, phase: phase, flags: TouchFlags(palm: palm), held: held)
        decision.delivered = false
        decisions.append(decision)
    }

    /// Whether ``drainDecisions()`` has any.
    public var hasDecisions: Bool { !decisions.isEmpty }

    /// The decisions since the last call (``recordsDecisions`` must be on).
    public mutating func drainDecisions() -> [TouchFilterDecision] {
        guard !decisions.isEmpty else { return [] }
        defer { decisions.removeAll() }
        return decisions
    }
}
