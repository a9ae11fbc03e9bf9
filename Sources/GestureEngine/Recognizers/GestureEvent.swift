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
///
/// The recognizer's own values are embedded as it reported them (``reported``, one
/// ``GestureValues``), not copied field by field; the engine adds the name, kind, state, time,
/// sequence and what it derives (location fraction, deltas, fling). The wire encoder reads
/// ``reported`` directly. The accessors below (``fingers``, ``location``, ...) read and write
/// it for callers that think in one flat event.
public struct GestureEvent: Hashable, Sendable {
    /// The configured name of the recognizer ("three-finger-swipe").
    public var name: String
    public var kind: GestureKind
    /// `began`, `changed`, `ended`, `cancelled` or `recognized`.
    public var state: GestureState
    public var timestamp: Timestamp
    /// Identifies one recognition attempt: began…ended share it; unique per engine.
    public var sequence: UInt64
    /// What the recognizer reported with the action (fingers, location, taps, direction,
    /// edge, scale, rotation, translation, velocity, scalar velocity, custom values).
    public var reported: GestureValues
    /// Centroid as a fraction of the surface (0…1).
    public var locationFraction: PhysicalPoint
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

    /// An event around the recognizer's values as they are (the engine's way).
    public init(
        name: String,
        kind: GestureKind,
        state: GestureState,
        timestamp: Timestamp,
        sequence: UInt64,
        reported: GestureValues,
        locationFraction: PhysicalPoint = .zero
    ) {
        self.name = name
        self.kind = kind
        self.state = state
        self.timestamp = timestamp
        self.sequence = sequence
        self.reported = reported
        self.locationFraction = locationFraction
    }

    /// An event from each value (tests and tools).
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
        self.init(
            name: name, kind: kind, state: state, timestamp: timestamp, sequence: sequence,
            reported: GestureValues(
                fingers: fingers, location: location, taps: taps, direction: direction, edge: edge, scale: scale, rotation: rotation,
                translation: translation, velocity: velocity, scalarVelocity: scalarVelocity, values: values),
            locationFraction: locationFraction)
        self.translationDelta = translationDelta
        self.translationFraction = translationFraction
        self.scaleDelta = scaleDelta
        self.rotationDelta = rotationDelta
        self.fling = fling
    }

    // MARK: The reported values, flat

    /// Held, not-ignored, not-ended touches (`numberOfTouches`); on a continuous gesture's
    /// `ended`, the fingers it held at its previous event (the engine fills it in).
    public var fingers: Int {
        get { reported.fingers }
        set { reported.fingers = newValue }
    }
    /// Centroid in millimetres.
    public var location: PhysicalPoint {
        get { reported.location }
        set { reported.location = newValue }
    }
    /// Tap count (tap), strokes (tickle).
    public var taps: Int? {
        get { reported.taps }
        set { reported.taps = newValue }
    }
    public var direction: Direction? {
        get { reported.direction }
        set { reported.direction = newValue }
    }
    public var edge: Edge? {
        get { reported.edge }
        set { reported.edge = newValue }
    }
    public var scale: Double? {
        get { reported.scale }
        set { reported.scale = newValue }
    }
    /// Radians, clockwise positive.
    public var rotation: Double? {
        get { reported.rotation }
        set { reported.rotation = newValue }
    }
    /// Millimetres, cumulative.
    public var translation: PhysicalPoint? {
        get { reported.translation }
        set { reported.translation = newValue }
    }
    /// Millimetres per second (pan family), or 1/s (pinch), rad/s (rotation) in `scalarVelocity`.
    public var velocity: PhysicalPoint? {
        get { reported.velocity }
        set { reported.velocity = newValue }
    }
    public var scalarVelocity: Double? {
        get { reported.scalarVelocity }
        set { reported.scalarVelocity = newValue }
    }
    /// Custom recognizers' extra values.
    public var values: [String: Double] {
        get { reported.values }
        set { reported.values = newValue }
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
