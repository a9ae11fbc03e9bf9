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
///   labelled touchpads, or come in 3 frames or more).
struct TapGuardStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let isTouchpad: Bool
    /// The frame being filtered says a finger touches (or does not say).
    private(set) var frameSaysTouching = true
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

    init(settings: TouchFilterSettings, isTouchpad: Bool) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.isTouchpad = isTouchpad
    }

    mutating func reset() {
        lastMultiFingerMotion = nil
        lastFingerCount = nil
    }

    /// Reads the frame's finger count and pressures before its touches are stepped.
    mutating func beginFrame(_ frame: Frame, table: ContactTable) {
        frameSaysTouching = frame.fingerCount.map { $0 > 0 } ?? true
        splitFrom = isTouchpad ? splitSource(frame, table: table) : nil
        // The pad counts two fingers or more (BTN_TOOL_DOUBLETAP…) and the count did not
        // drop: a contact ending now was lost by the tracking, not lifted.
        fingerCountHeld = frame.fingerCount.map { $0 >= 2 && $0 >= (lastFingerCount ?? 0) } ?? false
        lastFingerCount = frame.fingerCount
    }

    /// Reasons known when a contact begins.
    func began(_ touch: Touch, _ contact: inout FilterContact, at now: Timestamp) {
        if isTouchpad, let last = lastMultiFingerMotion, now - last <= settings.scrollTapWindow, settings.enables(.afterScroll) {
            contact.denyTap(.afterScroll)
        }
        contact.touched = frameSaysTouching
        if let source = splitFrom, distance(source, touch.position) <= settings.splitDistance, settings.enables(.split) {
            contact.denyTap(.split)
        }
    }

    /// Reasons known when it ends (`phase` is the assembler's).
    func ended(_ contact: inout FilterContact, phase: TouchPhase, at now: Timestamp) {
        guard isTouchpad else { return }
        if !contact.touched && settings.enables(.hovering) { contact.denyTap(.hovering) }
        if fingerCountHeld && phase == .ended && settings.enables(.trackingLost) { contact.denyTap(.trackingLost) }
    }

    /// The lone one-frame glitch, judged after the other end reasons.
    func endedAlone(_ contact: inout FilterContact, at now: Timestamp) {
        if isTouchpad && contact.reports == 0 && now - contact.startTime < settings.minimumLoneTapDuration && !contact.accompanied
            && settings.enables(.glitch)
        {
            contact.denyTap(.glitch)
        }
    }

    /// Notes a frame where two or more fingers are down and one that moved
    /// ``TouchFilterSettings/scrollTapTravel`` or more from its start moves.
    mutating func noteMotion(_ delivered: [Touch], at now: Timestamp, table: ContactTable, fakes: Int) {
        guard isTouchpad, settings.scrollTapWindow > 0 else { return }
        guard table.fingerCount + fakes >= 2 else { return }
        let moving = delivered.contains { touch in
            guard touch.phase == .moved, let contact = table[touch.id], contact.role == .finger else { return false }
            return distance(contact.delivered, contact.start) >= settings.scrollTapTravel
        }
        if moving { lastMultiFingerMotion = now }
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
