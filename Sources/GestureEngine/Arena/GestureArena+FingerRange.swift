// A continuous gesture whose finger count leaves its range is cancelled (DESIGN.md "What a
// shell needs to follow a gesture"): the deviation from spec §4.3/§4.6 that lets a shell
// snap back when a finger lifts from a three-finger pan or a pinch.

extension GestureEngine {
    /// True when `fingers` held fingers are outside slot `i`'s range while some are down.
    func isOutsideFingerRange(_ i: Int, fingers: Int) -> Bool {
        fingers > 0 && (fingers < slots[i].minimumFingers || fingers > slots[i].maximumFingers)
    }

    /// Notes when each gesture in progress left its finger range and cancels those that stayed
    /// outside it for ``EngineConfiguration/fingerChangeTimeout``. Runs after every delivery
    /// and at its own deadline (``fingerRangeDeadline``), so the cancel carries that time.
    mutating func checkFingerRange() {
        let timeout = configuration.fingerChangeTimeout
        guard timeout.isFinite, timeout >= 0 else { return }
        for i in slots.indices where !slots[i].isDiscrete {
            let fingers = slots[i].held.count
            guard slots[i].state.isActive, isOutsideFingerRange(i, fingers: fingers) else {
                if slots[i].fingersOutOfRangeSince != nil { slots[i].fingersOutOfRangeSince = nil }
                continue
            }
            let since = slots[i].fingersOutOfRangeSince ?? now
            guard now >= since.adding(seconds: timeout) else {
                slots[i].fingersOutOfRangeSince = since
                continue
            }
            slots[i].fingersOutOfRangeSince = nil
            let range =
                slots[i].maximumFingers == Int.max
                ? "at least \(slots[i].minimumFingers)"
                : "\(slots[i].minimumFingers)…\(slots[i].maximumFingers)"
            cancel(i, input: "\(fingers) fingers for \(timeout) s, the gesture takes \(range)")
        }
    }

    /// When the earliest gesture outside its finger range is cancelled, if it stays outside.
    var fingerRangeDeadline: Timestamp? {
        let timeout = configuration.fingerChangeTimeout
        guard timeout.isFinite, timeout >= 0 else { return nil }
        var earliest: Timestamp?
        for i in slots.indices {
            guard let since = slots[i].fingersOutOfRangeSince else { continue }
            let end = since.adding(seconds: timeout)
            if earliest.map({ end < $0 }) ?? true { earliest = end }
        }
        return earliest
    }
}
