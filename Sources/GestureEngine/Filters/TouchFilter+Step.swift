/// One touch of a frame through the ``TouchFilter``'s chain: the contact's record is taken
/// from the table, what every contact notes is noted, each stage processes it in order, and
/// the record goes back (or, for an end, its last delivery goes out or is held back).
extension TouchFilter {

    /// Runs one assembled touch through the chain.
    mutating func step(_ assembled: Touch, _ frame: inout FilterFrame) {
        var touch = assembled
        if let delivered = frame.table.aliases[touch.id] {
            touch.id = delivered
            if touch.phase == .ended || touch.phase == .cancelled { frame.table.aliases[touch.id] = nil }
        }
        var step = prepared(touch, &frame)
        let delivered = frame.out.count
        stages.process(&step, in: &frame)
        commit(step, delivered: frame.out.count > delivered, &frame)
    }

    /// The step for a touch: a new contact's record, or the record of the contact it
    /// continues with what every contact notes (pressure, size, travel, the sensor jump
    /// filter's step).
    private func prepared(_ touch: Touch, _ frame: inout FilterFrame) -> ContactStep {
        switch touch.phase {
        case .began:
            var contact = FilterContact(
                role: .finger, start: touch.position, startTime: frame.now,
                hysteresis: PositionHysteresis(radius: settings.hysteresis, position: touch.position))
            contact.jump = SensorJumpFilter(minimumStep: settings.sensorJumpStep)
            _ = contact.jump.update(touch.position)
            contact.maximumPressure = touch.pressure
            if facts.sizesTrusted { contact.maximumMajor = touch.touchMajorMillimeters }
            contact.lastPressure = touch.pressure
            return ContactStep(touch: touch, contact: contact, state: .judging)
        case .moved, .stationary:
            guard var contact = frame.table[touch.id] else { return Self.absent(touch) }
            var step = ContactStep(touch: touch, contact: contact, state: .judging)
            // The table's questions are asked before the record changes.
            let down = frame.table.fingers(besides: touch.id)
            step.alone = !down.others && frame.table.fakeFingers == 0
            step.fingers = down.count + frame.table.fakeFingers
            if let pressure = touch.pressure {
                contact.maximumPressure = max(contact.maximumPressure ?? pressure, pressure)
                contact.lastPressure = pressure
            }
            if facts.sizesTrusted, let major = touch.touchMajorMillimeters {
                contact.maximumMajor = max(contact.maximumMajor ?? major, major)
            }
            let motion = PhysicalPoint(x: touch.position.x - touch.previousPosition.x, y: touch.position.y - touch.previousPosition.y)
            contact.travel += (motion.x * motion.x + motion.y * motion.y).squareRoot()
            contact.reports += 1
            if frame.countChanged { step.unjumpedPrevious = contact.jump.position(for: touch.previousPosition) }
            _ = contact.jump.update(touch.position)
            step.contact = contact
            return step
        case .ended, .cancelled:
            guard var contact = frame.table.contacts.removeValue(forKey: touch.id) else { return Self.absent(touch) }
            if let pressure = touch.pressure { contact.maximumPressure = max(contact.maximumPressure ?? pressure, pressure) }
            return ContactStep(touch: touch, contact: contact, state: .judging)
        }
    }

    private static func absent(_ touch: Touch) -> ContactStep {
        let contact = FilterContact(
            role: .palm, start: touch.position, startTime: .zero, hysteresis: PositionHysteresis(radius: 0, position: touch.position))
        return ContactStep(touch: touch, contact: contact, state: .absent)
    }

    /// Writes the step's record back and notes what was not delivered; an end's last
    /// delivery goes out, or is held back as a lift.
    private mutating func commit(_ step: ContactStep, delivered: Bool, _ frame: inout FilterFrame) {
        let touch = step.touch
        switch touch.phase {
        case .began:
            frame.table[touch.id] = step.contact
            if !step.resumed && step.contact.role != .finger {
                noteUndelivered(touch.id, .began, at: frame.now, role: step.contact.role, palm: step.contact.palmReason)
            }
        case .moved, .stationary:
            guard step.state != .absent else { return }
            frame.table[touch.id] = step.contact
            if !delivered && step.roleBefore != .palm && step.contact.role == .palm {
                noteUndelivered(touch.id, touch.phase, at: frame.now, role: .palm, palm: step.contact.palmReason)
            }
        case .ended, .cancelled:
            guard step.state == .lifting else { return }
            if let deadline = step.holdUntil {
                frame.table.lifted[touch.id] = HeldLift(
                    touches: step.lifting, position: step.liftPosition, startPosition: step.liftStart,
                    startTime: step.liftStartTime, time: frame.now, contact: step.contact, deadline: deadline)
            } else {
                frame.out.append(contentsOf: step.lifting)
            }
        }
    }
}
