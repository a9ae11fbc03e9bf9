/// Finger-count smoothing (touchpads; libinput debounces finger-count changes alike): a
/// finger's lift is held back for ``TouchFilterSettings/liftDelay``; a contact beginning
/// within ``TouchFilterSettings/reappearDistance`` meanwhile continues it, so a finger the
/// sensor drops for a frame neither ends nor taps. A contact that keeps disappearing and
/// reappearing (``TouchFilterSettings/flickerLimit``) is a palm, ``PalmReason/flicker``.
/// Where a quirk sets ``TouchFilterSettings/palmReturnWait``, a short pressing touch waits
/// longer for a palm's return (``NoTapReason/palmReturned``).
struct LiftDebounceStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let facts: FilterDeviceFacts

    /// A lifted finger whose end is held back.
    struct PendingLift: Sendable {
        /// What to deliver when the lift comes due: a finger's end; a held-back contact's
        /// tap (began and ended), or nothing.
        var touches: [Touch]
        /// Where it lifted, and the touch's start (kept by a contact that continues it).
        var position: PhysicalPoint
        var startPosition: PhysicalPoint
        var startTime: Timestamp
        var time: Timestamp
        var contact: FilterContact
        /// When it is delivered at the latest.
        var deadline: Timestamp
    }
    private(set) var pending: [TouchID: PendingLift] = [:]

    init(settings: TouchFilterSettings, facts: FilterDeviceFacts) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.facts = facts
    }

    mutating func reset() {
        pending = [:]
    }

    var isEmpty: Bool { pending.isEmpty }

    /// When the earliest held-back lift is due.
    var nextDeadline: Timestamp? {
        // Read after every frame, and most hold no lift.
        guard !pending.isEmpty else { return nil }
        var earliest: Timestamp?
        for lift in pending.values where earliest.map({ lift.deadline < $0 }) ?? true { earliest = lift.deadline }
        return earliest
    }

    /// Holds back a lift until `deadline`.
    mutating func hold(
        _ id: TouchID, _ touches: [Touch], position: PhysicalPoint, startPosition: PhysicalPoint? = nil,
        startTime: Timestamp? = nil, contact: FilterContact, at now: Timestamp, deadline: Timestamp
    ) {
        pending[id] = PendingLift(
            touches: touches, position: position, startPosition: startPosition ?? contact.start,
            startTime: startTime ?? contact.startTime, time: now, contact: contact, deadline: deadline)
    }

    /// The ids of the lifts due at or before `time` (strictly before, with `before`).
    func due(upTo time: Timestamp, before: Bool) -> [TouchID] {
        guard !pending.isEmpty else { return [] }
        var ids: [TouchID] = []
        for (id, lift) in pending where before ? lift.deadline < time : lift.deadline <= time { ids.append(id) }
        return ids
    }

    /// The lifts to deliver before `frame` (besides those due): those waiting for a palm's
    /// return when the frame brings a new contact — a finger's second tap must find the first
    /// one ended. A contact landing already pressing near such a lift is the palm back: the
    /// lift is delivered marked ``NoTapReason/palmReturned``.
    mutating func returns(before frame: Frame, into ids: inout [TouchID], palms: inout PalmStage) {
        let now = frame.timestamp
        guard settings.enables(.palmReturn) else { return }
        for touch in frame.touches where touch.phase == .began {
            for (id, lift) in pending where now - lift.time > settings.liftDelay && !ids.contains(id) {
                if palms.beginsPressing(touch) && distance(lift.position, touch.position) <= settings.reappearDistance {
                    pending[id]?.touches = lift.touches.map { lift in
                        var marked = lift
                        if marked.phase == .ended { marked.flags.noTap = .palmReturned }
                        return marked
                    }
                    palms.remember(lift.position, at: lift.time)
                } else if lift.deadline > lift.time.adding(seconds: settings.liftDelay) {
                    ids.append(id)
                }
            }
        }
    }

    /// Removes the given lifts and delivers their touches as one frame at the latest of
    /// their deadlines (at most `time`).
    mutating func deliver(_ ids: [TouchID], upTo time: Timestamp, button: Bool) -> Frame? {
        guard !ids.isEmpty else { return nil }
        var latest = Timestamp.zero
        var touches: [Touch] = []
        for id in ids {
            guard let lift = pending.removeValue(forKey: id), !lift.touches.isEmpty else { continue }
            latest = max(latest, min(time, lift.deadline))
            touches += lift.touches
        }
        guard !touches.isEmpty else { return nil }
        return Frame(timestamp: latest, touches: touches.sorted { $0.id < $1.id }, isButtonPressed: button)
    }

    /// How long a lifted finger's end is held back: the lift delay, or
    /// ``TouchFilterSettings/palmReturnWait`` for a short touch that pressed as hard as a
    /// palm landing (``TouchFilterSettings/palmPressureAtBegin``): on the 2012 Cypress pads a
    /// palm touches briefly, saturated, lifts and comes back already pressing.
    func wait(for contact: FilterContact, at now: Timestamp) -> Double {
        guard settings.palmReturnWait > settings.liftDelay, let threshold = settings.palmPressureAtBegin,
            facts.pressureMaximum != nil, let pressure = contact.maximumPressure, Double(pressure) >= threshold,
            now - contact.startTime <= settings.scrollTapMaximumDuration
        else { return settings.liftDelay }
        // The tap must still fit the touchpad's tap duration when its lift comes out late.
        let room = settings.scrollTapMaximumDuration - (now - contact.startTime) - Self.tapDurationMargin
        return max(settings.liftDelay, min(settings.palmReturnWait, room))
    }

    /// Seconds a held tap's lift stays inside the tap duration limit (a frame or two).
    private static let tapDurationMargin = 0.02

    /// A contact beginning where a finger just lifted continues that finger (its lift was
    /// held back, so the engine never saw it go); after ``TouchFilterSettings/flickerLimit``
    /// such returns it is a palm and is cancelled. Appends what to deliver; false when nothing
    /// lifted nearby.
    mutating func resume(
        _ touch: Touch, at now: Timestamp, table: inout ContactTable, fakes: Int, jitter: JitterStage,
        into out: inout [Touch]
    ) -> Bool {
        guard settings.enables(.liftDebounce) else { return false }
        var best: (id: TouchID, distance: Double)?
        for (id, lift) in pending where now - lift.time <= settings.liftDelay {
            let d = distance(lift.position, touch.position)
            // Of two as close, the older lift (lower id), whatever the dictionary's order.
            if d <= settings.reappearDistance,
                d < (best?.distance ?? .infinity) || (d == best?.distance && id < (best?.id ?? id))
            {
                best = (id, d)
            }
        }
        guard let best, var lift = pending.removeValue(forKey: best.id) else { return false }
        table.aliases[touch.id] = best.id
        var continued = touch
        continued.id = best.id
        continued.startPosition = lift.startPosition
        continued.startTime = lift.startTime
        // Only delivered fingers count flickers: a held-back contact is judged by its band
        // rules, and the second of two close fingers in a band flickers the same way.
        let wasDelivered = lift.contact.role == .finger
        if wasDelivered { lift.contact.flickers += 1 }
        if wasDelivered && lift.contact.flickers >= settings.flickerLimit && settings.enables(.flicker) {
            lift.contact.makePalm(.flicker)
            table[best.id] = lift.contact
            out.append(continued.withdrawn(at: lift.contact.delivered, reason: .flicker))
            return true
        }
        guard wasDelivered else {
            // A held-back contact back again: still held back, its start kept.
            table[best.id] = lift.contact
            return true
        }
        continued.phase = .moved
        var contact = lift.contact
        // Still within its palm confirmation and alone: the jump back counts no more than
        // a move would (a palm the sensor loses comes back a few millimetres away).
        if let until = contact.confirmUntil, now < until, !table.hasFinger, fakes == 0 {
            continued.position = contact.delivered
            continued.previousPosition = contact.delivered
            continued.phase = .stationary
            table[best.id] = contact
            out.append(continued)
            return true
        }
        out.append(jitter.deliver(continued, &contact))
        table[best.id] = contact
        return true
    }
}
