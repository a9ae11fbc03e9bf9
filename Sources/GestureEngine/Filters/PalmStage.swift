/// Palms by tool, pressure, size, landing pressure and memory: libinput's
/// `tp_palm_detect_tool_triggered`, `_pressure_triggered`, `_touch_size_triggered`, each
/// naming its ``PalmReason``. In both chains; a contact it makes a palm is never delivered
/// again (a finger is withdrawn, `cancelled` with ``TouchFlags/palm``).
///
/// Pressure is judged only where the device's pressure means pressure
/// (``FilterDeviceFacts/pressureMaximum``, from the quirks): a HID pad reporting contact
/// area on a 0…50 axis would otherwise have every finger a palm. Sizes only where they are
/// millimetres (a resolution is known).
struct PalmStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let rules: PalmRules

    init(settings: TouchFilterSettings, facts: FilterDeviceFacts) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.rules = PalmRules(settings: settings, facts: facts)
    }

    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        let touch = step.touch
        // The device's pressure channel works (a device that declares a pressure axis but
        // never sends it is not judged by pressure).
        if !frame.table.pressureSeen, let pressure = touch.pressure, pressure > 0 { frame.table.pressureSeen = true }
        guard step.state == .judging else { return }
        switch touch.phase {
        case .began:
            if let reason = landingReason(touch, at: frame.now, memory: frame.table.palmMemory) { step.contact.makePalm(reason) }
        case .moved, .stationary:
            moved(&step, in: &frame)
        case .ended, .cancelled:
            if step.contact.role == .palm { frame.table.rememberPalm(touch.position, at: frame.now) }
        }
    }

    /// A finger turning palm is withdrawn; a held-back contact turning palm is never
    /// delivered. One held for its unknown pressure is judged, as a landing, by its first
    /// known pressure.
    private func moved(_ step: inout ContactStep, in frame: inout FilterFrame) {
        let touch = step.touch
        switch step.contact.role {
        case .finger:
            if let reason = rules.palmReason(touch) {
                step.contact.makePalm(reason)
                frame.out.append(touch.withdrawn(at: step.contact.delivered, reason: reason))
                step.state = .done
            }
        case .edgeCandidate, .thumbCandidate:
            if let reason = rules.palmReason(touch) { step.contact.makePalm(reason) }
        case .pressureCandidate:
            guard touch.pressure != nil else { return }
            if let reason = rules.palmReason(touch) ?? (rules.beginsPressing(touch) ? .landingPressure : nil) {
                step.contact.makePalm(reason)
            }
        case .palm, .clicking, .thumb:
            return
        }
    }

    func end(_ frame: inout FilterFrame) {
        guard !frame.table.palmMemory.isEmpty else { return }
        let memory = settings.palmMemoryTime
        let now = frame.now
        frame.table.palmMemory.removeAll { now - $0.time > memory }
    }

    /// Why a contact beginning now is a palm from the start, or nil.
    func landingReason(_ touch: Touch, at now: Timestamp, memory: [(position: PhysicalPoint, time: Timestamp)]) -> PalmReason? {
        if let reason = rules.palmReason(touch) { return reason }
        if rules.beginsPressing(touch) { return .landingPressure }
        if settings.enables(.palmMemory), memory.contains(where: {
            now - $0.time <= settings.palmMemoryTime && distance($0.position, touch.position) <= settings.palmMemoryDistance
        }) {
            return .palmMemory
        }
        return nil
    }
}

/// What a touch reports that makes it a palm: the predicates ``PalmStage`` judges contacts
/// by, which the stages that look ahead at a landing (``ThumbStage``, ``LiftDebounceStage``)
/// ask too. Pure: the settings and the device's facts.
struct PalmRules: Sendable, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let facts: FilterDeviceFacts

    init(settings: TouchFilterSettings, facts: FilterDeviceFacts) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.facts = facts
    }

    /// Why `touch` is a palm by what it reports now (tool, pressure, size), or nil.
    func palmReason(_ touch: Touch) -> PalmReason? {
        if touch.toolType == .palm && settings.enables(.toolPalm) { return .tool }
        if let threshold = settings.palmPressure, facts.pressureMaximum != nil, let pressure = touch.pressure,
            Double(pressure) >= threshold, settings.enables(.pressurePalm)
        {
            return .pressure
        }
        if facts.sizesTrusted, let major = touch.touchMajorMillimeters, major >= settings.palmTouchMajor, settings.enables(.sizePalm) {
            return .touchSize
        }
        return nil
    }

    /// The contact lands already pressing as a palm lands (``TouchFilterSettings/palmPressureAtBegin``).
    func beginsPressing(_ touch: Touch) -> Bool {
        guard let threshold = settings.palmPressureAtBegin, facts.pressureMaximum != nil, let pressure = touch.pressure,
            settings.enables(.landingPressure)
        else { return false }
        return Double(pressure) >= threshold
    }
}
