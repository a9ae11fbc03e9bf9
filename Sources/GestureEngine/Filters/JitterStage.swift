/// Sensor jitter and jumps on delivered contacts: ``PositionHysteresis`` at rest, or a
/// ``BoxFilter`` where ``TouchFilterSettings/boxSize`` is set, after the
/// ``SensorJumpFilter`` (libgestures' `BoxFilterInterpreter` and
/// `SensorJumpFilterInterpreter`, which the ChromiumOS library chains the same way).
///
/// On a semi-MT pad (`INPUT_PROP_SEMI_MT`: its two slots carry the corners of the box around
/// the fingers, not the fingers) the step a contact makes in a frame where the finger count
/// changes is taken out as a jump: the box changes shape when a finger lands or lifts, and
/// its corners leap by millimetres while no finger moved. libinput does the same for every
/// semi-MT touchpad (it resets a touch's motion history when `nfingers_down` changes, and
/// its tap motion test ignores motion in such a frame).
struct JitterStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    /// The device is semi-MT (and the rule is on).
    let semiMT: Bool
    /// The finger count of the frame before (`BTN_TOOL_*`, else the contacts down).
    private var lastCount: Int?
    /// Whether the frame being filtered changed the finger count on a semi-MT pad.
    private(set) var countChanged = false

    init(settings: TouchFilterSettings, semiMT: Bool) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.semiMT = semiMT && settings.enables(.semiMTCountChange)
    }

    mutating func reset() {
        lastCount = nil
        countChanged = false
    }

    /// Notes the frame's finger count (before its touches are stepped).
    mutating func beginFrame(_ frame: Frame) {
        guard semiMT else { return }
        let count = frame.fingerCount ?? frame.touches.count(where: { $0.phase != .ended && $0.phase != .cancelled })
        countChanged = lastCount.map { $0 != count } ?? false
        lastCount = count
    }

    /// In a frame that changed the finger count on a semi-MT pad, takes the sensor step of
    /// a continuing contact (from `previous` to `touch.position`) out of what is delivered.
    func dropCountChangeStep(_ touch: Touch, from previous: PhysicalPoint, _ contact: inout FilterContact) {
        guard countChanged else { return }
        contact.jump.rebase(touch.position, to: previous)
    }

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
