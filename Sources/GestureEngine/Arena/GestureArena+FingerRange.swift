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
            slots[i].restartsWithTouchesDown = true
        }
    }

    /// A gesture cancelled for its finger count starts over with the fingers down, as
    /// libinput starts the gesture of the new finger count: the slot resets at once (not when
    /// the sequence ends, spec §8.11) and is offered every touch still down at the start of the
    /// next step, before that step's landings. Runs in ``process(_:)`` after ``ingest(_:)``.
    mutating func reofferTouchesAfterFingerChange() {
        for i in slots.indices where slots[i].reoffersTouches {
            slots[i].reoffersTouches = false
            guard slots[i].isEnabled, slots[i].state == .possible, slots[i].held.isEmpty else { continue }
            var touches: [Touch] = []
            for touch in active where canOffer(touch, to: i) {
                let id = touch.id
                if frameBegan.contains(where: { $0.id == id }) || frameEnded.contains(where: { $0.id == id })
                    || frameCancelled.contains(where: { $0.id == id })
                {
                    continue
                }
                touches.append(touch)
            }
            guard !touches.isEmpty else { continue }
            for touch in touches {
                slots[i].held.append(touch.id)
                slots[i].history.append(touch.id)
            }
            invoke(i, .began(touches), input: "touches down when it started over")
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
