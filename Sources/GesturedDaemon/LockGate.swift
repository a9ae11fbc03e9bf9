import GesturedProtocol

/// Who receives each gesture event while a seat's session is locked (DESIGN.md "Sessions, logind and input injection" › "The lock screen").
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
    private var withheld: Set<CoalesceKey> = []
    /// `[Gesture]` names marked `WhenLocked=yes`.
    var gesturesWhenLocked: Set<String> = []

    /// How many gestures are root-only now (tests, leaks).
    var withheldCount: Int { withheld.count }

    /// Who receives one gesture event.
    enum Decision: Equatable {
        case everyone
        case rootOnly
        /// Root gets the event; the others get it as `cancelled`, their last of the gesture.
        case cancelledForOthers
    }

    /// Decides who receives a gesture event of attempt `attempt` (the device and the engine's
    /// sequence: one `gesture_id`) in state `state`, while its seat is `locked` or not. Asked
    /// before the event is encoded, so each line is written once for its audience; the
    /// unlocked path with nothing withheld touches no set.
    mutating func decide(name: String, state: WireGestureState, attempt: CoalesceKey, locked: Bool) -> Decision {
        if !gesturesWhenLocked.isEmpty, gesturesWhenLocked.contains(name) { return .everyone }
        let final = state == .ended || state == .cancelled || state == .recognized
        let first = state == .began || state == .recognized
        if !withheld.isEmpty, withheld.contains(attempt) {
            if final { withheld.remove(attempt) }
            return .rootOnly
        }
        guard locked else { return .everyone }
        if first {
            if !final { withheld.insert(attempt) }
            return .rootOnly
        }
        // Began unlocked, now locked: the others see it cancelled here; root sees it go on.
        // A `cancelled` already is the others' last event.
        if state == .cancelled { return .everyone }
        if !final { withheld.insert(attempt) }
        return .cancelledForOthers
    }
}
