// A continuous gesture whose finger count leaves its range is cancelled (DESIGN.md "Engine and arbitration" ›
// "Finger changes during a gesture"): the deviation from spec §4.3/§4.6 that lets a shell
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
        // Only a landing or a lift changes what a slot holds: a steady frame, with no slot
        // outside its range, has nothing to look at.
        guard watchesFingerRange || !frameBegan.isEmpty || !frameEnded.isEmpty || !frameCancelled.isEmpty else { return }
        // A loop over stored fields: `slots.contains { … }` copied every slot it looked at.
        defer {
            var watches = false
            for i in slots.indices where slots[i].fingersOutOfRangeSince != nil {
                watches = true
                break
            }
            watchesFingerRange = watches
        }
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
            if recordsTransitions {
                let range =
                    slots[i].maximumFingers == Int.max
                    ? "at least \(slots[i].minimumFingers)"
                    : "\(slots[i].minimumFingers)…\(slots[i].maximumFingers)"
                cancel(i, input: "\(fingers) fingers for \(timeout) s, the gesture takes \(range)")
            } else {
                cancel(i, input: "")
            }
            slots[i].restartsWithTouchesDown = true
        }
    }

    /// A gesture cancelled for its finger count starts over with the fingers down, as
    /// libinput starts the gesture of the new finger count: the slot resets at once (not when
    /// the sequence ends, spec §8.11), takes landings as usual, and, at the first step whose
    /// touches down are within its finger range, the touches down it does not hold yet. Runs
    /// in ``process(_:)`` after ``ingest(_:)``, before the step's landings are assigned.
    ///
    /// A fresh attempt that fails in a step where a finger landed (past its maximum, as a
    /// two-finger scroll does on a third finger) resets and waits again: the finger count is
    /// still settling. Without touches down the sequence is over and so is the waiting.
    mutating func reofferTouchesAfterFingerChange() {
        guard reoffersTouches else { return }
        defer {
            var reoffers = false
            for i in slots.indices where slots[i].reoffersTouches {
                reoffers = true
                break
            }
            reoffersTouches = reoffers
        }
        for i in slots.indices where slots[i].reoffersTouches {
            guard slots[i].isEnabled, slots[i].state == .possible, slots[i].pending == .none else { continue }
            var touches: [Touch] = []
            var down = 0
            for touch in active where canOffer(touch, to: i) {
                let id = touch.id
                if frameEnded.contains(where: { $0.id == id }) || frameCancelled.contains(where: { $0.id == id }) {
                    continue
                }
                down += 1
                if frameBegan.contains(where: { $0.id == id }) || slots[i].holds(id) { continue }
                touches.append(touch)
            }
            if down == 0 {
                slots[i].reoffersTouches = false
                slots[i].restartsOnLandingFailure = false
                continue
            }
            guard down >= slots[i].minimumFingers, down <= slots[i].maximumFingers else { continue }
            slots[i].reoffersTouches = false
            slots[i].restartsOnLandingFailure = true
            guard !touches.isEmpty else { continue }
            for touch in touches {
                slots[i].held.append(touch.id)
                slots[i].history.append(touch.id)
            }
            invoke(i, .began(touches), input: "touches down when it started over")
        }
    }

    /// Marks the fresh attempts of ``reofferTouchesAfterFingerChange()`` that failed on a
    /// landing to start over again (called before finished recognizers reset).
    mutating func rearmRestartsFailedOnLanding() {
        guard !frameBegan.isEmpty else { return }
        for i in slots.indices where slots[i].restartsOnLandingFailure && slots[i].state == .failed {
            slots[i].restartsWithTouchesDown = true
        }
    }

    /// When the earliest gesture outside its finger range is cancelled, if it stays outside.
    var fingerRangeDeadline: Timestamp? {
        let timeout = configuration.fingerChangeTimeout
        guard watchesFingerRange, timeout.isFinite, timeout >= 0 else { return nil }
        var earliest: Timestamp?
        for i in slots.indices {
            guard let since = slots[i].fingersOutOfRangeSince else { continue }
            let end = since.adding(seconds: timeout)
            if earliest.map({ end < $0 }) ?? true { earliest = end }
        }
        return earliest
    }
}
