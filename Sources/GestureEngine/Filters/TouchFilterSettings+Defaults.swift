/// The settings' initializer (every threshold with its default, documented on the property)
/// and the pressure judgement, kept apart from the declarations so that neither file grows
/// past a screenful of reading.
extension TouchFilterSettings {
    public init(
        isEnabled: Bool = true,
        palmPressure: Double? = 130,
        pressureMeaning: Bool? = nil,
        palmTouchMajor: Double = 25,
        palmPressureAtBegin: Double? = nil,
        edgeBandFraction: Double = 0.08,
        edgeBandMaximum: Double = 8,
        edgeMinimumWidth: Double = 70,
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
        self.edgeBandMaximum = edgeBandMaximum
        self.edgeMinimumWidth = edgeMinimumWidth
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
    /// (libinput's palm pressure threshold).
    static let pressureScaleReach = 130.0
}
