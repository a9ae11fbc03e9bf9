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
