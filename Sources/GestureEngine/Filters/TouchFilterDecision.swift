/// One decision of the ``TouchFilter`` about a contact, for `gestured --replay --touches`
/// and `--verbose`: a user's bug report then explains itself.
public struct TouchFilterDecision: Hashable, Sendable, CustomStringConvertible {
    public var timestamp: Timestamp
    public var touch: TouchID
    /// The phase the touch was delivered with.
    public var phase: TouchPhase
    public var flags: TouchFlags

    /// `touch #12 cancelled palm(.pressure)`.
    public var description: String {
        "touch \(touch) \(phase.rawValue) \(flags)"
    }
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

    /// The decisions since the last call (``recordsDecisions`` must be on).
    public mutating func drainDecisions() -> [TouchFilterDecision] {
        guard !decisions.isEmpty else { return [] }
        defer { decisions.removeAll() }
        return decisions
    }
}
