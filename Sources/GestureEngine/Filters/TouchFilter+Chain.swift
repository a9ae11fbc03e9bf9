/// The chains of stages, one per device kind, assembled once when a ``TouchFilter`` is made
/// for a device (libinput's touchpad and fallback dispatchers; libgestures' interpreter
/// chain). The order is the order in which libinput's `tp_palm_detect` asks its predicates,
/// framed by what must come first (a landing that continues a held lift is no new contact)
/// and last (what is delivered, through the jitter filters).
extension TouchFilter {
    static func chain(for device: DeviceDescription, settings: TouchFilterSettings, facts: FilterDeviceFacts) -> [any TouchFilterStage] {
        facts.isTouchpad ? touchpadChain(device, settings, facts) : touchscreenChain(settings, facts)
    }

    /// Palms by what a contact reports, the clicking finger, the jitter filters: a
    /// touchscreen has no bands, no lifts to debounce, no taps to guard.
    private static func touchscreenChain(_ settings: TouchFilterSettings, _ facts: FilterDeviceFacts) -> [any TouchFilterStage] {
        [
            PalmStage(settings: settings, facts: facts),
            ClickFingerStage(settings: settings),
            JitterStage(settings: settings),
        ]
    }

    private static func touchpadChain(
        _ device: DeviceDescription, _ settings: TouchFilterSettings, _ facts: FilterDeviceFacts
    ) -> [any TouchFilterStage] {
        let bands = FilterBands(settings: settings, width: facts.width, height: facts.height)
        var chain: [any TouchFilterStage] = [LiftDebounceStage(settings: settings, facts: facts)]
        if device.properties.contains(.semiMT) && settings.enables(.semiMTCountChange) { chain.append(SemiMTStage()) }
        if facts.reportsContacts { chain.append(PalmWobbleStage(settings: settings)) }
        chain += [
            PalmStage(settings: settings, facts: facts),
            ThumbStage(settings: settings, bands: bands, rules: PalmRules(settings: settings, facts: facts)),
            EdgeBandStage(settings: settings, bands: bands),
            LandingHoldStage(settings: settings, facts: facts),
            ClickFingerStage(settings: settings),
            FakeFingerStage(settings: settings, facts: facts),
            TapGuardStage(settings: settings, facts: facts),
            JitterStage(settings: settings),
        ]
        return chain
    }
}
