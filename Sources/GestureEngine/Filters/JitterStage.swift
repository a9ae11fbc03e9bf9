/// Sensor jitter and jumps on delivered contacts: ``PositionHysteresis`` at rest, or a
/// ``BoxFilter`` where ``TouchFilterSettings/boxSize`` is set, after the
/// ``SensorJumpFilter`` (libgestures' `BoxFilterInterpreter` and
/// `SensorJumpFilterInterpreter`, which the ChromiumOS library chains the same way).
struct JitterStage: TouchFilterStage {
    let settings: TouchFilterSettings

    mutating func reset() {}

    /// A new contact's filters, centred where it landed.
    func start(_ contact: inout FilterContact, at position: PhysicalPoint) {
        contact.jump = SensorJumpFilter(minimumStep: settings.sensorJumpStep)
        _ = contact.jump.update(position)
    }

    /// A held-back contact becomes a finger: delivered as beginning here and now.
    func release(_ touch: Touch, _ contact: inout FilterContact, at now: Timestamp) -> Touch {
        contact.role = .finger
        // Delivered from here on; the sensor jump filter keeps judging steps against the ones
        // it saw while the contact was held back.
        contact.jump.rebase(touch.position, to: touch.position)
        contact.hysteresis = PositionHysteresis(radius: settings.hysteresis, position: touch.position)
        contact.box = nil
        contact.delivered = touch.position
        var began = touch
        began.phase = .began
        began.startPosition = touch.position
        began.previousPosition = touch.position
        began.startTime = now
        return began
    }

    /// A finger's touch with the filtered position.
    func deliver(_ touch: Touch, _ contact: inout FilterContact) -> Touch {
        var out = touch
        out.previousPosition = contact.delivered
        let unjumped = contact.jump.position(for: touch.position)
        if contact.box == nil && settings.boxSize > 0 { contact.box = BoxFilter(size: settings.boxSize, position: contact.delivered) }
        out.position =
            contact.box != nil
            ? contact.box!.update(unjumped) : settings.enables(.hysteresis) ? contact.hysteresis.update(unjumped) : unjumped
        if out.phase == .moved && out.position == out.previousPosition { out.phase = .stationary }
        if out.phase == .stationary && out.position != out.previousPosition { out.phase = .moved }
        contact.delivered = out.position
        return out
    }
}
