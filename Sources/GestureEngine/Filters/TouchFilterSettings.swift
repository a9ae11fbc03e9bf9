/// Thresholds of the ``TouchFilter``: lengths in millimetres, times in seconds, pressure as a
/// fraction of the device's pressure range. The defaults come from the labelled recordings
/// (docs/evaluation.md) and libinput's touchpad palm and thumb detection.
public struct TouchFilterSettings: Hashable, Sendable {
    /// Master switch: off, frames pass through untouched.
    public var isEnabled: Bool
    /// A contact whose pressure reaches this fraction of the pressure axis range is a palm
    /// (nil = no pressure test). Fingers on the ChromeOS touchpads stay below 0.4 (≤ 100/255,
    /// a hard click included); palms saturate the axis (255/255).
    public var palmPressureFraction: Double?
    /// A contact whose touch major reaches this many millimetres is a palm (libinput's
    /// `AttrPalmSizeThreshold` is set per device; a fingertip is 8–14 mm, a palm 25 mm and
    /// more).
    public var palmTouchMajor: Double
    /// Touchpads: width of the left and right bands (fraction of the surface width) where a
    /// new contact is held back as a possible palm (libinput: 8 %).
    public var edgeBandFraction: Double
    /// Touchpads: how long a contact that began in an edge band may take to move out of it
    /// toward the middle and count as a finger (libinput: 200 ms).
    public var edgeReleaseTime: Double
    /// Touchpads: height of the bottom band (fraction of the surface height) where a new
    /// contact is held back as a possible resting thumb (libinput's lower thumb line: 15 %).
    public var thumbBandFraction: Double
    /// Touchpads: travel (mm) after which a held-back thumb-band contact counts as a finger:
    /// resting thumbs wobble by 1–3 mm, fingers starting a scroll there move on.
    public var thumbReleaseDistance: Double
    /// A held-back contact that lifts within this time (and moved less than
    /// ``heldTapMovement``) is delivered after all, as a short touch: a tap in the band.
    public var heldTapDuration: Double
    /// Travel (mm) allowed to a held-back contact delivered as a tap.
    public var heldTapMovement: Double
    /// Position hysteresis (mm): a contact's delivered position moves only when the sensor
    /// position leaves a circle of this radius around it, which absorbs sensor jitter of
    /// resting fingers (libinput: a fraction of the axis fuzz, ~0.5 mm on touchpads).
    public var hysteresis: Double

    public init(
        isEnabled: Bool = true,
        palmPressureFraction: Double? = 0.75,
        palmTouchMajor: Double = 25,
        edgeBandFraction: Double = 0.08,
        edgeReleaseTime: Double = 0.2,
        thumbBandFraction: Double = 0.15,
        thumbReleaseDistance: Double = 5,
        heldTapDuration: Double = 0.25,
        heldTapMovement: Double = 2,
        hysteresis: Double = 0.3
    ) {
        self.isEnabled = isEnabled
        self.palmPressureFraction = palmPressureFraction
        self.palmTouchMajor = palmTouchMajor
        self.edgeBandFraction = edgeBandFraction
        self.edgeReleaseTime = edgeReleaseTime
        self.thumbBandFraction = thumbBandFraction
        self.thumbReleaseDistance = thumbReleaseDistance
        self.heldTapDuration = heldTapDuration
        self.heldTapMovement = heldTapMovement
        self.hysteresis = hysteresis
    }

    /// Everything off: the identity filter.
    public static let disabled = TouchFilterSettings(isEnabled: false)
}
