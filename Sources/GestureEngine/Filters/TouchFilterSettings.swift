/// Each rule of the ``TouchFilter``, so that each can be switched off alone
/// (``TouchFilterSettings/disabledRules``): every one has a test that fails without it.
enum FilterRule: UInt64, CaseIterable, Sendable {
    case toolPalm, pressurePalm, sizePalm, landingPressure, palmMemory, wobble
    case edgeBand, edgePartner, edgeFingerMajor, handLanding
    case thumbBand, diagonalThumb
    case unknownPressure, palmConfirm
    case liftDebounce, flicker, palmReturn
    case fakeFingers, clickNoTap, clickingFinger
    case afterScroll, tooLight, split, hovering, trackingLost, glitch, heldTap
    case hysteresis
}

/// Thresholds of the ``TouchFilter``: lengths in millimetres, times in seconds, pressures in
/// the device's own units (absolute, as libinput's `AttrPalmPressureThreshold`). The defaults
/// come from the labelled recordings (docs/evaluation.md) and libinput's touchpad palm and
/// thumb detection; gestured.conf(5) `[TouchFilter]` sets them, the quirks files
/// (``DeviceQuirks``) change them per device.
public struct TouchFilterSettings: Hashable, Sendable {
    /// Master switch: off, frames pass through untouched.
    public var isEnabled: Bool
    /// A contact whose pressure reaches this (device units) is a palm (nil = no pressure
    /// test), on a device whose pressure means pressure (``pressureIsPressure(on:)``).
    /// Fingers on the ChromeOS touchpads stay at or below 127 (of 0…255, a hard click
    /// included); palms reach 176–255. libinput's default is 130; 141 is the 0.55 × 255 the
    /// labelled recordings were tuned with.
    public var palmPressure: Double?
    /// Whether the device's pressure axis reports pressure (true) or something else, such as
    /// contact area (false); nil: the default rule of ``pressureIsPressure(on:)``. Set by a
    /// quirk (`AttrPressureIsPressure=`).
    public var pressureMeaning: Bool?
    /// A contact whose touch major reaches this many millimetres is a palm (libinput's
    /// `AttrPalmSizeThreshold` is set per device; a fingertip is 8–14 mm, a palm 25 mm and
    /// more).
    public var palmTouchMajor: Double
    /// A contact that *begins* with this pressure (device units) is a palm (nil = no test,
    /// the default: alex's fingers land at up to 120 of 255). Set by a quirk
    /// (`AttrPalmPressureAtLanding=`) where fingers land light and palms come back already
    /// pressing.
    public var palmPressureAtBegin: Double?
    /// Touchpads: width of the left and right bands (fraction of the surface width) where a
    /// new contact is held back as a possible palm (libinput: 8 %).
    public var edgeBandFraction: Double
    /// Touchpads taller than ``topEdgeMinimumHeight`` (mm): height of the top band (fraction
    /// of the surface height) where a new contact is held back like one in a side band; it
    /// becomes a finger if it leaves the band downward within ``edgeReleaseTime`` (libinput:
    /// 5 % on touchpads over 55 mm high). 0 = off.
    public var topEdgeBandFraction: Double
    public var topEdgeMinimumHeight: Double
    /// Touchpads that report contact size in mm: a contact held in an edge band whose touch
    /// major stayed below this (mm) is a finger when it leaves the band, however long it
    /// rested there (fingertips measure 8–14 mm, a robot's finger 12.7 mm at the most, a palm
    /// 25 mm and more). 0 = off: the edge release time alone decides.
    public var edgeFingerMajor: Double
    /// Touchpads: how long a contact that began in an edge band may take to move out of it
    /// toward the middle and count as a finger (libinput: 200 ms).
    public var edgeReleaseTime: Double
    /// Touchpads: two contacts beginning within ``edgeReleaseTime`` of each other in the same
    /// edge band and at most this far apart (mm) are two fingers (a scroll from the edge).
    public var edgePairDistance: Double
    /// Touchpads: height of the bottom band (fraction of the surface height) where a new
    /// contact is held back as a possible resting thumb (libinput's lower thumb line: 15 %).
    public var thumbBandFraction: Double
    /// Touchpads: travel (mm) after which a held-back thumb-band contact counts as a finger
    /// even inside the band. Infinity by default: the labelled thumbs move all along the band
    /// (up to 90 mm), so only leaving the band upward makes a finger.
    public var thumbReleaseDistance: Double
    /// A held-back contact that lifts within this time (and moved less than
    /// ``heldTapMovement``) is delivered after all, as a short touch: a tap in the band.
    public var heldTapDuration: Double
    /// Travel (mm) allowed to a held-back contact delivered as a tap.
    public var heldTapMovement: Double
    /// Position hysteresis (mm): a resting contact's delivered position moves only when the
    /// sensor position leaves a circle of this radius around it, which absorbs the jitter of
    /// resting fingers; a moving contact passes through unchanged (``PositionHysteresis``).
    public var hysteresis: Double
    /// Finger-count smoothing (touchpads): a lifted finger's end is held back this long (s); a contact
    /// that begins within ``reappearDistance`` of it meanwhile continues it (a sensor that
    /// dropped the finger for a frame or two). 0 = off.
    public var liftDelay: Double
    /// Millimetres within which a new contact continues a just-lifted one.
    public var reappearDistance: Double
    /// A contact that disappears and reappears this many times is unstable: a palm (the
    /// 2012 Pixel prototype reports palms as contacts flickering at one spot).
    public var flickerLimit: Int
    /// A contact beginning within ``palmMemoryDistance`` mm of where a palm was, less than
    /// this long (s) after it lifted, is the same palm back.
    public var palmMemoryTime: Double
    public var palmMemoryDistance: Double
    /// On a touchpad with a trusted pressure range, a contact landing alone has its motion held
    /// back this long (s), or until a second finger lands, while its pressure shows whether it
    /// is a palm: palms land light and reach palm pressure within ~130 ms, after moving the
    /// pointer by up to 5 mm on the way.
    public var palmConfirmTime: Double
    /// While the physical button is held: once a finger has dragged this far (mm) from where
    /// it was at the press, fingers that moved less than half of it are clicking fingers and
    /// are taken out. 0 = off.
    public var clickingFingerDistance: Double
    /// A finger that was down while the physical button was pressed ends `cancelled`, not
    /// `ended`, so the click is not also a tap (FailsOnButtonPress only stops a gesture from
    /// beginning while the button is held; a tap is recognized at the lift, after it).
    public var clicksCancelTouches: Bool
    /// Touchpads reporting more fingers (`BTN_TOOL_*`) than they have slots get the untracked
    /// ones as fake touches following the topmost finger (libinput's fake touches).
    public var synthesizesUntrackedFingers: Bool
    /// Touchpads: a contact held back in the thumb band becomes a finger once it rises above
    /// this fraction of the height from the bottom (≥ ``thumbBandFraction``; hysteresis).
    public var thumbExitFraction: Double
    /// Touchpads whose pressure means pressure: a contact whose pressure stays below this
    /// (device units) is no tap (nil = off). Labelled finger taps press 25–38 of 255 at the
    /// least, a thumb hovering and brushing the surface 6–8.
    public var tapMinimumPressure: Double?
    /// Touchpads: a contact beginning while two or more fingers move (a scroll), or less than
    /// this long (s) after they last did, is not a tap: if it lifts within
    /// ``scrollTapMaximumDuration`` it ends `cancelled`. 0 = off.
    public var scrollTapWindow: Double
    /// Travel (mm) from its start a finger of the multi-finger motion must have made.
    public var scrollTapTravel: Double
    /// The longest contact (s) ``scrollTapWindow`` takes as a tap to suppress; longer ones end
    /// normally (the touchpad tap limit, 250 ms).
    public var scrollTapMaximumDuration: Double
    /// Touchpads: a contact alone on the pad whose sensor position jumps back and forth this
    /// many times (steps of at least ``palmReversalStep`` mm in two successive frames, the
    /// second turning back by more than 120°) is a palm (0 = off). A palm's centre wobbles by
    /// 2–3 mm from frame to frame on pads that report no contact size; a finger slows down
    /// before it turns (0 of 495 labelled finger contacts of lumpy and link do this once).
    /// Off by default since the sixth pass: the rules added since take out every palm it
    /// took out in the corpus, and a thumb dragged along the edge, its centre jittering
    /// 2–3 mm across the stroke, turned back the same way (`drag_edge_thumb.horizontal`).
    public var palmReversalCount: Int
    /// The smallest step (mm between two frames) that counts toward ``palmReversalCount``.
    public var palmReversalStep: Double
    /// Where ``palmPressureAtBegin`` is set: a short touch (≤ ``scrollTapMaximumDuration``)
    /// that pressed that hard has its lift held back this long (s, unless a new contact
    /// lands first); a contact landing already pressing within ``reappearDistance`` of it
    /// meanwhile is a palm come back, and the lift is `cancelled` (no tap). 0 = off.
    public var palmReturnWait: Double
    /// Touchpads (≥ 50 mm high): when a finger lands and the two lowest fingers are more than
    /// this far apart across (mm) and ``thumbDiagonalHeight`` apart vertically, the lower one
    /// is a thumb (libinput: 35 and 25 mm). 0 = off.
    public var thumbDiagonalWidth: Double
    public var thumbDiagonalHeight: Double
    /// Touchpads: a contact seen in one frame only and down for less than this (s), with no
    /// other finger down meanwhile, is no tap (it ends `cancelled`): labelled finger taps last
    /// 43 ms and more, or come in 3 frames or more (a 14 ms playback tap); palms on the 2012
    /// Cypress pads flicker as one-frame contacts of 13–17 ms. 0 = off.
    public var minimumLoneTapDuration: Double
    /// Sensor jumps (``SensorJumpFilter``): a step of at least this many mm on an axis that
    /// turns back or comes suddenly moves the sensor position, not the delivered one. 0 = off
    /// (the default); the Cypress quirk sets 1 mm, as the ChromiumOS library does for it.
    public var sensorJumpStep: Double
    /// A box of this size (mm) filters every delivered contact, moving or not (``BoxFilter``),
    /// in place of the position hysteresis. 0 = off (the default); the Cypress quirk sets
    /// 1 mm, as the ChromiumOS library does for it.
    public var boxSize: Double
    /// A contact confirmed alone after ``palmConfirmTime`` moves on from where it landed: the
    /// motion held back meanwhile is dropped instead of delivered as one jump. Off by default
    /// (a quick flick would lose its start); the Cypress quirk sets it, whose palms move 5 mm
    /// and more before their pressure shows them.
    public var dropsConfirmedMotion: Bool
    /// A touchpad contact whose slot has sent no pressure yet, on a pad whose pressure channel
    /// works, is held back until it sends one (then judged like any other): a finger's
    /// pressure changes from frame to frame, so an unknown one is a recording that began
    /// mid-session or a contact the pad does not measure.
    public var holdsUnknownPressure: Bool
    /// Touchpads: a contact beginning within ``splitDistance`` mm of a contact whose pressure
    /// fell by this fraction or more in the same frame is a piece of that one, split off by
    /// the sensor: it makes no tap (0 = off). A second finger landing takes no pressure from
    /// the first.
    public var splitPressureDrop: Double
    public var splitDistance: Double

    public init(
        isEnabled: Bool = true,
        palmPressure: Double? = 141,
        pressureMeaning: Bool? = nil,
        palmTouchMajor: Double = 25,
        palmPressureAtBegin: Double? = nil,
        edgeBandFraction: Double = 0.08,
        topEdgeBandFraction: Double = 0.05,
        topEdgeMinimumHeight: Double = 55,
        edgeFingerMajor: Double = 15,
        edgeReleaseTime: Double = 0.2,
        edgePairDistance: Double = 35,
        thumbBandFraction: Double = 0.15,
        thumbReleaseDistance: Double = .infinity,
        heldTapDuration: Double = 0.15,
        heldTapMovement: Double = 2,
        hysteresis: Double = 0.5,
        liftDelay: Double = 0.04,
        reappearDistance: Double = 8,
        flickerLimit: Int = 2,
        palmMemoryTime: Double = 0.5,
        palmMemoryDistance: Double = 30,
        palmConfirmTime: Double = 0.15,
        clickingFingerDistance: Double = 4,
        clicksCancelTouches: Bool = true,
        synthesizesUntrackedFingers: Bool = true,
        thumbExitFraction: Double = 0.2,
        tapMinimumPressure: Double? = 16,
        scrollTapWindow: Double = 0.3,
        scrollTapTravel: Double = 3,
        scrollTapMaximumDuration: Double = 0.25,
        palmReversalCount: Int = 0,
        palmReversalStep: Double = 1,
        palmReturnWait: Double = 0,
        thumbDiagonalWidth: Double = 35,
        thumbDiagonalHeight: Double = 25,
        minimumLoneTapDuration: Double = 0.025,
        sensorJumpStep: Double = 0,
        boxSize: Double = 0,
        dropsConfirmedMotion: Bool = false,
        holdsUnknownPressure: Bool = true,
        splitPressureDrop: Double = 0.4,
        splitDistance: Double = 15
    ) {
        self.isEnabled = isEnabled
        self.palmPressure = palmPressure
        self.pressureMeaning = pressureMeaning
        self.palmTouchMajor = palmTouchMajor
        self.palmPressureAtBegin = palmPressureAtBegin
        self.edgeBandFraction = edgeBandFraction
        self.topEdgeBandFraction = topEdgeBandFraction
        self.topEdgeMinimumHeight = topEdgeMinimumHeight
        self.edgeFingerMajor = edgeFingerMajor
        self.edgeReleaseTime = edgeReleaseTime
        self.edgePairDistance = edgePairDistance
        self.thumbBandFraction = thumbBandFraction
        self.thumbReleaseDistance = thumbReleaseDistance
        self.heldTapDuration = heldTapDuration
        self.heldTapMovement = heldTapMovement
        self.hysteresis = hysteresis
        self.liftDelay = liftDelay
        self.reappearDistance = reappearDistance
        self.flickerLimit = flickerLimit
        self.palmMemoryTime = palmMemoryTime
        self.palmMemoryDistance = palmMemoryDistance
        self.palmConfirmTime = palmConfirmTime
        self.clickingFingerDistance = clickingFingerDistance
        self.clicksCancelTouches = clicksCancelTouches
        self.synthesizesUntrackedFingers = synthesizesUntrackedFingers
        self.thumbExitFraction = thumbExitFraction
        self.tapMinimumPressure = tapMinimumPressure
        self.scrollTapWindow = scrollTapWindow
        self.scrollTapTravel = scrollTapTravel
        self.scrollTapMaximumDuration = scrollTapMaximumDuration
        self.palmReversalCount = palmReversalCount
        self.palmReversalStep = palmReversalStep
        self.palmReturnWait = palmReturnWait
        self.thumbDiagonalWidth = thumbDiagonalWidth
        self.thumbDiagonalHeight = thumbDiagonalHeight
        self.minimumLoneTapDuration = minimumLoneTapDuration
        self.sensorJumpStep = sensorJumpStep
        self.boxSize = boxSize
        self.dropsConfirmedMotion = dropsConfirmedMotion
        self.holdsUnknownPressure = holdsUnknownPressure
        self.splitPressureDrop = splitPressureDrop
        self.splitDistance = splitDistance
    }

    /// Rules switched off one by one, as bits of ``FilterRule`` (empty in use): the tests
    /// switch each off in turn and require its own scenario to change.
    var disabledRules: UInt64 = 0

    /// Whether `rule` is on.
    @inline(__always) func enables(_ rule: FilterRule) -> Bool { disabledRules & (1 << rule.rawValue) == 0 }

    /// Everything off: the identity filter.
    public static let disabled = TouchFilterSettings(isEnabled: false)

    /// Whether `device`'s pressure axis means pressure, so that pressure thresholds apply:
    /// what a quirk says (``pressureMeaning``), else whether the axis can reach the palm
    /// threshold. That default is libinput's behaviour made explicit: libinput compares
    /// `ABS_MT_PRESSURE` with an absolute 130 unless a quirk says otherwise, so on an axis
    /// that cannot reach it (the HID touchpads of the shared descriptions, Logitech's T650
    /// and Wireless Touchpad, report 0…50, contact area rather than force) no finger is ever
    /// a palm by pressure — and here no tap is too light either. Every PS/2 and ChromeOS
    /// touchpad of the shared descriptions reports 0…255.
    public func pressureIsPressure(on device: DeviceDescription) -> Bool {
        if let pressureMeaning { return pressureMeaning }
        guard let axis = device.axis(.absMTPressure) ?? device.axis(.absPressure) else { return false }
        return Double(axis.maximum) >= (palmPressure ?? Self.pressureScaleReach)
    }

    /// Where no palm pressure is set, the reach that makes an axis a pressure axis by default
    /// (the 0.55 × 255 the thresholds were tuned on).
    static let pressureScaleReach = 141.0
}
