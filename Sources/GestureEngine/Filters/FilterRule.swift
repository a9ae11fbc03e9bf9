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
    case hysteresis, semiMTCountChange
}

extension TouchFilterSettings {
    /// Whether `rule` is on.
    @inline(__always) func enables(_ rule: FilterRule) -> Bool { disabledRules & (1 << rule.rawValue) == 0 }
}
