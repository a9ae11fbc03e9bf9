import GesturedProtocol

/// Who receives each gesture event while a seat's session is locked (DESIGN.md, "Sessions").
///
/// Every event gets `locked`. While locked, events go to root clients only, except those of
/// gestures marked `WhenLocked=yes`, which go to everyone. The decision is kept per gesture
/// (one `gesture_id`), so that a client sees whole gestures:
/// - a gesture that began while locked stays root-only to its end, even if the seat unlocks
///   in the meantime (a client never gets a `changed` or `ended` without its `began`);
/// - a gesture that began unlocked and is still going when the seat locks ends for the other
///   clients with a `cancelled` (built from the first locked event), so a shell snaps back and
///   no action runs on its `ended`; root clients get it as it goes on.
struct LockGate {
    /// Gestures that are root-only until they end (began locked, or were cut by a lock).
    private var withheld: Set<String> = []
    /// `[Gesture]` names marked `WhenLocked=yes`.
    var gesturesWhenLocked: Set<String> = []

    /// How many gestures are root-only now (tests, leaks).
    var withheldCount: Int { withheld.count }

    /// Routes the gesture events of one batch in place (other events pass unchanged): sets
    /// each one's `locked` and restricts or splits those a locked seat keeps from the other
    /// clients. The unlocked path rewrites elements where they are, allocating nothing.
    /// - Parameter locked: whether the seat of the batch's device is locked now (asked once
    ///   per batch, only when it holds a gesture).
    mutating func route(_ events: inout [PublishedEvent], locked: () -> Bool) {
        guard var index = events.firstIndex(where: { if case .gesture = $0 { true } else { false } }) else { return }
        let isLocked = locked()
        while index < events.count {
            guard case .gesture(var message) = events[index] else {
                index += 1
                continue
            }
            message.locked = isLocked
            switch decide(message) {
            case .everyone:
                events[index] = .gesture(message)
                index += 1
            case .rootOnly:
                events[index] = .restrictedGesture(message, .root)
                index += 1
            case .cancelledForOthers:
                var cancelled = message
                cancelled.state = .cancelled
                events[index] = .restrictedGesture(message, .root)
                events.insert(.restrictedGesture(cancelled, .others), at: index + 1)
                index += 2
            }
        }
    }

    private enum Decision {
        case everyone
        case rootOnly
        /// Root gets the event; the others get it as `cancelled`, their last of the gesture.
        case cancelledForOthers
    }

    private mutating func decide(_ message: GestureEventMessage) -> Decision {
        if !gesturesWhenLocked.isEmpty, gesturesWhenLocked.contains(message.name) { return .everyone }
        let locked = message.locked ?? false
        let final = message.state == .ended || message.state == .cancelled || message.state == .recognized
        let first = message.state == .began || message.state == .recognized
        if !withheld.isEmpty, withheld.contains(message.gestureID) {
            if final { withheld.remove(message.gestureID) }
            return .rootOnly
        }
        guard locked else { return .everyone }
        if first {
            if !final { withheld.insert(message.gestureID) }
            return .rootOnly
        }
        // Began unlocked, now locked: the others see it cancelled here; root sees it go on.
        // A `cancelled` already is the others' last event.
        if message.state == .cancelled { return .everyone }
        if !final { withheld.insert(message.gestureID) }
        return .cancelledForOthers
    }
}
