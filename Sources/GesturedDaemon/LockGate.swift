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

    /// Routes the gesture events of one batch; other events pass unchanged.
    /// - Parameter locked: whether the seat of the batch's device is locked now (asked once
    ///   per batch, only when it holds a gesture).
    mutating func route(_ events: [PublishedEvent], locked: () -> Bool) -> [PublishedEvent] {
        guard events.contains(where: { if case .gesture = $0 { true } else { false } }) else { return events }
        let isLocked = locked()
        var routed: [PublishedEvent] = []
        routed.reserveCapacity(events.count)
        for event in events {
            guard case .gesture(var message) = event else {
                routed.append(event)
                continue
            }
            message.locked = isLocked
            route(message, into: &routed)
        }
        return routed
    }

    private mutating func route(_ message: GestureEventMessage, into routed: inout [PublishedEvent]) {
        if gesturesWhenLocked.contains(message.name) {
            routed.append(.gesture(message))
            return
        }
        let locked = message.locked ?? false
        let final = message.state == .ended || message.state == .cancelled || message.state == .recognized
        let first = message.state == .began || message.state == .recognized
        if !withheld.isEmpty, withheld.contains(message.gestureID) {
            if final { withheld.remove(message.gestureID) }
            routed.append(.restrictedGesture(message, .root))
            return
        }
        guard locked else {
            routed.append(.gesture(message))
            return
        }
        if first {
            if !final { withheld.insert(message.gestureID) }
            routed.append(.restrictedGesture(message, .root))
            return
        }
        // Began unlocked, now locked: the others see it cancelled here; root sees it go on.
        if message.state == .cancelled {
            routed.append(.gesture(message))
            return
        }
        var cancelled = message
        cancelled.state = .cancelled
        if !final { withheld.insert(message.gestureID) }
        routed.append(.restrictedGesture(message, .root))
        routed.append(.restrictedGesture(cancelled, .others))
    }
}
