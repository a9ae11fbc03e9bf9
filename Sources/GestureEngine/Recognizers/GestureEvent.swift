/// The recognizer families (the wire's `kind`).
public enum GestureKind: Hashable, Sendable, CustomStringConvertible {
    case tap
    case longPress
    case pan
    case swipe
    case pinch
    case rotation
    case edgePan
    /// A custom recognizer's kind (for example `"tickle"`).
    case custom(String)

    /// snake_case spelling used on the wire and in config files.
    public var name: String {
        switch self {
        case .tap: "tap"
        case .longPress: "long_press"
        case .pan: "pan"
        case .swipe: "swipe"
        case .pinch: "pinch"
        case .rotation: "rotation"
        case .edgePan: "edge_pan"
        case .custom(let name): name
        }
    }

    public var description: String { name }
}

/// Recognizer states (spec §3.1). `recognized` is the discrete form of `ended`.
public enum GestureState: String, Sendable, Hashable, CaseIterable {
    case possible
    case began
    case changed
    case ended
    case cancelled
    case failed
    case recognized
}

/// A direction on the surface (y down).
public enum Direction: String, Sendable, Hashable, CaseIterable {
    case left
    case right
    case up
    case down
}

/// Edges of the surface.
public enum Edge: String, Sendable, Hashable, CaseIterable {
    case left
    case right
    case top
    case bottom
}

/// One action of a recognizer (spec §3.5, §3.6): a snapshot taken when the transition committed.
public struct GestureEvent: Hashable, Sendable {
    /// The configured name of the recognizer ("three-finger-swipe").
    public var name: String
    public var kind: GestureKind
    /// `began`, `changed`, `ended`, `cancelled` or `recognized`.
    public var state: GestureState
    public var timestamp: Timestamp
    /// Identifies one recognition attempt: began…ended share it; unique per engine.
    public var sequence: UInt64
    /// Held, not-ignored, not-ended touches (`numberOfTouches`).
    public var fingers: Int
    /// Centroid in millimetres.
    public var location: PhysicalPoint
    /// Centroid as a fraction of the surface (0…1).
    public var locationFraction: PhysicalPoint
    /// Tap count (tap), strokes (tickle).
    public var taps: Int?
    public var direction: Direction?
    public var edge: Edge?
    public var scale: Double?
    /// Radians, clockwise positive.
    public var rotation: Double?
    /// Millimetres, cumulative.
    public var translation: PhysicalPoint?
    /// Millimetres per second (pan family), or 1/s (pinch), rad/s (rotation) in `scalarVelocity`.
    public var velocity: PhysicalPoint?
    public var scalarVelocity: Double?
    /// Custom recognizers' extra values.
    public var values: [String: Double]
    /// Continuous gestures: ``translation`` minus the attempt's previous event's (mm; `began`
    /// counts from zero). Derived by the engine, as the next four.
    public var translationDelta: PhysicalPoint?
    /// ``translation`` as a fraction of the surface width and height.
    public var translationFraction: PhysicalPoint?
    /// Continuous gestures: ``scale`` minus the previous event's (`began` counts from 1).
    public var scaleDelta: Double?
    /// Continuous gestures: ``rotation`` minus the previous event's, radians.
    public var rotationDelta: Double?
    /// `ended` of a gesture with a translation and a velocity: where it would come to rest.
    public var fling: Fling?

    public init(
        name: String,
        kind: GestureKind,
        state: GestureState,
        timestamp: Timestamp,
        sequence: UInt64,
        fingers: Int,
        location: PhysicalPoint,
        locationFraction: PhysicalPoint = .zero,
        taps: Int? = nil,
        direction: Direction? = nil,
        edge: Edge? = nil,
        scale: Double? = nil,
        rotation: Double? = nil,
        translation: PhysicalPoint? = nil,
        velocity: PhysicalPoint? = nil,
        scalarVelocity: Double? = nil,
        values: [String: Double] = [:],
        translationDelta: PhysicalPoint? = nil,
        translationFraction: PhysicalPoint? = nil,
        scaleDelta: Double? = nil,
        rotationDelta: Double? = nil,
        fling: Fling? = nil
    ) {
        self.name = name
        self.kind = kind
        self.state = state
        self.timestamp = timestamp
        self.sequence = sequence
        self.fingers = fingers
        self.location = location
        self.locationFraction = locationFraction
        self.taps = taps
        self.direction = direction
        self.edge = edge
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
        self.velocity = velocity
        self.scalarVelocity = scalarVelocity
        self.values = values
        self.translationDelta = translationDelta
        self.translationFraction = translationFraction
        self.scaleDelta = scaleDelta
        self.rotationDelta = rotationDelta
        self.fling = fling
    }
}

/// A raw touch as forwarded to the sink (spec §7): what a client subscribed to raw touches sees.
public struct SinkTouchEvent: Hashable, Sendable {
    public var touch: TouchID
    /// `began`, `moved`, `ended` or `cancelled`.
    public var phase: TouchPhase
    public var timestamp: Timestamp
    public var position: PhysicalPoint
    /// The kernel slot the touch is reported in (0 on single-touch devices): where a uinput
    /// clone of the device finds the touch's raw values.
    public var slot: Int

    public init(touch: TouchID, phase: TouchPhase, timestamp: Timestamp, position: PhysicalPoint, slot: Int = 0) {
        self.touch = touch
        self.phase = phase
        self.timestamp = timestamp
        self.position = position
        self.slot = slot
    }
}

/// Everything an engine step can emit, in emission order.
public enum EngineOutput: Hashable, Sendable {
    case gesture(GestureEvent)
    case touch(SinkTouchEvent)
}
