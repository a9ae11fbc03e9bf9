/// The per-touch step of the ``TouchFilter``: each assembled touch goes through the stages
/// that own its contact's role, in the order libinput's `tp_palm_detect` asks its predicates.
extension TouchFilter {

    /// Appends to `out` what to deliver for one assembled touch (none, one, or a held-back
    /// tap's two).
    mutating func step(_ touch: Touch, at now: Timestamp, into out: inout [Touch]) {
        switch touch.phase {
        case .began: began(touch, at: now, into: &out)
        case .moved, .stationary: moved(touch, at: now, into: &out)
        case .ended, .cancelled: ended(touch, at: now, into: &out)
        }
    }

    private mutating func began(_ touch: Touch, at now: Timestamp, into out: inout [Touch]) {
        if lifts.resume(touch, at: now, table: &table, fakes: fakes.count, jitter: jitter, into: &out) { return }
        var contact = FilterContact(
            role: .finger, start: touch.position, startTime: now,
            hysteresis: PositionHysteresis(radius: settings.hysteresis, position: touch.position))
        jitter.start(&contact, at: touch.position)
        if let reason = palms.landingReason(touch, at: now) {
            contact.makePalm(reason)
        } else if thumbs.holdsBack(touch, at: now, table: table) {
            contact.role = .thumbCandidate
        } else if edges.holdsBack(touch) {
            contact.role = .edgeCandidate
        } else if landing.holdsUnknownPressure(touch, palms: palms) {
            contact.role = .pressureCandidate
        }
        // Palms land alone: a contact joining a finger already down is not held back.
        landing.begin(&contact, at: now, table: table)
        contact.maximumPressure = touch.pressure
        if facts.sizesTrusted { contact.maximumMajor = touch.touchMajorMillimeters }
        contact.accompanied = !fakes.isEmpty || !lifts.isEmpty || table.hasFinger
        contact.lastPressure = touch.pressure
        tapGuard.began(touch, &contact, at: now)
        table[touch.id] = contact
        if contact.role == .finger {
            out.append(touch)
        } else {
            noteUndelivered(touch.id, .began, at: now, role: contact.role, palm: contact.palmReason)
        }
    }

    /// What ``movedInPlace(_:_:at:alone:fingers:facts:tapGuard:jitter:palms:landing:into:)``
    /// left to do.
    private enum MovedOutcome {
        /// Delivered, withdrawn or held: nothing more.
        case done
        /// Not delivered: a palm now, for this reason (a decision to note).
        case undelivered(PalmReason?)
        /// A candidate: its stage decides, with the table beside it.
        case candidate
    }

    private mutating func moved(_ touch: Touch, at now: Timestamp, into out: inout [Touch]) {
        // The record is changed where the table keeps it (no copy out and back of a few
        // hundred bytes per touch and frame): the step below reads only the stages, which
        // are other stored properties than the table. The table's own questions are asked
        // first, before the record changes, as they always were.
        guard let index = table.contacts.index(forKey: touch.id) else { return }
        let down = table.fingers(besides: touch.id)
        let alone = !down.others && fakes.isEmpty
        let fingers = down.count + fakes.count
        let outcome = Self.movedInPlace(
            touch, &table.contacts.values[index], at: now, alone: alone, fingers: fingers, facts: facts, tapGuard: tapGuard,
            jitter: jitter, palms: palms, landing: landing, into: &out)
        switch outcome {
        case .done:
            return
        case .undelivered(let reason):
            noteUndelivered(touch.id, touch.phase, at: now, role: .palm, palm: reason)
        case .candidate:
            // Rare (the first frames of a contact held back in a band): the stages read the
            // table, so the record is copied out and written back.
            var contact = table.contacts.values[index]
            defer { table.contacts.values[index] = contact }
            let released: Touch?
            switch contact.role {
            case .edgeCandidate:
                released = edges.moved(touch, &contact, at: now, table: table, palms: palms, jitter: jitter)
            case .pressureCandidate:
                released = landing.moved(touch, &contact, at: now, palms: palms, jitter: jitter)
            case .thumbCandidate:
                released = thumbs.moved(touch, &contact, at: now, table: table, palms: palms, jitter: jitter)
            case .finger, .palm, .clicking, .thumb:
                released = nil
            }
            if let released {
                out.append(released)
            } else if contact.role == .palm {
                noteUndelivered(touch.id, touch.phase, at: now, role: .palm, palm: contact.palmReason)
            }
        }
    }

    /// The step of a contact that moved or rested, on its record in place: what every role
    /// notes (pressure, size, travel, jumps, wobble), then a finger's delivery. Inlined into
    /// its one caller: called, it took copies of the stages it reads (a few hundred bytes a
    /// moved contact) as its arguments.
    /// - Parameters:
    ///   - alone: no other finger (nor a fake one) is down.
    ///   - fingers: the fingers down, fakes included (read for a finger only; the table's
    ///     count, this contact among them while it is one).
    @inline(__always)
    private static func movedInPlace(
        _ touch: Touch, _ contact: inout FilterContact, at now: Timestamp, alone: Bool, fingers: Int, facts: FilterDeviceFacts,
        tapGuard: TapGuardStage, jitter: JitterStage, palms: PalmStage, landing: LandingHoldStage, into out: inout [Touch]
    ) -> MovedOutcome {
        if let pressure = touch.pressure {
            contact.maximumPressure = max(contact.maximumPressure ?? pressure, pressure)
            contact.lastPressure = pressure
        }
        if facts.sizesTrusted, let major = touch.touchMajorMillimeters {
            contact.maximumMajor = max(contact.maximumMajor ?? major, major)
        }
        let step = PhysicalPoint(x: touch.position.x - touch.previousPosition.x, y: touch.position.y - touch.previousPosition.y)
        contact.travel += (step.x * step.x + step.y * step.y).squareRoot()
        contact.reports += 1
        if tapGuard.frameSaysTouching { contact.touched = true }
        // A semi-MT pad's box leaps when the finger count changes: that step is no motion.
        let unjumpedBefore = jitter.countChanged ? contact.jump.position(for: touch.previousPosition) : nil
        _ = contact.jump.update(touch.position)
        if let unjumpedBefore { jitter.dropCountChangeStep(touch, from: unjumpedBefore, &contact) }
        if !alone { contact.accompanied = true }
        if alone && palms.jumpsBack(step, &contact) && contact.role != .palm && contact.role != .clicking
            && contact.role != .thumb
        {
            let wasDelivered = contact.role == .finger
            contact.makePalm(.wobble)
            if wasDelivered {
                out.append(touch.withdrawn(at: contact.delivered, reason: .wobble))
                return .done
            }
            return .undelivered(.wobble)
        }
        switch contact.role {
        case .palm, .clicking, .thumb:
            return .done
        case .finger:
            if let reason = palms.palmReason(touch) {
                contact.makePalm(reason)
                out.append(touch.withdrawn(at: contact.delivered, reason: reason))
                return .done
            }
            if let held = landing.held(touch, &contact, at: now, fingers: fingers) {
                out.append(held)
                return .done
            }
            out.append(jitter.deliver(touch, &contact))
            return .done
        case .edgeCandidate, .pressureCandidate, .thumbCandidate:
            return .candidate
        }
    }

    private mutating func ended(_ touch: Touch, at now: Timestamp, into out: inout [Touch]) {
        guard var contact = table.contacts.removeValue(forKey: touch.id) else { return }
        if let pressure = touch.pressure { contact.maximumPressure = max(contact.maximumPressure ?? pressure, pressure) }
        if palms.isTooLightToTap(contact) { contact.denyTap(.tooLight) }
        tapGuard.ended(&contact, phase: touch.phase, at: now)
        if edges.isHandLanding(contact, table: table) { contact.denyTap(.handLanding) }
        tapGuard.endedAlone(&contact, at: now)
        switch contact.role {
        case .palm:
            palms.remember(touch.position, at: now)
        case .clicking, .thumb:
            return
        case .finger:
            var last = touch
            guard touch.phase == .ended else {
                last.position = contact.delivered
                last.previousPosition = contact.delivered
                out.append(last)
                return
            }
            if jitter.countChanged {
                jitter.dropCountChangeStep(touch, from: contact.jump.position(for: touch.previousPosition), &contact)
            }
            last = jitter.deliver(touch, &contact)
            // A finger that pressed the button clicked, and a click must not also be a tap; a
            // short touch beside or right after a scroll (and the other TapGuardStage cases)
            // is not a tap either. It ends as it did, `ended`, marked: the tap recognizer fails
            // on it, and a gesture it was part of ends rather than being cancelled.
            if clicks.clicked(contact) {
                last.flags.noTap = .click
            } else if let reason = contact.noTap, now - contact.startTime <= settings.scrollTapMaximumDuration {
                last.flags.noTap = reason
            }
            if facts.isTouchpad && settings.liftDelay > 0 {
                lifts.hold(
                    touch.id, [last], position: last.position, startPosition: last.startPosition,
                    startTime: last.startTime, contact: contact, at: now,
                    deadline: now.adding(seconds: lifts.wait(for: contact, at: now)))
                return
            }
            out.append(last)
        case .edgeCandidate, .thumbCandidate, .pressureCandidate:
            if edges.liftedAsPalm(contact, at: now) { palms.remember(touch.position, at: now) }
            // A quick, still touch in a band is a tap there, not a palm or a thumb — unless it
            // clicked, is no tap, or a palm is on the pad (the same hand's edge brushing it).
            var tap: [Touch] = []
            if touch.phase == .ended, settings.enables(.heldTap), !clicks.clicked(contact), contact.noTap == nil,
                !table.contacts.values.contains(where: { $0.role == .palm }),
                now - contact.startTime <= settings.heldTapDuration,
                distance(touch.position, contact.start) <= settings.heldTapMovement
            {
                var began = touch
                began.phase = .began
                began.startPosition = contact.start
                began.position = contact.start
                began.previousPosition = contact.start
                began.startTime = contact.startTime
                var ended = began
                ended.phase = .ended
                tap = [began, ended]
            }
            // Its lift is held back like a finger's: a sensor that loses one of two close
            // fingers for a frame must not turn each return into a tap.
            if facts.isTouchpad && settings.liftDelay > 0 && touch.phase == .ended {
                lifts.hold(touch.id, tap, position: touch.position, contact: contact, at: now, deadline: now.adding(seconds: settings.liftDelay))
                return
            }
            out.append(contentsOf: tap)
        }
    }
}
