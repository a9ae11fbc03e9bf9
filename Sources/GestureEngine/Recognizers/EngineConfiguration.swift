/// Where on the surface a recognizer takes touches from (UIKit's view, spec §3.3).
public enum Region: Hashable, Sendable {
    /// The whole surface.
    case surface
    /// A band of `width` millimetres along an edge.
    case edge(Edge, width: Double)
    /// A rectangle in millimetres.
    case rectangle(PhysicalRect)
    /// A rectangle in fractions (0…1) of the surface: x, y, width, height.
    case fraction(x: Double, y: Double, width: Double, height: Double)

    /// True when `point` (mm) lies in this region on a surface of `width`×`height` mm.
    public func contains(_ point: PhysicalPoint, surfaceWidth: Double, surfaceHeight: Double) -> Bool {
        switch self {
        case .surface:
            return true
        case .edge(let edge, let band):
            switch edge {
            case .left: return point.x <= band
            case .right: return point.x >= surfaceWidth - band
            case .top: return point.y <= band
            case .bottom: return point.y >= surfaceHeight - band
            }
        case .rectangle(let rect):
            return rect.contains(point)
        case .fraction(let x, let y, let w, let h):
            return PhysicalRect(x: x * surfaceWidth, y: y * surfaceHeight, width: w * surfaceWidth, height: h * surfaceHeight)
                .contains(point)
        }
    }

    /// Area in mm², used to order regions innermost first.
    public func area(surfaceWidth: Double, surfaceHeight: Double) -> Double {
        switch self {
        case .surface: surfaceWidth * surfaceHeight
        case .edge(let edge, let band): (edge == .left || edge == .right ? surfaceHeight : surfaceWidth) * band
        case .rectangle(let rect): rect.width * rect.height
        case .fraction(_, _, let w, let h): w * surfaceWidth * h * surfaceHeight
        }
    }
}

/// The recognizer and its parameters.
public enum RecognizerKind: Hashable, Sendable {
    case tap(TapParameters)
    case longPress(LongPressParameters)
    case pan(PanParameters)
    case swipe(SwipeParameters)
    case pinch(PinchParameters)
    case rotation(RotationParameters)
    case edgePan(EdgePanParameters)
    /// The tickle example of spec §9, instantiated as a ``TickleRecognizer`` (a custom
    /// recognizer built through the public ``CustomRecognizer`` protocol).
    case tickle(TickleParameters)
    /// Any user-written recognizer (spec §4.8).
    case custom(AnyCustomRecognizer)

    /// The fewest fingers this kind can begin with (its required or minimum number of
    /// touches; two for pinch and rotation).
    public var minimumFingers: Int {
        switch self {
        case .tap(let p): p.numberOfTouchesRequired
        case .longPress(let p): p.numberOfTouchesRequired
        case .pan(let p): p.minimumNumberOfTouches
        case .swipe(let p): p.numberOfTouchesRequired
        case .pinch(let p): max(p.numberOfTouchesRequired, 2)
        case .rotation(let p): max(p.numberOfTouchesRequired, 2)
        case .edgePan, .tickle, .custom: 1
        }
    }

    /// The most fingers this kind works with: its required number for pinch, rotation and
    /// long press, its maximum for pans; no limit otherwise.
    public var maximumFingers: Int {
        switch self {
        case .longPress(let p): p.numberOfTouchesRequired
        case .pan(let p): p.maximumNumberOfTouches
        case .edgePan(let p): p.maximumNumberOfTouches
        case .pinch(let p): max(p.numberOfTouchesRequired, 2)
        case .rotation(let p): max(p.numberOfTouchesRequired, 2)
        case .tap, .swipe, .tickle, .custom: Int.max
        }
    }

    /// Discrete kinds emit one `recognized`; continuous ones began…ended.
    public var isDiscrete: Bool {
        switch self {
        case .tap, .swipe, .tickle: true
        case .longPress, .pan, .pinch, .rotation, .edgePan: false
        case .custom(let box): box.recognizer.isDiscrete
        }
    }

    public var gestureKind: GestureKind {
        switch self {
        case .tap: .tap
        case .longPress: .longPress
        case .pan: .pan
        case .swipe: .swipe
        case .pinch: .pinch
        case .rotation: .rotation
        case .edgePan: .edgePan
        case .tickle: .custom("tickle")
        case .custom(let box): box.recognizer.kind
        }
    }
}

/// should-begin and should-receive-touch policies as data (spec §3.4).
public struct RecognizerPolicy: Hashable, Sendable {
    /// Receive only touches of these tool types.
    public var toolTypes: Set<ToolType> = [.finger]
    /// Begin only on these device kinds; empty = any.
    public var deviceKinds: Set<DeviceKind> = []
    /// Begin only when the number of touches is within this range.
    public var minimumFingers: Int = 1
    public var maximumFingers: Int = Int.max
    /// Do not begin while a physical button (clickpad click) is pressed.
    public var failsOnButtonPress = true
    public init() {}
}

/// One configured gesture: a named recognizer with its region, policies and relations.
public struct RecognizerConfiguration: Hashable, Sendable {
    public var name: String
    public var kind: RecognizerKind
    public var region: Region = .surface
    /// Engine order: higher first, then declaration order (spec §5.1).
    public var priority: Int = 0
    public var isEnabled = true
    public var policy = RecognizerPolicy()
    /// Names of recognizers that must fail before this one may begin (require(toFail:)).
    public var requiresFailureOf: [String] = []
    /// Names of recognizers this one may be recognized together with.
    public var recognizesSimultaneouslyWith: [String] = []
    public var cancelsTouchesInView = true
    public var delaysTouchesBegan = false
    public var delaysTouchesEnded = true

    public init(name: String, kind: RecognizerKind) {
        self.name = name
        self.kind = kind
        if case .edgePan = kind { delaysTouchesBegan = true }
    }
}

/// Everything that configures one engine instance.
public struct EngineConfiguration: Hashable, Sendable {
    public var recognizers: [RecognizerConfiguration]
    /// Touches above this count never exist for recognizers (spec §2.4).
    public var maxTouches = 10
    /// Multiplier for the thresholds marked ×s (spec §0.1).
    public var sloppiness = 1.0
    /// Seconds from the first touch of a sequence during which fingers still landing count as
    /// one landing: a recognizer that would begin (or be recognized) with fewer fingers than a
    /// competitor on the same touches needs waits at most this long for that competitor to
    /// fail, and fails itself when another finger lands (DESIGN.md "Engine and arbitration" ›
    /// "Arbitration on real landings"). 0 = off (spec §5.3).
    public var settlingWindow = EngineConfiguration.defaultSettlingWindow
    /// Seconds from the first touch of a sequence during which a continuous recognizer that
    /// would begin with fewer fingers than a possible competitor on its touches needs waits too
    /// (at most this long, within ``settlingWindow``): a drag that passed its hysteresis 10 ms
    /// after the first finger does not begin before a second finger landing 25 ms after it.
    /// Later in the window it begins at once and yields to a landing. 0 = never waits.
    public var continuousSettling = EngineConfiguration.defaultContinuousSettling
    /// Seconds a continuous gesture in progress may hold a finger count outside its range
    /// (fewer than its minimum, more than its maximum, some fingers still down) before it is
    /// cancelled: the finger count changed in a way that ends it, and a shell snaps back.
    /// Fingers that all lift within this time end it as usual. `.infinity` = never (spec §4.3,
    /// §4.6: a pan re-bases, a pinch waits for its pair). DESIGN.md "Engine and arbitration" ›
    /// "Finger changes during a gesture".
    public var fingerChangeTimeout = EngineConfiguration.defaultFingerChangeTimeout

    /// The default ``settlingWindow``: 0.1 s, libinput's debounce of finger-count changes. In
    /// the labelled corpus every two-finger tap and pinch lands within 61 ms, three- and
    /// four-finger swipes land over 66–155 ms (median 74 ms; docs/evaluation.md has the measurement).
    public static let defaultSettlingWindow = 0.1

    /// The default ``continuousSettling``: 0.04 s. In the labelled corpus 187 of 318
    /// multi-finger landings (median 21 ms) complete within 40 ms (docs/evaluation.md); a one-finger
    /// drag waits at most that long from its first touch, usually less, since it needs
    /// 10–20 ms to pass its hysteresis anyway.
    public static let defaultContinuousSettling = 0.04

    /// The default ``fingerChangeTimeout``: 0.1 s, libinput's `DEFAULT_GESTURE_SWITCH_TIMEOUT`
    /// (a touchpad gesture whose finger count changed and stayed changed that long is
    /// cancelled; all fingers lifting at once end it).
    public static let defaultFingerChangeTimeout = 0.1

    public init(
        recognizers: [RecognizerConfiguration] = [],
        maxTouches: Int = 10,
        sloppiness: Double = 1.0,
        settlingWindow: Double = EngineConfiguration.defaultSettlingWindow,
        continuousSettling: Double = EngineConfiguration.defaultContinuousSettling,
        fingerChangeTimeout: Double = EngineConfiguration.defaultFingerChangeTimeout
    ) {
        self.recognizers = recognizers
        self.maxTouches = maxTouches
        self.sloppiness = sloppiness
        self.settlingWindow = settlingWindow
        self.continuousSettling = continuousSettling
        self.fingerChangeTimeout = fingerChangeTimeout
    }
}
