/// What kind of object a contact is (`ABS_MT_TOOL_TYPE`).
public enum ToolType: String, Sendable, Hashable {
    case finger
    case pen
    case palm
}

/// The phase of a touch in one frame (spec §2.3).
public enum TouchPhase: String, Sendable, Hashable {
    case began
    case moved
    case stationary
    case ended
    case cancelled
}

/// Engine touch identity: a serial assigned by the ``FrameAssembler``, never reused.
public struct TouchID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: TouchID, b: TouchID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// One contact as it stands at the end of a frame (spec §2.3 touch record).
public struct Touch: Hashable, Sendable {
    public var id: TouchID
    /// Kernel slot (0 for single-touch devices).
    public var slot: Int
    /// Kernel tracking id (informational; reused by the kernel).
    public var trackingID: Int32
    public var phase: TouchPhase
    /// Position in device units.
    public var devicePosition: DevicePoint
    /// Position in millimetres.
    public var position: PhysicalPoint
    /// Position in millimetres at the end of the previous frame.
    public var previousPosition: PhysicalPoint
    public var startPosition: PhysicalPoint
    public var startTime: Timestamp
    public var toolType: ToolType
    /// `ABS_MT_PRESSURE` (or `ABS_PRESSURE`) in device units, when the device reports it.
    public var pressure: Int32?
    /// `ABS_MT_TOUCH_MAJOR` / `MINOR` in millimetres, when reported.
    public var touchMajorMillimeters: Double?
    public var touchMinorMillimeters: Double?
    /// `ABS_MT_ORIENTATION` in device units (kernel convention: 0 = major axis along y), when
    /// reported.
    public var orientation: Int32? = nil
    /// What the touch filter decided about this contact, with the reason (empty from the
    /// assembler): recognizers read these instead of guessing from phases.
    public var flags = TouchFlags()

    public init(
        id: TouchID,
        slot: Int = 0,
        trackingID: Int32 = 0,
        phase: TouchPhase,
        devicePosition: DevicePoint = DevicePoint(x: 0, y: 0),
        position: PhysicalPoint,
        previousPosition: PhysicalPoint? = nil,
        startPosition: PhysicalPoint? = nil,
        startTime: Timestamp,
        toolType: ToolType = .finger,
        pressure: Int32? = nil,
        touchMajorMillimeters: Double? = nil,
        touchMinorMillimeters: Double? = nil,
        orientation: Int32? = nil
    ) {
        self.id = id
        self.slot = slot
        self.trackingID = trackingID
        self.phase = phase
        self.devicePosition = devicePosition
        self.position = position
        self.previousPosition = previousPosition ?? position
        self.startPosition = startPosition ?? position
        self.startTime = startTime
        self.toolType = toolType
        self.pressure = pressure
        self.touchMajorMillimeters = touchMajorMillimeters
        self.touchMinorMillimeters = touchMinorMillimeters
        self.orientation = orientation
    }
}

/// Why the touch filter took a contact out of the gestures (libinput's `enum
/// touch_palm_state`: PALM_PRESSURE, PALM_TOUCH_SIZE, PALM_EDGE, PALM_TOOL_PALM…). A touch
/// carrying one is delivered `cancelled` once (spec §2.5: a tracked touch that turns into a
/// palm is cancelled) and never again.
public enum PalmReason: String, Sendable, Hashable, CaseIterable {
    /// The device said so (`ABS_MT_TOOL_TYPE` = `MT_TOOL_PALM`).
    case tool
    /// Pressed as hard as a palm (``TouchFilterSettings/palmPressure``).
    case pressure
    /// Its touch major reached ``TouchFilterSettings/palmTouchMajor``.
    case touchSize
    /// Landed already pressing as a palm lands (a quirk's ``TouchFilterSettings/palmPressureAtBegin``).
    case landingPressure
    /// Landed where a palm just lifted (``TouchFilterSettings/palmMemoryTime``).
    case palmMemory
    /// Kept vanishing and coming back (``TouchFilterSettings/flickerLimit``).
    case flicker
    /// Its centre jumped back and forth (``TouchFilterSettings/palmReversalCount``).
    case wobble
    /// Rested in an edge band past ``TouchFilterSettings/edgeReleaseTime``.
    case edge
    /// The lower of two fingers far apart when a third landed: a resting thumb.
    case thumb
    /// Held the physical button still while another finger dragged.
    case clickingFinger
}

/// Why a short contact must not count as a tap. A touch carrying one ends `ended`, as it
/// did; the tap recognizer fails on it (and nothing else cares).
public enum NoTapReason: String, Sendable, Hashable, CaseIterable {
    /// Began during or just after a multi-finger motion (``TouchFilterSettings/scrollTapWindow``).
    case afterScroll
    /// Never pressed ``TouchFilterSettings/tapMinimumPressure``.
    case tooLight
    /// Down only while the device said nothing touches (`BTN_TOUCH` up).
    case hovering
    /// Ended while the finger count held: the tracking lost it, it did not lift.
    case trackingLost
    /// Landed together with a contact held in an edge band: the hand landing.
    case handLanding
    /// Seen in one frame, alone, shorter than ``TouchFilterSettings/minimumLoneTapDuration``.
    case glitch
    /// Landed as a nearby contact lost ``TouchFilterSettings/splitPressureDrop`` of its pressure.
    case split
    /// Was down while the physical button was pressed: a click.
    case click
    /// A palm landed again where it lifted (``TouchFilterSettings/palmReturnWait``).
    case palmReturned
}

/// The touch filter's decisions about one contact.
public struct TouchFlags: Hashable, Sendable, CustomStringConvertible {
    public var palm: PalmReason?
    public var noTap: NoTapReason?
    public init(palm: PalmReason? = nil, noTap: NoTapReason? = nil) {
        self.palm = palm
        self.noTap = noTap
    }
    public var isEmpty: Bool { palm == nil && noTap == nil }
    /// `palm(.pressure)`, `noTap(.afterScroll)`, both, or empty.
    public var description: String {
        var parts: [String] = []
        if let palm { parts.append("palm(.\(palm.rawValue))") }
        if let noTap { parts.append("noTap(.\(noTap.rawValue))") }
        return parts.joined(separator: " ")
    }
}

/// Everything between two `SYN_REPORT`s, as touches with phases (spec §2.2).
public struct Frame: Hashable, Sendable {
    /// The `SYN_REPORT` time, made monotonic by the assembler.
    public var timestamp: Timestamp
    /// Every touch active in this frame (including stationary ones and those ending or
    /// cancelled now), ordered by touch id.
    public var touches: [Touch]
    /// Fingers the device says are down (`BTN_TOOL_*` / `BTN_TOUCH`), which may exceed the slot
    /// count on touchpads; `nil` when the device does not report it.
    public var fingerCount: Int?
    /// A physical button (`BTN_LEFT`, clickpad click) is held.
    public var isButtonPressed: Bool
    /// Made by the assembler rather than the kernel (SYN_DROPPED recovery, device removal).
    public var isSynthetic: Bool

    public init(
        timestamp: Timestamp,
        touches: [Touch],
        fingerCount: Int? = nil,
        isButtonPressed: Bool = false,
        isSynthetic: Bool = false
    ) {
        self.timestamp = timestamp
        self.touches = touches
        self.fingerCount = fingerCount
        self.isButtonPressed = isButtonPressed
        self.isSynthetic = isSynthetic
    }

    public func touches(in phase: TouchPhase) -> [Touch] { touches.filter { $0.phase == phase } }

    /// True when some touch began, moved, ended or was cancelled.
    public var hasChanges: Bool { touches.contains { $0.phase != .stationary } }
}
