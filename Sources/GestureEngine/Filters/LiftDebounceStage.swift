/// Finger-count smoothing (touchpads; libinput debounces finger-count changes alike): a
/// finger's lift is held back for ``TouchFilterSettings/liftDelay``; a contact beginning
/// within ``TouchFilterSettings/reappearDistance`` meanwhile continues it, so a finger the
/// sensor drops for a frame neither ends nor taps. A contact that keeps disappearing and
/// reappearing (``TouchFilterSettings/flickerLimit``) is a palm, ``PalmReason/flicker``.
/// Where a quirk sets ``TouchFilterSettings/palmReturnWait``, a short pressing touch waits
/// longer for a palm's return (``NoTapReason/palmReturned``).
///
/// First in the touchpad chain: a landing that continues a lift is no new contact for the
/// stages after it. The held lifts are kept in the table (``ContactTable/lifted``): the
/// stage decides when a contact's end is held (``ContactStep/holdUntil``), the filter files
/// it there once the last stage made it.
struct LiftDebounceStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let facts: FilterDeviceFacts

    init(settings: TouchFilterSettings, facts: FilterDeviceFacts) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.facts = facts
    }

    /// The lifts due before the frame, and those waiting for a palm's return when the frame
    /// brings a new contact.
    func begin(_ frame: inout FilterFrame) {
        guard !frame.table.lifted.isEmpty else { return }
        var ids = Self.due(frame.table, upTo: frame.now, before: true)
        returns(frame.input, into: &ids, table: &frame.table)
        Self.deliver(ids, upTo: frame.now, &frame)
    }

    func fire(_ frame: inout FilterFrame) {
        guard !frame.table.lifted.isEmpty else { return }
        Self.deliver(Self.due(frame.table, upTo: frame.now, before: false), upTo: frame.now, &frame)
    }

    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        switch step.touch.phase {
        case .began:
            guard step.state == .judging else { return }
            resume(&step, at: frame.now, in: &frame)
        case .ended:
            guard step.state == .judging, settings.liftDelay > 0 else { return }
            if step.contact.role == .finger {
                step.holdUntil = frame.now.adding(seconds: wait(for: step.contact, at: frame.now))
            } else if step.contact.role.isCandidate {
                step.holdUntil = frame.now.adding(seconds: settings.liftDelay)
            }
        case .moved, .stationary, .cancelled:
            return
        }
    }

    /// When the earliest held-back lift is due.
    func nextDeadline(_ table: ContactTable) -> Timestamp? {
        // Read after every frame, and most hold no lift.
        guard !table.lifted.isEmpty else { return nil }
        var earliest: Timestamp?
        for lift in table.lifted.values where earliest.map({ lift.deadline < $0 }) ?? true { earliest = lift.deadline }
        return earliest
    }

    /// The ids of the lifts due at or before `time` (strictly before, with `before`).
    private static func due(_ table: ContactTable, upTo time: Timestamp, before: Bool) -> [TouchID] {
        var ids: [TouchID] = []
        for (id, lift) in table.lifted where before ? lift.deadline < time : lift.deadline <= time { ids.append(id) }
        return ids
    }

    /// The lifts to deliver before `frame` (besides those due): those waiting for a palm's
    /// return when the frame brings a new contact — a finger's second tap must find the first
    /// one ended. A contact landing already pressing near such a lift is the palm back: the
    /// lift is delivered marked ``NoTapReason/palmReturned``.
    private func returns(_ frame: Frame, into ids: inout [TouchID], table: inout ContactTable) {
        let now = frame.timestamp
        guard settings.enables(.palmReturn) else { return }
        let rules = PalmRules(settings: settings, facts: facts)
        for touch in frame.touches where touch.phase == .began {
            for (id, lift) in table.lifted where now - lift.time > settings.liftDelay && !ids.contains(id) {
                if rules.beginsPressing(touch) && distance(lift.position, touch.position) <= settings.reappearDistance {
                    table.lifted[id]?.touches = lift.touches.map { lift in
                        var marked = lift
                        if marked.phase == .ended { marked.flags.noTap = .palmReturned }
                        return marked
                    }
                    table.rememberPalm(lift.position, at: lift.time)
                } else if lift.deadline > lift.time.adding(seconds: settings.liftDelay) {
                    ids.append(id)
                }
            }
        }
    }

    /// Removes the given lifts and delivers their touches ahead of the frame, at the latest
    /// of their deadlines (at most `time`).
    private static func deliver(_ ids: [TouchID], upTo time: Timestamp, _ frame: inout FilterFrame) {
        guard !ids.isEmpty else { return }
        var latest = Timestamp.zero
        var touches: [Touch] = []
        for id in ids {
            guard let lift = frame.table.lifted.removeValue(forKey: id), !lift.touches.isEmpty else { continue }
            latest = max(latest, min(time, lift.deadline))
            touches += lift.touches
        }
        guard !touches.isEmpty else { return }
        frame.deliverAhead(touches, at: latest)
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
    /// such returns it is a palm and is cancelled. Nothing changes when nothing lifted nearby.
    private func resume(_ step: inout ContactStep, at now: Timestamp, in frame: inout FilterFrame) {
        guard settings.enables(.liftDebounce), !frame.table.lifted.isEmpty else { return }
        let touch = step.touch
        var best: (id: TouchID, distance: Double)?
        for (id, lift) in frame.table.lifted where now - lift.time <= settings.liftDelay {
            let d = distance(lift.position, touch.position)
            // Of two as close, the older lift (lower id), whatever the dictionary's order.
            if d <= settings.reappearDistance,
                d < (best?.distance ?? .infinity) || (d == best?.distance && id < (best?.id ?? id))
            {
                best = (id, d)
            }
        }
        guard let best, var lift = frame.table.lifted.removeValue(forKey: best.id) else { return }
        frame.table.aliases[touch.id] = best.id
        step.resumed = true
        step.touch.id = best.id
        step.touch.startPosition = lift.startPosition
        step.touch.startTime = lift.startTime
        // Only delivered fingers count flickers: a held-back contact is judged by its band
        // rules, and the second of two close fingers in a band flickers the same way.
        let wasDelivered = lift.contact.role == .finger
        if wasDelivered { lift.contact.flickers += 1 }
        if wasDelivered && lift.contact.flickers >= settings.flickerLimit && settings.enables(.flicker) {
            lift.contact.makePalm(.flicker)
            step.contact = lift.contact
            step.state = .done
            frame.out.append(step.touch.withdrawn(at: lift.contact.delivered, reason: .flicker))
            return
        }
        step.contact = lift.contact
        guard wasDelivered else {
            // A held-back contact back again: still held back, its start kept.
            step.state = .done
            return
        }
        step.touch.phase = .moved
        // Still within its palm confirmation and alone: the jump back counts no more than
        // a move would (a palm the sensor loses comes back a few millimetres away).
        if let until = step.contact.confirmUntil, now < until, !frame.table.hasFinger, frame.table.fakeFingers == 0 {
            step.touch.position = step.contact.delivered
            step.touch.previousPosition = step.contact.delivered
            step.touch.phase = .stationary
            step.state = .done
            frame.out.append(step.touch)
            return
        }
        step.state = .delivering
    }
}
