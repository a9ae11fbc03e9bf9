/// Palms by tool, pressure, size, landing pressure, memory and wobble: libinput's
/// `tp_palm_detect_tool_triggered`, `_pressure_triggered`, `_touch_size_triggered`, each
/// naming its ``PalmReason``.
///
/// Pressure is judged only where the device's pressure means pressure
/// (``FilterDeviceFacts/pressureMaximum``, from the quirks): a HID pad reporting contact
/// area on a 0…50 axis would otherwise have every finger a palm. Sizes only where they are
/// millimetres (a resolution is known).
struct PalmStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let facts: FilterDeviceFacts
    /// Where and when palms lifted, for ``TouchFilterSettings/palmMemoryTime``.
    private(set) var lastPalms: [(position: PhysicalPoint, time: Timestamp)] = []
    /// Some contact reported a pressure above 0: the device's pressure channel works. A
    /// device that declares a pressure axis but never sends it is not judged by pressure.
    private(set) var pressureSeen = false

    init(settings: TouchFilterSettings, facts: FilterDeviceFacts) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.facts = facts
    }

    mutating func reset() {
        lastPalms = []
    }

    mutating func notePressure(_ touch: Touch) {
        if !pressureSeen, let pressure = touch.pressure, pressure > 0 { pressureSeen = true }
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

    /// Why a contact beginning now is a palm from the start, or nil.
    func landingReason(_ touch: Touch, at now: Timestamp) -> PalmReason? {
        if let reason = palmReason(touch) { return reason }
        if beginsPressing(touch) { return .landingPressure }
        if settings.enables(.palmMemory), lastPalms.contains(where: {
            now - $0.time <= settings.palmMemoryTime && distance($0.position, touch.position) <= settings.palmMemoryDistance
        }) {
            return .palmMemory
        }
        return nil
    }

    mutating func remember(_ position: PhysicalPoint, at time: Timestamp) {
        lastPalms.append((position, time))
    }

    mutating func forget(before now: Timestamp) {
        guard !lastPalms.isEmpty else { return }
        let memory = settings.palmMemoryTime
        lastPalms.removeAll { now - $0.time > memory }
    }

    /// A touchpad contact that never pressed harder than
    /// ``TouchFilterSettings/tapMinimumPressure`` is a thumb or a finger hovering and
    /// brushing the surface, not a tap (the ChromiumOS library's "Tap Minimum Pressure").
    func isTooLightToTap(_ contact: FilterContact) -> Bool {
        guard facts.isTouchpad, let threshold = settings.tapMinimumPressure, facts.pressureMaximum != nil, pressureSeen,
            settings.enables(.tooLight)
        else { return false }
        // A contact whose slot never sent a pressure pressed the kernel's initial 0 (a
        // pressure equal to the slot's value is never sent; in a recording that starts
        // mid-session, what the slot's last contact ended with).
        return Double(contact.maximumPressure ?? 0) < threshold
    }

    /// Notes a sensor step of a contact; true when it has now jumped back and forth
    /// ``TouchFilterSettings/palmReversalCount`` times (touchpads reporting a position per
    /// contact): a palm's wobbling centre. A short step breaks the chain: a finger turning
    /// slows down first.
    func jumpsBack(_ step: PhysicalPoint, _ contact: inout FilterContact) -> Bool {
        guard facts.isTouchpad, facts.reportsContacts, settings.palmReversalCount > 0, settings.enables(.wobble) else { return false }
        let length = (step.x * step.x + step.y * step.y).squareRoot()
        guard length >= settings.palmReversalStep else {
            contact.lastStep = nil
            return false
        }
        if let last = contact.lastStep {
            let lastLength = (last.x * last.x + last.y * last.y).squareRoot()
            // Turning back by more than 120°: cos < −0.5.
            if step.x * last.x + step.y * last.y < -0.5 * length * lastLength { contact.reversals += 1 }
        }
        contact.lastStep = step
        return contact.reversals >= settings.palmReversalCount
    }
}
