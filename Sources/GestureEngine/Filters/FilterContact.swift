/// What the touch filter currently makes of a contact.
enum ContactRole: Sendable {
    /// Delivered to the engine.
    case finger
    /// Began in an edge band; not delivered yet (``EdgeBandStage``).
    case edgeCandidate
    /// Began in the thumb band; not delivered yet (``ThumbStage``).
    case thumbCandidate
    /// Began without a known pressure on a pad whose pressure channel works (a slot that
    /// has sent none yet); not delivered until it sends one (``LandingHoldStage``).
    case pressureCandidate
    /// Never (again) delivered; the reason is the contact's ``FilterContact/palmReason``.
    case palm
    /// Held the physical button down, still, while another finger dragged: not delivered
    /// any more (``ClickFingerStage``; libinput excludes the clicking finger from motion alike).
    case clicking
    /// The lower of two fingers far apart diagonally when a finger landed: a thumb, not
    /// delivered any more (``ThumbStage``, libinput's position-based thumb detection).
    case thumb

    /// Held back, not delivered yet, but may still become a finger.
    var isCandidate: Bool { self == .edgeCandidate || self == .thumbCandidate || self == .pressureCandidate }
}

/// One contact as the filter tracks it, shared by the stages (libinput's `struct tp_touch`).
struct FilterContact: Sendable {
    var role: ContactRole
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
    /// Ended having pressed the button, where a click is no tap (``ClickFingerStage``).
    var clicked = false
    /// Why its lift is no tap (the first reason found).
    var noTap: NoTapReason?
    /// Why it is a palm (role ``ContactRole/palm``, ``ContactRole/thumb`` or ``ContactRole/clicking``).
    var palmReason: PalmReason?
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

    init(role: ContactRole, start: PhysicalPoint, startTime: Timestamp, hysteresis: PositionHysteresis) {
        self.role = role
        self.start = start
        self.startTime = startTime
        self.travel = 0
        self.hysteresis = hysteresis
        self.delivered = start
    }

    /// Records a no-tap reason unless one is already known.
    mutating func denyTap(_ reason: NoTapReason) {
        if noTap == nil { noTap = reason }
    }

    /// Makes it a palm (or a thumb, or a clicking finger) for the given reason.
    mutating func makePalm(_ reason: PalmReason) {
        role = reason == .thumb ? .thumb : reason == .clickingFinger ? .clicking : .palm
        palmReason = reason
    }
}

/// A touch as it left the filter, with its flags (a palm's reason on its cancel).
extension Touch {
    func withdrawn(at position: PhysicalPoint, reason: PalmReason) -> Touch {
        var cancelled = self
        cancelled.phase = .cancelled
        cancelled.position = position
        cancelled.previousPosition = position
        cancelled.flags.palm = reason
        return cancelled
    }
}

func distance(_ a: PhysicalPoint, _ b: PhysicalPoint) -> Double {
    let dx = a.x - b.x
    let dy = a.y - b.y
    return (dx * dx + dy * dy).squareRoot()
}
