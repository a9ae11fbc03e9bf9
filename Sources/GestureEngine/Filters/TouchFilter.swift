/// A stage between the ``FrameAssembler`` and the ``GestureEngine`` that decides which contacts
/// are fingers (spec §2 leaves palm handling to the input side, as libinput and the ChromiumOS
/// gestures library do): palms and resting thumbs are taken out, sensor jitter is absorbed.
///
/// * **Palm by pressure or size**: a contact whose pressure reaches
///   ``TouchFilterSettings/palmPressureFraction`` of the range, or whose touch major reaches
///   ``TouchFilterSettings/palmTouchMajor`` mm, is a palm for the rest of its life; if it had
///   been delivered it is `cancelled`. (`MT_TOOL_PALM` is already suppressed by the assembler.)
/// * **Edge palms** (touchpads): a contact that begins in the left or right band is held back;
///   it becomes a finger if it leaves the band toward the middle within
///   ``TouchFilterSettings/edgeReleaseTime``, otherwise it is a palm.
/// * **Resting thumbs** (touchpads): a contact that begins in the bottom band is held back
///   until it travels ``TouchFilterSettings/thumbReleaseDistance`` or rises above
///   ``TouchFilterSettings/thumbExitFraction``; a thumb resting there while other fingers
///   work is never seen by the recognizers.
/// * **Held-back taps**: a held-back contact that lifts quickly without moving is delivered
///   after all (began and ended in the lifting frame), so taps near the edges still count.
/// * **Finger-count smoothing** (touchpads): a finger's lift is held back for
///   ``TouchFilterSettings/liftDelay``; a contact beginning near it meanwhile continues it, so
///   a finger the sensor drops for a frame neither ends nor taps. A contact that keeps
///   disappearing and reappearing (``TouchFilterSettings/flickerLimit``) is a palm, and a
///   contact beginning where a palm just was is that palm again.
/// * **Fake fingers** (touchpads): fingers counted by `BTN_TOOL_*` beyond the slots (or the
///   one position of a single-touch pad) are delivered at the topmost finger.
/// * **Unknown pressure** (touchpads): a contact whose slot has sent no pressure yet is held
///   back until it sends one (``TouchFilterSettings/holdsUnknownPressure``).
/// * **No tap** (touchpads): a short contact ends `cancelled` when it began during or just
///   after a multi-finger motion (``TouchFilterSettings/scrollTapWindow``); was too light
///   (``TouchFilterSettings/tapMinimumPressureFraction``) or only hovering (finger count 0);
///   landed with a contact held in an edge band (the hand landing); ended while the finger
///   count held at two or more (lost by the tracking, not lifted); or landed as a nearby
///   contact lost ``TouchFilterSettings/splitPressureDrop`` of its pressure (split off it).
/// * **Jitter**: ``PositionHysteresis`` on every delivered contact.
///
/// Pure value type: frames in, frames out; held-back lifts come out through
/// ``flush(upTo:)`` at ``nextDeadline`` (the caller's clock), never by reading a clock.
public struct TouchFilter: Sendable {
    public let device: DeviceDescription
    public let settings: TouchFilterSettings

    private enum Role: Sendable {
        /// Delivered to the engine.
        case finger
        /// Began in an edge band; not delivered yet.
        case edgeCandidate
        /// Began in the thumb band; not delivered yet.
        case thumbCandidate
        /// Began without a known pressure on a pad whose pressure channel works (a slot that
        /// has sent none yet); not delivered until it sends one.
        case pressureCandidate
        /// Never (again) delivered.
        case palm
        /// Held the physical button down, still, while another finger dragged: not delivered
        /// any more (libinput excludes the clicking finger from motion alike).
        case clicking
        /// The lower of two fingers far apart diagonally when a finger landed: a thumb, not
        /// delivered any more (libinput's position-based thumb detection).
        case thumb
    }

    private struct Contact: Sendable {
        var role: Role
        var start: PhysicalPoint
        var startTime: Timestamp
        var travel: Double
        var hysteresis: PositionHysteresis
        /// Sensor jumps taken out of its motion (off unless ``TouchFilterSettings/sensorJumpStep``).
        var jump = SensorJumpFilter(minimumStep: 0)
        /// Used instead of ``hysteresis`` where ``TouchFilterSettings/boxSize`` is set.
        var box: BoxFilter?
        /// The position last delivered (for `previousPosition`).
        var delivered: PhysicalPoint
        /// Times this contact vanished and came back.
        var flickers = 0
        /// Until then its motion is held back (palm confirmation).
        var confirmUntil: Timestamp?
        /// The sensor position, and where it was when the physical button went down.
        var current = PhysicalPoint.zero
        var pressAnchor: PhysicalPoint?
        /// Was down while the physical button was pressed: its lift is a click's, not a tap's.
        var pressedButton = false
        /// Began during or just after a multi-finger motion (a scroll): its lift is no tap.
        var noTap = false
        /// The highest pressure it reported (device units); nil when it reported none (a
        /// device with `ABS_PRESSURE` only).
        var maximumPressure: Int32?
        /// The largest touch major it reported (mm; nil when the device reports none or in
        /// units that are not millimetres).
        var maximumMajor: Double?
        /// The sensor step of the last frame when it was at least
        /// ``TouchFilterSettings/palmReversalStep`` (mm); how often the contact jumped back.
        var lastStep: PhysicalPoint?
        var reversals = 0
        /// Another finger (or a fake one) was delivered at some time while it was down.
        var accompanied = false
        /// Frames after the first in which the sensor reported it (0: seen once).
        var reports = 0
        /// The pressure it reported last (device units).
        var lastPressure: Int32?
        /// Some frame while it was down said a finger touches (`BTN_TOUCH` or a `BTN_TOOL_*`
        /// finger count above 0), or the device does not say.
        var touched = true
    }

    private var contacts: [TouchID: Contact] = [:]
    /// Assembler ids of contacts that continue an earlier one → the id delivered for it.
    private var aliases: [TouchID: TouchID] = [:]
    /// Lifted fingers whose end is held back: the ended touch (delivered id), when, and the
    /// contact to resume.
    private struct PendingLift: Sendable {
        /// What to deliver when the lift comes due: a finger's end; a held-back contact's
        /// tap (began and ended), or nothing.
        var touches: [Touch]
        /// Where it lifted, and the touch's start (kept by a contact that continues it).
        var position: PhysicalPoint
        var startPosition: PhysicalPoint
        var startTime: Timestamp
        var time: Timestamp
        var contact: Contact
        /// When it is delivered at the latest: `time` + the lift delay, or later for a short
        /// pressing touch waiting for a palm's return (``TouchFilterSettings/palmReturnWait``).
        var deadline: Timestamp
    }
    private var pendingLifts: [TouchID: PendingLift] = [:]
    /// Where and when palms lifted, for ``TouchFilterSettings/palmMemoryTime``.
    private var lastPalms: [(position: PhysicalPoint, time: Timestamp)] = []
    private let pressureMaximum: Int32?
    private let width: Double
    private let height: Double
    private let isTouchpad: Bool
    private let reportsContacts: Bool

    public init(device: DeviceDescription, settings: TouchFilterSettings = TouchFilterSettings()) {
        self.device = device
        self.settings = settings.isEnabled ? DeviceQuirk.adjusted(settings, for: device) : settings
        // Ranges are trusted only on a device that reports its resolution: a recording without
        // a description has its ranges inferred from the touches themselves (the surface shrinks
        // to where fingers went, the pressure range to what they pressed), where edge bands
        // and a pressure fraction would mean nothing. Such a device gets jitter filtering only
        // (configure WidthMM=/HeightMM= to give it a size).
        let trusted = device.hasResolution
        let pressure = device.axis(.absMTPressure) ?? device.axis(.absPressure)
        pressureMaximum = trusted ? pressure.flatMap { $0.maximum > $0.minimum ? $0.maximum : nil } : nil
        width = trusted ? device.widthMillimeters : 0
        height = trusted ? device.heightMillimeters : 0
        isTouchpad = device.kind == .touchpad
        // Positions in mm per contact: a resolution, and a position per contact (a
        // single-touch pad's one position jumps between fingers).
        reportsContacts = trusted && device.axis(.absMTPositionX) != nil
        sizesTrusted = trusted
    }

    /// Touch sizes are in position units when the size axis has no resolution of its own, so
    /// they mean millimetres only on a device with a known resolution.
    private let sizesTrusted: Bool

    /// The frame the engine should see, or nil when nothing in it concerns a finger (and no
    /// button changed: a frame with only held-back contacts is dropped).
    public mutating func filter(_ frame: Frame) -> Frame? {
        guard settings.isEnabled else { return frame }
        // Reuse last frame's list when its frame is gone (unique again); taken out of `self`
        // so the mutating steps below can append to it.
        var out = spareTouches
        spareTouches = []
        out.removeAll(keepingCapacity: true)
        frameSaysTouching = frame.fingerCount.map { $0 > 0 } ?? true
        splitFrom = isTouchpad ? splitSource(frame) : nil
        // The pad counts two fingers or more (BTN_TOOL_DOUBLETAP…) and the count did not
        // drop: a contact ending now was lost by the tracking, not lifted.
        fingerCountHeld = frame.fingerCount.map { $0 >= 2 && $0 >= (lastFingerCount ?? 0) } ?? false
        defer { lastFingerCount = frame.fingerCount }
        for var touch in frame.touches {
            if !pressureSeen, let pressure = touch.pressure, pressure > 0 { pressureSeen = true }
            if let delivered = aliases[touch.id] {
                touch.id = delivered
                if touch.phase == .ended || touch.phase == .cancelled { aliases[touch.id] = nil }
            }
            step(touch, at: frame.timestamp, into: &out)
        }
        if !lastPalms.isEmpty { lastPalms.removeAll { frame.timestamp - $0.time > settings.palmMemoryTime } }
        excludeClickingFingers(frame, into: &out)
        synthesizeFakeFingers(frame, into: &out)
        noteMultiFingerMotion(out, at: frame.timestamp)
        // The steps mostly deliver in the assembler's (id) order: sort only when needed, in
        // place (the same stable sort `sorted` performs).
        if !Self.isSortedByID(out) { out.sort { $0.id < $1.id } }
        spareTouches = out
        var result = frame
        result.touches = out
        if result.touches.isEmpty && !frame.touches.isEmpty && frame.isButtonPressed == lastButton {
            return nil
        }
        lastButton = frame.isButtonPressed
        return result
    }

    /// The list the last filtered frame was built in, for the next frame to reuse.
    private var spareTouches: [Touch] = []

    private static func isSortedByID(_ touches: [Touch]) -> Bool {
        var index = 1
        while index < touches.count {
            if touches[index].id < touches[index - 1].id { return false }
            index += 1
        }
        return true
    }

    private var lastButton = false
    /// The last frame in which two or more fingers were down and one of them moved, at least
    /// ``TouchFilterSettings/scrollTapTravel`` from where it began (a scroll, a swipe).
    private var lastMultiFingerMotion: Timestamp?

    /// Fingers the device counts (`BTN_TOOL_*`) beyond its slots, standing in for the fingers
    /// it does not track: id, and where it was delivered.
    private struct FakeFinger: Sendable {
        var id: TouchID
        var position: PhysicalPoint
        var startPosition: PhysicalPoint
        var startTime: Timestamp
    }
    private var fakes: [FakeFinger] = []
    private var nextFakeID: UInt64 = 0
    /// Fake fingers get ids far above the assembler's serials (which start at 1).
    private static let fakeIDBase: UInt64 = 1 << 62

    /// Forgets everything (the device went away); deliver ``flush(upTo:)`` first.
    public mutating func reset() {
        contacts = [:]
        aliases = [:]
        pendingLifts = [:]
        lastPalms = []
        lastButton = false
        fakes = []
        lastMultiFingerMotion = nil
        lastFingerCount = nil
    }

    /// When the earliest held-back lift is due.
    public var nextDeadline: Timestamp? {
        var earliest: Timestamp?
        for pending in pendingLifts.values where earliest.map({ pending.deadline < $0 }) ?? true {
            earliest = pending.deadline
        }
        return earliest
    }

    /// The held-back lifts due at or before `time` (strictly before, with `before`), as one
    /// frame at the latest of their deadlines; nil when none is due.
    public mutating func flush(upTo time: Timestamp, before: Bool = false) -> Frame? {
        guard !pendingLifts.isEmpty else { return nil }
        let due = pendingLifts.filter { before ? $0.value.deadline < time : $0.value.deadline <= time }
        return deliver(Array(due.keys), upTo: time)
    }

    /// The held-back lifts to deliver before `frame`: those due before its timestamp, and
    /// those waiting for a palm's return (``TouchFilterSettings/palmReturnWait``) when the
    /// frame brings a new contact — a finger's second tap must find the first one ended. A
    /// contact landing already pressing near such a lift is the palm back: the lift is
    /// delivered `cancelled`, no tap. Call it before ``filter(_:)`` with the same frame.
    public mutating func flush(before frame: Frame) -> Frame? {
        let now = frame.timestamp
        var ids = pendingLifts.isEmpty ? [] : pendingLifts.filter { $0.value.deadline < now }.map(\.key)
        for touch in frame.touches where touch.phase == .began {
            for (id, pending) in pendingLifts where now - pending.time > settings.liftDelay && !ids.contains(id) {
                if beginsPressing(touch) && distance(pending.position, touch.position) <= settings.reappearDistance {
                    pendingLifts[id]?.touches = pending.touches.map { lift in
                        var cancelled = lift
                        if cancelled.phase == .ended { cancelled.phase = .cancelled }
                        return cancelled
                    }
                    lastPalms.append((pending.position, pending.time))
                } else if pending.deadline > pending.time.adding(seconds: settings.liftDelay) {
                    ids.append(id)
                }
            }
        }
        let thumb = suppressDiagonalThumb(before: frame)
        guard !thumb.isEmpty else { return deliver(ids, upTo: now) }
        var lifts = deliver(ids, upTo: now) ?? Frame(timestamp: now, touches: [], isButtonPressed: lastButton)
        lifts.timestamp = now
        lifts.touches = (lifts.touches + thumb).sorted { $0.id < $1.id }
        return lifts
    }

    /// Removes the given pending lifts and delivers their touches as one frame at the latest
    /// of their deadlines (at most `time`).
    private mutating func deliver(_ ids: [TouchID], upTo time: Timestamp) -> Frame? {
        guard !ids.isEmpty else { return nil }
        var latest = Timestamp.zero
        var touches: [Touch] = []
        for id in ids {
            guard let pending = pendingLifts.removeValue(forKey: id), !pending.touches.isEmpty else { continue }
            latest = max(latest, min(time, pending.deadline))
            touches += pending.touches
        }
        guard !touches.isEmpty else { return nil }
        return Frame(timestamp: latest, touches: touches.sorted { $0.id < $1.id }, isButtonPressed: lastButton)
    }

    /// How long a lifted finger's end is held back: the lift delay, or
    /// ``TouchFilterSettings/palmReturnWait`` for a short touch that pressed as hard as a
    /// palm landing (``TouchFilterSettings/palmPressureAtBegin``): on the 2012 Cypress pads a
    /// palm touches briefly, saturated, lifts and comes back already pressing.
    private func liftWait(_ contact: Contact, at now: Timestamp) -> Double {
        guard settings.palmReturnWait > settings.liftDelay, let fraction = settings.palmPressureAtBegin,
            let maximum = pressureMaximum, let pressure = contact.maximumPressure,
            Double(pressure) >= fraction * Double(maximum), now - contact.startTime <= settings.scrollTapMaximumDuration
        else { return settings.liftDelay }
        // The tap must still fit the touchpad's tap duration when its lift comes out late.
        let room = settings.scrollTapMaximumDuration - (now - contact.startTime) - Self.tapDurationMargin
        return max(settings.liftDelay, min(settings.palmReturnWait, room))
    }

    /// Seconds a held tap's lift stays inside the tap duration limit (a frame or two).
    private static let tapDurationMargin = 0.02

    private func isPalm(_ touch: Touch) -> Bool {
        if touch.toolType == .palm { return true }
        if let fraction = settings.palmPressureFraction, let maximum = pressureMaximum, let pressure = touch.pressure,
            Double(pressure) >= fraction * Double(maximum)
        {
            return true
        }
        if sizesTrusted, let major = touch.touchMajorMillimeters, major >= settings.palmTouchMajor { return true }
        return false
    }

    /// A touchpad contact that never pressed harder than
    /// ``TouchFilterSettings/tapMinimumPressureFraction`` of the range is a thumb or a finger
    /// hovering and brushing the surface, not a tap (the ChromiumOS library's "Tap Minimum
    /// Pressure").
    private func isTooLightToTap(_ contact: Contact) -> Bool {
        guard isTouchpad, let fraction = settings.tapMinimumPressureFraction, let maximum = pressureMaximum,
            pressureSeen
        else { return false }
        // A contact whose slot never sent a pressure pressed the kernel's initial 0 (a
        // pressure equal to the slot's value is never sent; in a recording that starts
        // mid-session, what the slot's last contact ended with).
        return Double(contact.maximumPressure ?? 0) < fraction * Double(maximum)
    }

    /// The frame being filtered says a finger touches (or does not say): a contact down while
    /// `BTN_TOUCH` and every `BTN_TOOL_*` key are up is hovering (libinput's fake-finger
    /// count of 0).
    private var frameSaysTouching = true
    /// Where a contact of the pad lost half its pressure as a new one landed in the frame
    /// being filtered: one contact the sensor split in two (a thumb's).
    private var splitFrom: PhysicalPoint?
    /// The finger count of the frame before; whether the frame being filtered counts two
    /// fingers or more and no fewer than that (nothing lifted).
    private var lastFingerCount: Int?
    private var fingerCountHeld = false

    /// A contact down in the frame before whose pressure fell by ``TouchFilterSettings/splitPressureDrop``
    /// or more in this frame, in which a contact begins: its position.
    private func splitSource(_ frame: Frame) -> PhysicalPoint? {
        guard settings.splitPressureDrop > 0, frame.touches.contains(where: { $0.phase == .began }) else { return nil }
        for touch in frame.touches where touch.phase == .moved || touch.phase == .stationary {
            guard let now = touch.pressure, let contact = contacts[aliases[touch.id] ?? touch.id],
                let before = contact.lastPressure, before > 0
            else { continue }
            if Double(before - now) >= settings.splitPressureDrop * Double(before) { return touch.position }
        }
        return nil
    }

    /// Some contact reported a pressure above 0: the device's pressure channel works. A
    /// device that declares a pressure axis but never sends it is not judged by pressure.
    private var pressureSeen = false

    /// Notes a sensor step of a contact; true when it has now jumped back and forth
    /// ``TouchFilterSettings/palmReversalCount`` times (touchpads reporting a position per
    /// contact): a palm's wobbling centre. A short step breaks the chain: a finger turning
    /// slows down first.
    private func jumpsBack(_ step: PhysicalPoint, _ contact: inout Contact) -> Bool {
        guard isTouchpad, reportsContacts, settings.palmReversalCount > 0 else { return false }
        let length = (step.x * step.x + step.y * step.y).squareRoot()
        guard length >= settings.palmReversalStep else {
            contact.lastStep = nil
            return false
        }
        if let last = contact.lastStep {
            let lastLength = (last.x * last.x + last.y * last.y).squareRoot()
            // Turning back by more than 120°: cos < −0.5.
            if step.x * last.x + step.y * last.y < -0.5 * length * lastLength { contact.reversals += 1 }
        }
        contact.lastStep = step
        return contact.reversals >= settings.palmReversalCount
    }

    private func beginsPressing(_ touch: Touch) -> Bool {
        guard let fraction = settings.palmPressureAtBegin, let maximum = pressureMaximum, let pressure = touch.pressure else { return false }
        return Double(pressure) >= fraction * Double(maximum)
    }

    /// Whether `p` lies in a palm band: the left or right ``TouchFilterSettings/edgeBandFraction``
    /// of the width, or the top ``TouchFilterSettings/topEdgeBandFraction`` of the height on
    /// a touchpad taller than ``TouchFilterSettings/topEdgeMinimumHeight`` (libinput's
    /// `upper_edge`).
    private func inEdgeBand(_ p: PhysicalPoint) -> Bool {
        let band = settings.edgeBandFraction * width
        if band > 0 && (p.x < band || p.x > width - band) { return true }
        return height > settings.topEdgeMinimumHeight && p.y < settings.topEdgeBandFraction * height
    }

    /// A held-back thumb becomes a finger above this line only (hysteresis): a thumb sliding
    /// along the band wanders a few millimetres above where it landed.
    private func aboveThumbExitLine(_ p: PhysicalPoint) -> Bool {
        let band = max(settings.thumbBandFraction, settings.thumbExitFraction) * height
        return band <= 0 || p.y <= height - band
    }

    private func inThumbBand(_ p: PhysicalPoint) -> Bool {
        let band = settings.thumbBandFraction * height
        return band > 0 && p.y > height - band
    }

    /// Appends to `out` what to deliver for one assembled touch (none, one, or a held-back
    /// tap's two).
    private mutating func step(_ touch: Touch, at now: Timestamp, into out: inout [Touch]) {
        switch touch.phase {
        case .began:
            if resume(touch, at: now, into: &out) { return }
            let hysteresis = PositionHysteresis(radius: settings.hysteresis, position: touch.position)
            var contact = Contact(
                role: .finger, start: touch.position, startTime: now, travel: 0, hysteresis: hysteresis, delivered: touch.position)
            contact.jump = SensorJumpFilter(minimumStep: settings.sensorJumpStep)
            _ = contact.jump.update(touch.position)
            if isPalm(touch) || beginsPressing(touch) || lastPalms.contains(where: {
                now - $0.time <= settings.palmMemoryTime && distance($0.position, touch.position) <= settings.palmMemoryDistance
            }) {
                contact.role = .palm
            } else if isTouchpad && inThumbBand(touch.position) {
                // The bottom corners are thumb country first: a thumb there moves along the
                // band, out of the edge band, and must not count as a finger for that.
                contact.role = .thumbCandidate
            } else if isTouchpad && inEdgeBand(touch.position) {
                contact.role = .edgeCandidate
            } else if isTouchpad && settings.holdsUnknownPressure && pressureSeen && pressureMaximum != nil && touch.pressure == nil {
                // A finger's pressure changes from frame to frame; a contact whose slot has
                // sent none cannot be told from a palm until it does.
                contact.role = .pressureCandidate
            }
            // Palms land alone: a contact joining a finger already down is not held back.
            if isTouchpad && pressureMaximum != nil && settings.palmConfirmTime > 0
                && !contacts.values.contains(where: { $0.role == .finger })
            {
                contact.confirmUntil = now.adding(seconds: settings.palmConfirmTime)
            }
            if isTouchpad, let last = lastMultiFingerMotion, now - last <= settings.scrollTapWindow { contact.noTap = true }
            contact.maximumPressure = touch.pressure
            if sizesTrusted { contact.maximumMajor = touch.touchMajorMillimeters }
            contact.accompanied = !fakes.isEmpty || !pendingLifts.isEmpty || contacts.values.contains { $0.role == .finger }
            contact.touched = frameSaysTouching
            contact.lastPressure = touch.pressure
            // Landing as a contact beside it lost half its pressure: a piece of that contact
            // the sensor split off (a thumb dragged along), not a finger tapping.
            if let source = splitFrom, distance(source, touch.position) <= settings.splitDistance { contact.noTap = true }
            contacts[touch.id] = contact
            if contact.role == .finger { out.append(touch) }
        case .moved, .stationary:
            guard var contact = contacts[touch.id] else { return }
            if let pressure = touch.pressure {
                contact.maximumPressure = max(contact.maximumPressure ?? pressure, pressure)
                contact.lastPressure = pressure
            }
            if sizesTrusted, let major = touch.touchMajorMillimeters { contact.maximumMajor = max(contact.maximumMajor ?? major, major) }
            let dx = touch.position.x - touch.previousPosition.x
            let dy = touch.position.y - touch.previousPosition.y
            contact.travel += (dx * dx + dy * dy).squareRoot()
            defer { contacts[touch.id] = contact }
            let alone = !contacts.contains { $0.key != touch.id && $0.value.role == .finger } && fakes.isEmpty
            contact.reports += 1
            if frameSaysTouching { contact.touched = true }
            _ = contact.jump.update(touch.position)
            if !alone { contact.accompanied = true }
            if alone && jumpsBack(PhysicalPoint(x: dx, y: dy), &contact) && contact.role != .palm && contact.role != .clicking && contact.role != .thumb {
                let wasDelivered = contact.role == .finger
                contact.role = .palm
                guard wasDelivered else { return }
                var cancelled = touch
                cancelled.phase = .cancelled
                cancelled.position = contact.delivered
                cancelled.previousPosition = contact.delivered
                out.append(cancelled)
                return
            }
            switch contact.role {
            case .palm, .clicking, .thumb:
                return
            case .finger:
                if isPalm(touch) {
                    contact.role = .palm
                    var cancelled = touch
                    cancelled.phase = .cancelled
                    cancelled.position = contact.delivered
                    cancelled.previousPosition = contact.delivered
                    out.append(cancelled)
                    return
                }
                // A second finger ends the confirmation: palms land alone, and a multi-finger
                // gesture must not lose its first millimetres.
                if let until = contact.confirmUntil, now < until,
                    contacts.values.count(where: { $0.role == .finger }) + fakes.count < 2
                {
                    var held = touch
                    held.previousPosition = contact.delivered
                    held.position = contact.delivered
                    held.phase = .stationary
                    out.append(held)
                    return
                }
                if contact.confirmUntil != nil {
                    contact.confirmUntil = nil
                    // Confirmed (alone, or joined by a second finger): what it moved while held
                    // back is dropped, not delivered as one jump (a palm not yet heavy enough
                    // moves on from where it was).
                    if settings.dropsConfirmedMotion {
                        contact.jump.rebase(touch.position, to: contact.delivered)
                    }
                }
                out.append(deliver(touch, &contact))
            case .edgeCandidate:
                if isPalm(touch) {
                    contact.role = .palm
                    return
                }
                if hasEdgePartner(touch.id, contact) {
                    out.append(release(touch, &contact, at: now))
                    return
                }
                if !inEdgeBand(touch.position) {
                    // Out toward the middle in time: a finger. Too late: a palm that wandered —
                    // unless the pad measures contact size and this one stayed finger-sized
                    // (a finger resting at the edge before it moves).
                    if now - contact.startTime <= settings.edgeReleaseTime
                        || (contact.maximumMajor ?? .infinity) < settings.edgeFingerMajor
                    {
                        out.append(release(touch, &contact, at: now))
                        return
                    }
                    contact.role = .palm
                }
            case .pressureCandidate:
                guard touch.pressure != nil else { return }
                // Its first known pressure is its landing one: judged as a landing, too.
                if isPalm(touch) || beginsPressing(touch) {
                    contact.role = .palm
                    return
                }
                out.append(release(touch, &contact, at: now))
            case .thumbCandidate:
                if isPalm(touch) {
                    contact.role = .palm
                    return
                }
                let moved = distance(touch.position, contact.start)
                if moved >= settings.thumbReleaseDistance || aboveThumbExitLine(touch.position) {
                    out.append(release(touch, &contact, at: now))
                }
            }
        case .ended, .cancelled:
            guard var contact = contacts.removeValue(forKey: touch.id) else { return }
            if let pressure = touch.pressure { contact.maximumPressure = max(contact.maximumPressure ?? pressure, pressure) }
            if isTooLightToTap(contact) { contact.noTap = true }
            // Down only while the device said nothing touches: a finger hovering (libinput
            // counts such touches as hovering), not a tap.
            if isTouchpad && !contact.touched { contact.noTap = true }
            // Gone while the pad still counts as many fingers: the tracking lost it (a pad
            // with fewer slots than fingers follows another one), and it did not lift.
            if isTouchpad && fingerCountHeld && touch.phase == .ended { contact.noTap = true }
            // Landed together with a contact still held in an edge band (not its partner): the
            // hand landing, a palm's heel at the edge and its fingers' side in the middle —
            // not a tap, whose partner a one-finger tap would not have.
            if isTouchpad && contact.role == .finger && contacts.values.contains(where: {
                $0.role == .edgeCandidate && abs($0.startTime - contact.startTime) <= settings.edgeReleaseTime
            }) {
                contact.noTap = true
            }
            // Seen in one frame only, down for less than a finger can tap, with no other finger
            // down: a sensor glitch or a palm brushing the pad (finger taps last 43 ms and more
            // on the labelled touchpads, or come in 3 frames or more; the second finger of a
            // two-finger tap may be seen for one frame).
            if isTouchpad && contact.reports == 0 && now - contact.startTime < settings.minimumLoneTapDuration && !contact.accompanied {
                contact.noTap = true
            }
            switch contact.role {
            case .palm:
                lastPalms.append((touch.position, now))
            case .clicking, .thumb:
                return
            case .finger:
                var last = touch
                if touch.phase == .ended {
                    last = deliver(touch, &contact)
                    // A finger that pressed the button ends cancelled: it clicked, and a click
                    // must not also be a tap (the tap recognizer fails on a cancelled touch).
                    last.phase = contact.pressedButton && settings.clicksCancelTouches ? .cancelled : .ended
                    // A short touch beside or right after a scroll is not a tap (the ChromiumOS
                    // library keeps tapping idle while the last gesture was a scroll).
                    if contact.noTap && now - contact.startTime <= settings.scrollTapMaximumDuration { last.phase = .cancelled }
                    if isTouchpad && settings.liftDelay > 0 {
                        pendingLifts[touch.id] = PendingLift(
                            touches: [last], position: last.position, startPosition: last.startPosition,
                            startTime: last.startTime, time: now, contact: contact,
                            deadline: now.adding(seconds: liftWait(contact, at: now)))
                        return
                    }
                } else {
                    last.position = contact.delivered
                    last.previousPosition = contact.delivered
                }
                out.append(last)
            case .edgeCandidate, .thumbCandidate, .pressureCandidate:
                // Held in the edge band past the release time: a palm by the edge rule, and
                // remembered as one (a palm resting at the edge is re-reported as short
                // contacts when it lifts).
                if contact.role == .edgeCandidate && now - contact.startTime > settings.edgeReleaseTime {
                    lastPalms.append((touch.position, now))
                }
                // A quick, still touch in a band is a tap there, not a palm or a thumb.
                var tap: [Touch] = []
                // (A contact that was down while the button was pressed clicked: no tap.)
                // (Nor does one beside a palm on the pad: the same hand's edge brushing it.)
                if touch.phase == .ended, !(contact.pressedButton && settings.clicksCancelTouches), !contact.noTap,
                    !contacts.values.contains(where: { $0.role == .palm }),
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
                // Its lift is held back like a finger's: a sensor that loses one of two
                // close fingers for a frame must not turn each return into a tap.
                if isTouchpad && settings.liftDelay > 0 && touch.phase == .ended {
                    pendingLifts[touch.id] = PendingLift(
                        touches: tap, position: touch.position, startPosition: contact.start,
                        startTime: contact.startTime, time: now, contact: contact,
                        deadline: now.adding(seconds: settings.liftDelay))
                    return
                }
                out.append(contentsOf: tap)
            }
        }
    }

    /// A contact beginning where a finger just lifted continues that finger (its lift was
    /// held back, so the engine never saw it go); after ``TouchFilterSettings/flickerLimit``
    /// such returns it is a palm and is cancelled. Appends what to deliver; false when nothing
    /// lifted nearby.
    private mutating func resume(_ touch: Touch, at now: Timestamp, into out: inout [Touch]) -> Bool {
        var best: (id: TouchID, distance: Double)?
        for (id, pending) in pendingLifts where now - pending.time <= settings.liftDelay {
            let d = distance(pending.position, touch.position)
            if d <= settings.reappearDistance && d < (best?.distance ?? .infinity) { best = (id, d) }
        }
        guard let best, var pending = pendingLifts.removeValue(forKey: best.id) else { return false }
        aliases[touch.id] = best.id
        var continued = touch
        continued.id = best.id
        continued.startPosition = pending.startPosition
        continued.startTime = pending.startTime
        // Only delivered fingers count flickers: a held-back contact is judged by its band
        // rules, and the second of two close fingers in a band flickers the same way.
        let wasDelivered = pending.contact.role == .finger
        if wasDelivered { pending.contact.flickers += 1 }
        if wasDelivered && pending.contact.flickers >= settings.flickerLimit {
            pending.contact.role = .palm
            contacts[best.id] = pending.contact
            continued.phase = .cancelled
            continued.position = pending.contact.delivered
            continued.previousPosition = pending.contact.delivered
            out.append(continued)
            return true
        }
        guard wasDelivered else {
            // A held-back contact back again: still held back, its start kept.
            contacts[best.id] = pending.contact
            return true
        }
        continued.phase = .moved
        var contact = pending.contact
        // Still within its palm confirmation and alone: the jump back counts no more than
        // a move would (a palm the sensor loses comes back a few millimetres away).
        if let until = contact.confirmUntil, now < until, !contacts.values.contains(where: { $0.role == .finger }), fakes.isEmpty {
            continued.position = contact.delivered
            continued.previousPosition = contact.delivered
            continued.phase = .stationary
            contacts[best.id] = contact
            out.append(continued)
            return true
        }
        out.append(deliver(continued, &contact))
        contacts[best.id] = contact
        return true
    }

    /// While the physical button is held, a finger that stays where it pressed while another
    /// finger drags is the clicking finger: it is cancelled, so the dragging finger alone moves
    /// the pointer (click with one finger, drag with another).
    private mutating func excludeClickingFingers(_ frame: Frame, into out: inout [Touch]) {
        for touch in frame.touches {
            guard var contact = contacts[aliases[touch.id] ?? touch.id] else { continue }
            contact.current = touch.position
            if !frame.isButtonPressed {
                contact.pressAnchor = nil
            } else if contact.pressAnchor == nil {
                contact.pressAnchor = touch.position
                contact.pressedButton = true
            }
            contacts[aliases[touch.id] ?? touch.id] = contact
        }
        guard frame.isButtonPressed, settings.clickingFingerDistance > 0 else { return }
        let dragging = contacts.values.contains { contact in
            guard contact.role == .finger, let anchor = contact.pressAnchor else { return false }
            return distance(contact.current, anchor) >= settings.clickingFingerDistance
        }
        guard dragging else { return }
        let first = out.count
        for (id, contact) in contacts where contact.role == .finger {
            guard let anchor = contact.pressAnchor, distance(contact.current, anchor) < settings.clickingFingerDistance / 2
            else { continue }
            out.append(
                Touch(
                    id: id, phase: .cancelled, position: contact.delivered, previousPosition: contact.delivered,
                    startPosition: contact.start, startTime: contact.startTime))
        }
        // Marked after the loop: changing `contacts` while iterating it would copy it.
        for index in first..<out.count { contacts[out[index].id]?.role = .clicking }
    }

    /// When a finger lands beside two others (touchpads at least 50 mm high): if the two
    /// lowest of them are more than ``TouchFilterSettings/thumbDiagonalWidth`` apart across
    /// and ``TouchFilterSettings/thumbDiagonalHeight`` apart vertically and the lower is a
    /// finger already down, that one is a thumb resting while the fingers work: it is taken
    /// out, its lift (or its cancel, if it is short enough to tap) to go before the frame —
    /// libinput's position-based thumb detection (`tp_thumb_update_multifinger`). Before the
    /// frame, because a recognizer holding two touches fails when a third begins.
    private mutating func suppressDiagonalThumb(before frame: Frame) -> [Touch] {
        guard isTouchpad, settings.thumbDiagonalWidth > 0, height >= Self.thumbDetectionMinimumHeight else { return [] }
        let landing = frame.touches.filter { touch in
            touch.phase == .began && !isPalm(touch) && !beginsPressing(touch) && !inEdgeBand(touch.position)
                && !inThumbBand(touch.position)
        }
        guard !landing.isEmpty else { return [] }
        let fingers = contacts.filter { $0.value.role == .finger }
        guard fingers.count + landing.count >= 3 else { return [] }
        var points: [(id: TouchID?, position: PhysicalPoint)] = fingers.map { ($0.key, $0.value.delivered) }
        points += landing.map { (nil, $0.position) }
        points.sort { $0.position.y > $1.position.y }
        guard let lowerID = points[0].id, let lower = contacts[lowerID],
            abs(points[0].position.x - points[1].position.x) > settings.thumbDiagonalWidth,
            abs(points[0].position.y - points[1].position.y) > settings.thumbDiagonalHeight
        else { return [] }
        contacts[lowerID]?.role = .thumb
        // As a lift, not a cancel, when it rested longer than a tap: a cancelled touch also
        // cancels the gesture its neighbours are starting.
        let phase: TouchPhase = frame.timestamp - lower.startTime > settings.scrollTapMaximumDuration ? .ended : .cancelled
        return [
            Touch(
                id: lowerID, phase: phase, position: lower.delivered, previousPosition: lower.delivered,
                startPosition: lower.start, startTime: lower.startTime)
        ]
    }

    /// libinput detects thumbs by position only on touchpads at least this high (mm).
    private static let thumbDetectionMinimumHeight = 50.0

    /// Notes a frame where two or more fingers are down and one that moved
    /// ``TouchFilterSettings/scrollTapTravel`` or more from its start moves.
    private mutating func noteMultiFingerMotion(_ delivered: [Touch], at now: Timestamp) {
        guard isTouchpad, settings.scrollTapWindow > 0 else { return }
        guard contacts.values.count(where: { $0.role == .finger }) + fakes.count >= 2 else { return }
        let moving = delivered.contains { touch in
            guard touch.phase == .moved, let contact = contacts[touch.id], contact.role == .finger else { return false }
            return distance(contact.delivered, contact.start) >= settings.scrollTapTravel
        }
        if moving { lastMultiFingerMotion = now }
    }

    /// A touchpad that tracks fewer contacts than it counts (2-slot Synaptics pads such as the
    /// Cr-48's report three fingers with `BTN_TOOL_TRIPLETAP` but only two slots) gets the
    /// missing fingers as fake touches that follow the topmost finger, as libinput's
    /// `tp_position_fake_touches` does: a two-finger scroll beside a palm that takes one slot
    /// is still two fingers. Palms and held-back contacts are never copied: fakes follow a
    /// delivered finger, and end when there is none.
    private mutating func synthesizeFakeFingers(_ frame: Frame, into out: inout [Touch]) {
        var wanted = 0
        // Slots tracked: the slot count (protocol B), one (single-touch pads such as old PS/2
        // Synaptics, which count fingers with BTN_TOOL_DOUBLETAP…), or every contact
        // (protocol A reports them all).
        let slotCount = device.axis(.absMTSlot) != nil ? device.slotCount : 1
        let tracksSlots = device.axis(.absMTSlot) != nil || device.axis(.absMTPositionX) == nil
        if settings.synthesizesUntrackedFingers, isTouchpad, tracksSlots, let count = frame.fingerCount,
            count > slotCount
        {
            wanted = count - max(contacts.count, slotCount)
        }
        // The topmost finger (the first of equals, as `min(by:)` picks).
        var source: Contact?
        for contact in contacts.values where contact.role == .finger {
            if let topmost = source, !(contact.delivered.y < topmost.delivered.y) { continue }
            source = contact
        }
        if source == nil { wanted = 0 }
        while fakes.count > wanted {
            let fake = fakes.removeLast()
            let ended = Touch(
                id: fake.id, slot: slotCount, trackingID: -1, phase: .ended, position: fake.position,
                previousPosition: fake.position, startPosition: fake.startPosition, startTime: fake.startTime)
            // Its lift waits like a real finger's, so fingers lifting together end together.
            if settings.liftDelay > 0 {
                let contact = Contact(
                    role: .finger, start: fake.startPosition, startTime: fake.startTime, travel: 0,
                    hysteresis: PositionHysteresis(radius: settings.hysteresis, position: fake.position),
                    delivered: fake.position)
                pendingLifts[fake.id] = PendingLift(
                    touches: [ended], position: fake.position, startPosition: fake.startPosition,
                    startTime: fake.startTime, time: frame.timestamp, contact: contact,
                    deadline: frame.timestamp.adding(seconds: settings.liftDelay))
            } else {
                out.append(ended)
            }
        }
        guard let source else { return }
        for index in fakes.indices {
            let previous = fakes[index].position
            fakes[index].position = source.delivered
            out.append(
                Touch(
                    id: fakes[index].id, slot: slotCount, trackingID: -1,
                    phase: previous == source.delivered ? .stationary : .moved, position: source.delivered,
                    previousPosition: previous, startPosition: fakes[index].startPosition,
                    startTime: fakes[index].startTime))
        }
        while fakes.count < wanted {
            let id = TouchID(Self.fakeIDBase + nextFakeID)
            nextFakeID += 1
            fakes.append(FakeFinger(id: id, position: source.delivered, startPosition: source.delivered, startTime: frame.timestamp))
            out.append(
                Touch(id: id, slot: slotCount, trackingID: -1, phase: .began, position: source.delivered, startTime: frame.timestamp))
        }
    }

    /// A contact held in an edge band that landed together with another finger close to it
    /// (in the band too, or just outside it) is one of two fingers starting a scroll from the
    /// edge ("scroll from right to left", "scroll down" from the top edge); palms land one at
    /// a time, or on opposite sides.
    private func hasEdgePartner(_ id: TouchID, _ contact: Contact) -> Bool {
        for (otherID, other) in contacts where otherID != id {
            guard other.role == .edgeCandidate || other.role == .finger else { continue }
            guard abs(other.startTime - contact.startTime) <= settings.edgeReleaseTime,
                distance(other.start, contact.start) <= settings.edgePairDistance
            else { continue }
            return true
        }
        return false
    }

    /// A held-back contact becomes a finger: delivered as beginning here and now.
    private func release(_ touch: Touch, _ contact: inout Contact, at now: Timestamp) -> Touch {
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
    private func deliver(_ touch: Touch, _ contact: inout Contact) -> Touch {
        var out = touch
        out.previousPosition = contact.delivered
        let unjumped = contact.jump.position(for: touch.position)
        if contact.box == nil && settings.boxSize > 0 { contact.box = BoxFilter(size: settings.boxSize, position: contact.delivered) }
        out.position = contact.box != nil ? contact.box!.update(unjumped) : contact.hysteresis.update(unjumped)
        if out.phase == .moved && out.position == out.previousPosition { out.phase = .stationary }
        if out.phase == .stationary && out.position != out.previousPosition { out.phase = .moved }
        contact.delivered = out.position
        return out
    }
}

func distance(_ a: PhysicalPoint, _ b: PhysicalPoint) -> Double {
    let dx = a.x - b.x
    let dy = a.y - b.y
    return (dx * dx + dy * dy).squareRoot()
}
