/// The chains of stages, one per device kind, assembled once when a ``TouchFilter`` is made
/// for a device (libinput's touchpad and fallback dispatchers; libgestures' interpreter
/// chain). The order is the order in which libinput's `tp_palm_detect` asks its predicates,
/// framed by what must come first (a landing that continues a held lift is no new contact)
/// and last (what is delivered, through the jitter filters).
extension TouchFilter {
    static func chain(for device: DeviceDescription, settings: TouchFilterSettings, facts: FilterDeviceFacts) -> StageChain {
        facts.isTouchpad ? touchpadChain(device, settings, facts) : touchscreenChain(settings, facts)
    }

    /// Palms by what a contact reports, the clicking finger, the jitter filters: a
    /// touchscreen has no bands, no lifts to debounce, no taps to guard.
    private static func touchscreenChain(_ settings: TouchFilterSettings, _ facts: FilterDeviceFacts) -> StageChain {
        StageChain(
            palm: PalmStage(settings: settings, facts: facts),
            clickFinger: ClickFingerStage(settings: settings),
            jitter: JitterStage(settings: settings))
    }

    private static func touchpadChain(
        _ device: DeviceDescription, _ settings: TouchFilterSettings, _ facts: FilterDeviceFacts
    ) -> StageChain {
        let bands = FilterBands(settings: settings, width: facts.width, height: facts.height)
        let semiMT = device.properties.contains(.semiMT) && settings.enables(.semiMTCountChange)
        return StageChain(
            liftDebounce: LiftDebounceStage(settings: settings, facts: facts),
            semiMT: semiMT ? SemiMTStage() : nil,
            palmWobble: facts.reportsContacts ? PalmWobbleStage(settings: settings) : nil,
            palm: PalmStage(settings: settings, facts: facts),
            thumb: ThumbStage(settings: settings, bands: bands, rules: PalmRules(settings: settings, facts: facts)),
            edgeBand: EdgeBandStage(settings: settings, bands: bands),
            landingHold: LandingHoldStage(settings: settings, facts: facts),
            clickFinger: ClickFingerStage(settings: settings),
            fakeFinger: FakeFingerStage(settings: settings, facts: facts),
            tapGuard: TapGuardStage(settings: settings, facts: facts),
            jitter: JitterStage(settings: settings))
    }
}
