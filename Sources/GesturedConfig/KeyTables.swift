import GestureEngine

/// A configuration key: its name, which gesture kinds it applies to (nil = every kind, or a
/// section without kinds), and how it parses its value into the target.
struct KeySpec<Target>: Sendable {
    var name: String
    var kinds: [KindName]?
    var apply: @Sendable (inout Target, String) throws(ValueError) -> Void

    init(
        _ name: String,
        _ kinds: [KindName]? = nil,
        _ apply: @escaping @Sendable (inout Target, String) throws(ValueError) -> Void
    ) {
        self.name = name
        self.kinds = kinds
        self.apply = apply
    }
}

/// The `Kind=` values of `[Gesture]` sections.
enum KindName: String, CaseIterable, Sendable {
    case tap
    case longPress = "long_press"
    case pan
    case swipe
    case pinch
    case rotation
    case edgePan = "edge_pan"
    case tickle

    /// The recognizer with the engine's default parameters.
    var defaultKind: RecognizerKind {
        switch self {
        case .tap: .tap(TapParameters())
        case .longPress: .longPress(LongPressParameters())
        case .pan: .pan(PanParameters())
        case .swipe: .swipe(SwipeParameters())
        case .pinch: .pinch(PinchParameters())
        case .rotation: .rotation(RotationParameters())
        case .edgePan: .edgePan(EdgePanParameters())
        case .tickle: .tickle(TickleParameters())
        }
    }

    /// The config name of a recognizer kind; nil for custom recognizers added in code.
    init?(_ kind: RecognizerKind) {
        switch kind {
        case .tap: self = .tap
        case .longPress: self = .longPress
        case .pan: self = .pan
        case .swipe: self = .swipe
        case .pinch: self = .pinch
        case .rotation: self = .rotation
        case .edgePan: self = .edgePan
        case .tickle: self = .tickle
        case .custom: return nil
        }
    }
}

/// Upper bound for finger counts: more fingers than any hand pair puts on a surface.
let fingerRange = 1...20

typealias GestureKey = KeySpec<RecognizerConfiguration>

/// Keys of `[Gesture NAME]` sections. `Kind=` is handled by the parser itself (it must be
/// known before the kind-specific keys can be applied) but is listed so that typos of it get
/// a suggestion.
let gestureKeys: [GestureKey] = [
    GestureKey("Kind") { _, value throws(ValueError) in
        _ = try ValueParsing.enumList(value, "gesture kind", KindName.allCases.map { ($0.rawValue, $0) })
    },
    // Common keys (RecognizerConfiguration and RecognizerPolicy).
    GestureKey("Region") { c, v throws(ValueError) in c.region = try ValueParsing.region(v) },
    GestureKey("Priority") { c, v throws(ValueError) in c.priority = try ValueParsing.integer(v, in: -1000...1000) },
    GestureKey("Enabled") { c, v throws(ValueError) in c.isEnabled = try ValueParsing.boolean(v) },
    // Read by the parser into `Configuration.gesturesWhenLocked` (not a recognizer setting).
    GestureKey("WhenLocked") { _, v throws(ValueError) in _ = try ValueParsing.boolean(v) },
    GestureKey("DeviceKinds") { c, v throws(ValueError) in c.policy.deviceKinds = try ValueParsing.deviceKinds(v) },
    GestureKey("Tools") { c, v throws(ValueError) in
        let tools = try ValueParsing.tools(v)
        guard !tools.isEmpty else { throw ValueError("Tools= must name at least one tool", hint: "e.g. finger") }
        c.policy.toolTypes = tools
    },
    GestureKey("MinFingers") { c, v throws(ValueError) in
        c.policy.minimumFingers = try ValueParsing.integer(v, in: fingerRange)
    },
    GestureKey("MaxFingers") { c, v throws(ValueError) in
        c.policy.maximumFingers = try ValueParsing.integerOrInfinity(v, in: fingerRange)
    },
    GestureKey("FailsOnButtonPress") { c, v throws(ValueError) in
        c.policy.failsOnButtonPress = try ValueParsing.boolean(v)
    },
    GestureKey("RequireFailureOf") { c, v throws(ValueError) in c.requiresFailureOf = ValueParsing.list(v) },
    GestureKey("RecognizeSimultaneouslyWith") { c, v throws(ValueError) in
        c.recognizesSimultaneouslyWith = ValueParsing.list(v)
    },
    GestureKey("CancelsTouches") { c, v throws(ValueError) in c.cancelsTouchesInView = try ValueParsing.boolean(v) },
    GestureKey("DelaysTouchesBegan") { c, v throws(ValueError) in c.delaysTouchesBegan = try ValueParsing.boolean(v) },
    GestureKey("DelaysTouchesEnded") { c, v throws(ValueError) in c.delaysTouchesEnded = try ValueParsing.boolean(v) },

    // Shared by several kinds.
    GestureKey("Taps", [.tap, .longPress]) { c, v throws(ValueError) in
        switch c.kind {
        case .tap(var p):
            p.numberOfTapsRequired = try ValueParsing.integer(v, in: 1...10)
            c.kind = .tap(p)
        case .longPress(var p):
            // A long press after N taps (UIKit's numberOfTapsRequired, 0 = a plain press).
            p.numberOfTapsRequired = try ValueParsing.integer(v, in: 0...10)
            c.kind = .longPress(p)
        default: break
        }
    },
    GestureKey("Fingers", [.tap, .longPress, .swipe, .pinch, .rotation]) { c, v throws(ValueError) in
        switch c.kind {
        case .tap(var p):
            p.numberOfTouchesRequired = try ValueParsing.integer(v, in: fingerRange)
            c.kind = .tap(p)
        case .longPress(var p):
            p.numberOfTouchesRequired = try ValueParsing.integer(v, in: fingerRange)
            c.kind = .longPress(p)
        case .swipe(var p):
            p.numberOfTouchesRequired = try ValueParsing.integer(v, in: fingerRange)
            c.kind = .swipe(p)
        case .pinch(var p):
            p.numberOfTouchesRequired = try ValueParsing.integer(v, in: 2...20)
            c.kind = .pinch(p)
        case .rotation(var p):
            p.numberOfTouchesRequired = try ValueParsing.integer(v, in: 2...20)
            c.kind = .rotation(p)
        default: break
        }
    },
    GestureKey("AllowableMovement", [.tap, .longPress]) { c, v throws(ValueError) in
        switch c.kind {
        case .tap(var p):
            p.allowableMovement = try ValueParsing.length(v)
            c.kind = .tap(p)
        case .longPress(var p):
            p.allowableMovement = try ValueParsing.length(v)
            c.kind = .longPress(p)
        default: break
        }
    },
    GestureKey("Hysteresis", [.pan, .edgePan, .pinch]) { c, v throws(ValueError) in
        switch c.kind {
        case .pan(var p):
            p.hysteresis = try ValueParsing.length(v)
            c.kind = .pan(p)
        case .edgePan(var p):
            p.hysteresis = try ValueParsing.length(v)
            c.kind = .edgePan(p)
        case .pinch(var p):
            p.hysteresis = try ValueParsing.length(v)
            c.kind = .pinch(p)
        default: break
        }
    },
    GestureKey("MaximumNumberOfTouches", [.pan, .edgePan]) { c, v throws(ValueError) in
        switch c.kind {
        case .pan(var p):
            p.maximumNumberOfTouches = try ValueParsing.integerOrInfinity(v, in: fingerRange)
            c.kind = .pan(p)
        case .edgePan(var p):
            p.maximumNumberOfTouches = try ValueParsing.integerOrInfinity(v, in: fingerRange)
            c.kind = .edgePan(p)
        default: break
        }
    },

    // Tap.
    tapKey("MaximumTapDuration") { p, v throws(ValueError) in p.maximumTapDuration = try ValueParsing.duration(v) },
    tapKey("MaximumIntervalBetweenTaps") { p, v throws(ValueError) in
        p.maximumIntervalBetweenTaps = try ValueParsing.duration(v)
    },
    tapKey("AllowableSeparation") { p, v throws(ValueError) in
        p.allowableSeparation = try ValueParsing.lengthOrInfinity(v)
    },
    tapKey("AllowableTouchTimeSeparation") { p, v throws(ValueError) in
        p.allowableTouchTimeSeparation = v == "off" ? nil : try ValueParsing.duration(v)
    },
    tapKey("MinimumTapDuration") { p, v throws(ValueError) in p.minimumTapDuration = try ValueParsing.duration(v) },

    // Long press.
    GestureKey("MinimumPressDuration", [.longPress]) { c, v throws(ValueError) in
        guard case .longPress(var p) = c.kind else { return }
        p.minimumPressDuration = try ValueParsing.duration(v)
        c.kind = .longPress(p)
    },

    // Pan.
    panKey("MinimumNumberOfTouches") { p, v throws(ValueError) in
        p.minimumNumberOfTouches = try ValueParsing.integer(v, in: fingerRange)
    },
    panKey("FailsPastMaxTouches") { p, v throws(ValueError) in p.failsPastMaxTouches = try ValueParsing.boolean(v) },
    panKey("AllowsHorizontal") { p, v throws(ValueError) in p.allowsHorizontal = try ValueParsing.boolean(v) },
    panKey("AllowsVertical") { p, v throws(ValueError) in p.allowsVertical = try ValueParsing.boolean(v) },
    panKey("VelocityStaleInterval") { p, v throws(ValueError) in p.velocityStaleInterval = try ValueParsing.duration(v)
    },

    // Edge pan.
    edgePanKey("Edges") { p, v throws(ValueError) in p.edges = try ValueParsing.edges(v) },
    edgePanKey("EdgeRegion") { p, v throws(ValueError) in p.edgeRegion = try ValueParsing.length(v) },
    edgePanKey("StartBand") { p, v throws(ValueError) in p.startBand = try ValueParsing.length(v) },
    edgePanKey("AngleWindow") { p, v throws(ValueError) in
        let angle = try ValueParsing.angle(v)
        guard angle <= Double.pi else { throw ValueError("AngleWindow= is a half-width and must be at most 180deg") }
        p.angleWindow = angle
    },

    // Swipe.
    swipeKey("Directions") { p, v throws(ValueError) in
        let directions = try ValueParsing.directions(v)
        guard !directions.isEmpty else {
            throw ValueError("Directions= must name at least one direction", hint: "e.g. left,right")
        }
        p.directions = directions
    },
    swipeKey("MaximumDuration") { p, v throws(ValueError) in p.maximumDuration = try ValueParsing.duration(v) },
    swipeKey("MinimumPrimaryMovement") { p, v throws(ValueError) in
        p.minimumPrimaryMovement = try ValueParsing.length(v)
    },
    swipeKey("MaximumPrimaryMovement") { p, v throws(ValueError) in
        p.maximumPrimaryMovement = try ValueParsing.lengthOrInfinity(v)
    },
    swipeKey("MinimumSecondaryMovement") { p, v throws(ValueError) in
        p.minimumSecondaryMovement = try ValueParsing.length(v)
    },
    swipeKey("MaximumSecondaryMovement") { p, v throws(ValueError) in
        p.maximumSecondaryMovement = try ValueParsing.lengthOrInfinity(v)
    },
    swipeKey("RateOfMinimumMovementDecay") { p, v throws(ValueError) in
        p.rateOfMinimumMovementDecay = try ValueParsing.plainNumber(v)
    },
    swipeKey("RateOfMaximumMovementDecay") { p, v throws(ValueError) in
        p.rateOfMaximumMovementDecay = try ValueParsing.plainNumber(v)
    },
    swipeKey("WrongDirectionTolerance") { p, v throws(ValueError) in
        p.wrongDirectionTolerance = try ValueParsing.length(v)
    },
    swipeKey("MinimumPrimarySpeed") { p, v throws(ValueError) in p.minimumPrimarySpeed = try ValueParsing.speed(v) },

    // Pinch.
    GestureKey("EndsOnSingleTouch", [.pinch]) { c, v throws(ValueError) in
        guard case .pinch(var p) = c.kind else { return }
        p.endsOnSingleTouch = try ValueParsing.boolean(v)
        c.kind = .pinch(p)
    },

    // Rotation.
    GestureKey("AngleHysteresis", [.rotation]) { c, v throws(ValueError) in
        guard case .rotation(var p) = c.kind else { return }
        p.angleHysteresis = try ValueParsing.angle(v)
        c.kind = .rotation(p)
    },

    // Tickle.
    GestureKey("MinimumTravel", [.tickle]) { c, v throws(ValueError) in
        guard case .tickle(var p) = c.kind else { return }
        p.minimumTravel = try ValueParsing.length(v)
        c.kind = .tickle(p)
    },
    GestureKey("RequiredStrokes", [.tickle]) { c, v throws(ValueError) in
        guard case .tickle(var p) = c.kind else { return }
        p.requiredStrokes = try ValueParsing.integer(v, in: 1...100)
        c.kind = .tickle(p)
    },
]

private func tapKey(_ name: String, _ f: @escaping @Sendable (inout TapParameters, String) throws(ValueError) -> Void)
    -> GestureKey
{
    GestureKey(name, [.tap]) { c, v throws(ValueError) in
        guard case .tap(var p) = c.kind else { return }
        try f(&p, v)
        c.kind = .tap(p)
    }
}

private func panKey(_ name: String, _ f: @escaping @Sendable (inout PanParameters, String) throws(ValueError) -> Void)
    -> GestureKey
{
    GestureKey(name, [.pan]) { c, v throws(ValueError) in
        guard case .pan(var p) = c.kind else { return }
        try f(&p, v)
        c.kind = .pan(p)
    }
}

private func edgePanKey(
    _ name: String,
    _ f: @escaping @Sendable (inout EdgePanParameters, String) throws(ValueError) -> Void
)
    -> GestureKey
{
    GestureKey(name, [.edgePan]) { c, v throws(ValueError) in
        guard case .edgePan(var p) = c.kind else { return }
        try f(&p, v)
        c.kind = .edgePan(p)
    }
}

private func swipeKey(
    _ name: String,
    _ f: @escaping @Sendable (inout SwipeParameters, String) throws(ValueError) -> Void
)
    -> GestureKey
{
    GestureKey(name, [.swipe]) { c, v throws(ValueError) in
        guard case .swipe(var p) = c.kind else { return }
        try f(&p, v)
        c.kind = .swipe(p)
    }
}

/// Keys of the `[Daemon]` section.
let daemonKeys: [KeySpec<DaemonSettings>] = [
    KeySpec("SocketPath") { d, v throws(ValueError) in
        guard v.hasPrefix("/") else { throw ValueError("SocketPath= must be an absolute path, found '\(v)'") }
        // sun_path holds 108 bytes including the terminating NUL.
        guard v.utf8.count <= 107 else {
            throw ValueError("SocketPath= is \(v.utf8.count) bytes; a socket path holds at most 107")
        }
        d.socketPath = v
    },
    KeySpec("SocketGroup") { d, v throws(ValueError) in
        guard !v.isEmpty else { throw ValueError("SocketGroup= must name a group") }
        d.socketGroup = v
    },
    KeySpec("SocketMode") { d, v throws(ValueError) in d.socketMode = try ValueParsing.mode(v) },
    KeySpec("AllowRawTouchesForGroup") { d, v throws(ValueError) in d.allowRawTouchesForGroup = v.isEmpty ? nil : v },
    KeySpec("AllowInputForActiveSession") { d, v throws(ValueError) in d.allowInputForActiveSession = try ValueParsing.boolean(v) },
    KeySpec("MaxClients") { d, v throws(ValueError) in d.maxClients = try ValueParsing.integer(v, in: 1...65_536) },
    KeySpec("ClientQueueSoft") { d, v throws(ValueError) in
        d.clientQueueSoft = try ValueParsing.integer(v, in: 1...1_048_576)
    },
    KeySpec("ClientQueueHard") { d, v throws(ValueError) in
        d.clientQueueHard = try ValueParsing.integer(v, in: 1...1_048_576)
    },
]

/// Keys of `[Device NAME]` sections (and of quirks files).
let deviceKeys: [KeySpec<DeviceRule>] = [
    KeySpec("MatchKind") { r, v throws(ValueError) in
        let kinds = try ValueParsing.enumList(v, "device kind", DeviceKind.allCases.map { ($0.rawValue, $0) })
        guard kinds.count == 1 else { throw ValueError("MatchKind= takes one kind: touchscreen or touchpad") }
        r.match.kind = kinds[0]
    },
    KeySpec("MatchName") { r, v throws(ValueError) in
        guard !v.isEmpty else { throw ValueError("MatchName= needs a pattern", hint: "use * to match every name") }
        r.match.namePattern = v
    },
    KeySpec("MatchVendor") { r, v throws(ValueError) in r.match.vendor = try ValueParsing.usbID(v) },
    KeySpec("MatchProduct") { r, v throws(ValueError) in r.match.product = try ValueParsing.usbID(v) },
    KeySpec("MatchUdevProperty") { r, v throws(ValueError) in
        var properties: [String: String] = [:]
        for item in v.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw ValueError("'\(item)' is not KEY=VALUE", hint: "e.g. MatchUdevProperty=ID_INPUT_TOUCHPAD=1")
            }
            properties[String(item[..<eq])] = String(item[item.index(after: eq)...])
        }
        guard !properties.isEmpty else { throw ValueError("MatchUdevProperty= needs at least one KEY=VALUE") }
        r.match.udevProperties = properties
    },
    KeySpec("Sloppiness") { r, v throws(ValueError) in r.sloppiness = try ValueParsing.plainNumber(v, positive: true) },
    KeySpec("MaxTouches") { r, v throws(ValueError) in r.maxTouches = try ValueParsing.integer(v, in: 1...64) },
    KeySpec("WidthMM") { r, v throws(ValueError) in r.widthMM = try sizeValue(v) },
    KeySpec("HeightMM") { r, v throws(ValueError) in r.heightMM = try sizeValue(v) },
    KeySpec("Gestures") { r, v throws(ValueError) in r.gestures = ValueParsing.list(v) },
    KeySpec("Disable") { r, v throws(ValueError) in r.disabled = try ValueParsing.boolean(v) },
    KeySpec("Grab") { r, v throws(ValueError) in
        let grab = try ValueParsing.boolean(v)
        if grab, r.match.kind == .touchpad {
            throw ValueError(
                "Grab=yes is for touchscreens only; touchpads cannot be grabbed yet",
                hint: "remove Grab= from this touchpad rule (libinput must keep reading a touchpad)")
        }
        r.grab = grab
    },
    KeySpec("Calibration") { r, v throws(ValueError) in
        let parts = v.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let numbers = parts.compactMap { Double($0) }
        guard numbers.count == parts.count, let calibration = Calibration(numbers) else {
            throw ValueError("'\(v)' is not six numbers", hint: "e.g. Calibration=1 0 0 0 -1 1 inverts Y (libinput's LIBINPUT_CALIBRATION_MATRIX)")
        }
        r.calibration = calibration
    },
]

/// `WidthMM=`/`HeightMM=` carry the unit in the key, so a bare number is millimetres; an
/// explicit `mm` is accepted too.
private func sizeValue(_ v: String) throws(ValueError) -> Double {
    let mm: Double
    if let (value, unit) = ValueParsing.splitNumber(v), unit.isEmpty {
        mm = value
    } else {
        mm = try ValueParsing.length(v)
    }
    guard mm > 0 else { throw ValueError("a surface size must be greater than 0mm") }
    return mm
}
