/// Short touchpad contacts that are not taps, each with its ``NoTapReason`` (the ChromiumOS
/// library keeps its tap state machine idle while a scroll goes on; libinput ignores
/// hovering touches and the fingers of a click):
///
/// * ``NoTapReason/afterScroll``: began while two or more fingers moved, or less than
///   ``TouchFilterSettings/scrollTapWindow`` after they last did;
/// * ``NoTapReason/split``: landed within ``TouchFilterSettings/splitDistance`` of a contact
///   that lost ``TouchFilterSettings/splitPressureDrop`` of its pressure in the same frame;
/// * ``NoTapReason/hovering``: down only while `BTN_TOUCH` and every `BTN_TOOL_*` were up;
/// * ``NoTapReason/trackingLost``: ended while the pad still counted two fingers or more;
/// * ``NoTapReason/glitch``: seen in one frame only, alone, for less than
///   ``TouchFilterSettings/minimumLoneTapDuration`` (finger taps last 43 ms and more on the
///   labelled touchpads, or come in 3 frames or more);
/// * ``NoTapReason/tooLight``: never pressed harder than
///   ``TouchFilterSettings/tapMinimumPressure`` (a thumb or a finger hovering and brushing
///   the surface: the ChromiumOS library's "Tap Minimum Pressure");
/// * ``NoTapReason/handLanding``: landed together with a contact still held in an edge band.
///
/// The first reason found is kept: at the landing after a scroll, then split; at the lift too
/// light, hovering, tracking lost, hand landing, then glitch. Touchpad chain only.
struct TapGuardStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let facts: FilterDeviceFacts
    /// The frame being filtered says a finger touches (or does not say).
    private var frameSaysTouching = true
    /// Where a contact of the pad lost half its pressure as a new one landed in the frame
    /// being filtered: one contact the sensor split in two (a thumb's).
    private var splitFrom: PhysicalPoint?
    /// The finger count of the frame before; whether the frame being filtered counts two
    /// fingers or more and no fewer than that (nothing lifted).
    private var lastFingerCount: Int?
    private var fingerCountHeld = false
    /// The last frame in which two or more fingers were down and one of them moved, at least
    /// ``TouchFilterSettings/scrollTapTravel`` from where it began (a scroll, a swipe).
    private var lastMultiFingerMotion: Timestamp?

    init(settings: TouchFilterSettings, facts: FilterDeviceFacts) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.facts = facts
    }

    mutating func reset() {
        lastMultiFingerMotion = nil
        lastFingerCount = nil
    }

    /// Reads the frame's finger count and pressures before its touches are stepped.
    mutating func begin(_ frame: inout FilterFrame) {
        let input = frame.input
        frameSaysTouching = input.fingerCount.map { $0 > 0 } ?? true
        splitFrom = splitSource(input, table: frame.table)
        // The pad counts two fingers or more (BTN_TOOL_DOUBLETAP…) and the count did not
        // drop: a contact ending now was lost by the tracking, not lifted.
        fingerCountHeld = input.fingerCount.map { $0 >= 2 && $0 >= (lastFingerCount ?? 0) } ?? false
        lastFingerCount = input.fingerCount
    }

    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        switch step.touch.phase {
        case .began:
            guard step.state == .judging else { return }
            let table = frame.table
            step.contact.accompanied = table.fakeFingers > 0 || !table.lifted.isEmpty || table.hasFinger
            began(step.touch, &step.contact, at: frame.now)
        case .moved, .stationary:
            guard step.state != .absent else { return }
            if frameSaysTouching { step.contact.touched = true }
            if !step.alone { step.contact.accompanied = true }
        case .ended, .cancelled:
            guard step.state == .judging else { return }
            ended(&step.contact, phase: step.touch.phase, at: frame.now, table: frame.table)
        }
    }

    /// Reasons known when a contact begins.
    private func began(_ touch: Touch, _ contact: inout FilterContact, at now: Timestamp) {
        if let last = lastMultiFingerMotion, now - last <= settings.scrollTapWindow, settings.enables(.afterScroll) {
            contact.denyTap(.afterScroll)
        }
        contact.touched = frameSaysTouching
        if let source = splitFrom, distance(source, touch.position) <= settings.splitDistance, settings.enables(.split) {
            contact.denyTap(.split)
        }
    }

    /// Reasons known when it ends (`phase` is the assembler's).
    private func ended(_ contact: inout FilterContact, phase: TouchPhase, at now: Timestamp, table: ContactTable) {
        if isTooLight(contact, pressureSeen: table.pressureSeen) { contact.denyTap(.tooLight) }
        if !contact.touched && settings.enables(.hovering) { contact.denyTap(.hovering) }
        if fingerCountHeld && phase == .ended && settings.enables(.trackingLost) { contact.denyTap(.trackingLost) }
        if isHandLanding(contact, table: table) { contact.denyTap(.handLanding) }
        // The lone one-frame glitch, judged after the other end reasons.
        if contact.reports == 0 && now - contact.startTime < settings.minimumLoneTapDuration && !contact.accompanied
            && settings.enables(.glitch)
        {
            contact.denyTap(.glitch)
        }
    }

    /// A contact that never pressed harder than ``TouchFilterSettings/tapMinimumPressure``.
    private func isTooLight(_ contact: FilterContact, pressureSeen: Bool) -> Bool {
        guard let threshold = settings.tapMinimumPressure, facts.pressureMaximum != nil, pressureSeen,
            settings.enables(.tooLight)
        else { return false }
        // A contact whose slot never sent a pressure pressed the kernel's initial 0 (a
        // pressure equal to the slot's value is never sent; in a recording that starts
        // mid-session, what the slot's last contact ended with).
        return Double(contact.maximumPressure ?? 0) < threshold
    }

    /// A finger ending that landed together with a contact still held in an edge band (not
    /// its partner): the hand landing, a palm's heel at the edge and its fingers' side in
    /// the middle — not a tap, whose partner a one-finger tap would not have.
    private func isHandLanding(_ contact: FilterContact, table: ContactTable) -> Bool {
        contact.role == .finger && settings.enables(.handLanding)
            && table.contacts.values.contains(where: {
                $0.role == .edgeCandidate && abs($0.startTime - contact.startTime) <= settings.edgeReleaseTime
            })
    }

    /// Notes a frame where two or more fingers are down and one that moved
    /// ``TouchFilterSettings/scrollTapTravel`` or more from its start moves.
    mutating func end(_ frame: inout FilterFrame) {
        guard settings.scrollTapWindow > 0 else { return }
        let table = frame.table
        guard table.fingerCount + table.fakeFingers >= 2 else { return }
        let moving = frame.out.contains { touch in
            guard touch.phase == .moved, let contact = table[touch.id], contact.role == .finger else { return false }
            return distance(contact.delivered, contact.start) >= settings.scrollTapTravel
        }
        if moving { lastMultiFingerMotion = frame.now }
    }

    /// A contact down in the frame before whose pressure fell by
    /// ``TouchFilterSettings/splitPressureDrop`` or more in this frame, in which a contact
    /// begins: its position.
    private func splitSource(_ frame: Frame, table: ContactTable) -> PhysicalPoint? {
        guard settings.splitPressureDrop > 0, frame.touches.contains(where: { $0.phase == .began }) else { return nil }
        for touch in frame.touches where touch.phase == .moved || touch.phase == .stationary {
            guard let now = touch.pressure, let contact = table[table.resolved(touch.id)], let before = contact.lastPressure,
                before > 0
            else { continue }
            // In Double: a device may report any Int32 pressure, and max − min overflows Int32.
            if Double(before) - Double(now) >= settings.splitPressureDrop * Double(before) { return touch.position }
        }
        return nil
    }
}
