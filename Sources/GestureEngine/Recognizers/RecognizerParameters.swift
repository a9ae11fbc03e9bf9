// Every parameter of spec §4 with its default (spec §0.2). Lengths in millimetres, times in
// seconds, angles in radians. The config module maps INI keys onto these fields one to one.

/// Tap (spec §4.1).
public struct TapParameters: Hashable, Sendable {
    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1
    /// Centroid drift and offset of later taps from the first, mm (×sloppiness).
    public var allowableMovement = 7.012
    public var maximumTapDuration = 0.75
    public var maximumIntervalBetweenTaps = 0.35
    /// Bounding-box diagonal of the fingers, mm; `.infinity` = off.
    public var allowableSeparation = Double.infinity
    /// All required fingers down within this span; `nil` = `maximumTapDuration` (off).
    public var allowableTouchTimeSeparation: Double? = nil
    public var minimumTapDuration = 0.0
    /// The tap timer starts again when a further finger of the tap lands, so the duration is
    /// measured from the last landing (libinput's tap state machine re-arms its timeout on
    /// each finger down). Off by default (UIKit measures from the first); the touchpad policy
    /// turns it on.
    public var restartsTimerOnLanding = false
    public init() {}
}

/// Long press (spec §4.2).
public struct LongPressParameters: Hashable, Sendable {
    public var minimumPressDuration = 0.5
    /// mm, before began only (no ×sloppiness, as UIKit).
    public var allowableMovement = 1.558
    public var numberOfTouchesRequired = 1
    public var numberOfTapsRequired = 0
    /// A long press that has begun does not exclude a gesture of finger motion (pan, swipe,
    /// pinch, rotation, edge pan) on its touches, so when the fingers go on to move that
    /// gesture is still recognized, and its commit cancels the long press (spec §5.4's
    /// exclusion, the other way round). Off by default (UIKit, spec §5.6: a begun long press
    /// fails the pan); the touchpad policy turns it on, as libinput's touchpad hold is
    /// cancelled when a scroll, swipe or pinch begins (DESIGN.md "Engine and arbitration" › "The touchpad's device policy").
    public var yieldsToMotion = false
    public init() {}
}

/// Pan (spec §4.3).
public struct PanParameters: Hashable, Sendable {
    public var minimumNumberOfTouches = 1
    public var maximumNumberOfTouches = Int.max
    /// Per-axis translation before began, mm (×sloppiness).
    public var hysteresis = 1.558
    public var failsPastMaxTouches = true
    public var allowsHorizontal = true
    public var allowsVertical = true
    public var velocityStaleInterval = 0.1
    /// While fewer than `minimumNumberOfTouches` are held, the translation does not grow (the
    /// reference follows the centroid). The spec (§4.3) keeps it; on by default since issue 12:
    /// the motion of one finger before the second lands is no part of a two-finger pan (on a
    /// touchpad it moved the pointer; on a touchscreen it may begin a pinch whose second
    /// finger came late), DESIGN.md "Engine and arbitration" › "Arbitration on real landings".
    public var tracksOnlyWithMinimumTouches = true
    public init() {}
}

/// Screen-edge pan (spec §4.4).
public struct EdgePanParameters: Hashable, Sendable {
    /// Empty = never recognizes (UIKit default).
    public var edges: Set<Edge> = []
    public var maximumNumberOfTouches = 1
    public var hysteresis = 2.337
    public var edgeRegion = 2.026
    /// Fail when the start point is farther than this from every configured edge, mm.
    public var startBand = 5.142
    /// Half-width of the direction window around the inward normal, radians (77.5°).
    public var angleWindow = 77.5 * Double.pi / 180
    public init() {}
}

/// Swipe (spec §4.5).
public struct SwipeParameters: Hashable, Sendable {
    /// Allowed directions (UIKit's mask); default right.
    public var directions: Set<Direction> = [.right]
    public var numberOfTouchesRequired = 1
    public var maximumDuration = 0.5
    public var minimumPrimaryMovement = 7.791
    public var maximumPrimaryMovement = Double.infinity
    public var minimumSecondaryMovement = 0.0
    public var maximumSecondaryMovement = 31.166
    public var rateOfMinimumMovementDecay = 0.06
    public var rateOfMaximumMovementDecay = 0.02
    public var wrongDirectionTolerance = 1.558
    /// mm/s; 0 = off.
    public var minimumPrimarySpeed = 0.0
    public init() {}
}

/// Pinch (spec §4.6).
public struct PinchParameters: Hashable, Sendable {
    /// Change of finger distance before began, mm.
    public var hysteresis = 1.247
    public var endsOnSingleTouch = false
    /// Number of fingers whose span is measured (2 by the spec; more uses the mean deviation).
    public var numberOfTouchesRequired = 2
    /// Count only span changes made while every finger moves, two fingers in opposite
    /// directions, toward the hysteresis (libinput's pinch-versus-scroll rule). Off by the
    /// spec (one finger may anchor a pinch on a touchscreen); ``GesturePipeline`` turns it on
    /// for touchpads, where two fingers moving together or beside a resting one scroll
    /// (docs/evaluation.md).
    public var requiresOpposingMotion = false
    /// Do not begin while the fingers have moved more together than relative to each other
    /// since the pair formed (``TrackedTouches/isTranslationDominant``): two fingers swiping
    /// with one lagging change their distance without pinching. On by default, on every
    /// device (DESIGN.md "Engine and arbitration" › "Arbitration on real landings"; spec §4.6 leaves a dominance check
    /// off).
    public var ignoresTranslation = true
    public init() {}
}

/// Rotation (spec §4.7).
public struct RotationParameters: Hashable, Sendable {
    /// Base angle hysteresis, radians (5°); the stretch term adds up to the same again.
    public var angleHysteresis = 5.0 * Double.pi / 180
    public var numberOfTouchesRequired = 2
    /// Do not begin while the fingers have moved more together than relative to each other
    /// since the pair formed: two fingers swiping up with the second landing 12 ms late tilt
    /// the pair by 17° without turning it. On by default (spec §4.7 leaves a dominance check
    /// off; see ``PinchParameters/ignoresTranslation``).
    public var ignoresTranslation = true
    public init() {}
}

/// Tickle, the custom example of spec §9.
public struct TickleParameters: Hashable, Sendable {
    public var minimumTravel = 3.896
    public var requiredStrokes = 3
    public init() {}
}
