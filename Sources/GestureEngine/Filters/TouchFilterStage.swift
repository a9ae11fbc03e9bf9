/// One concern of the ``TouchFilter``: palms by pressure or size, the edge and thumb bands,
/// held landings, lift debounce, fake fingers, the clicking finger, tap guards, jitter.
///
/// The model is libgestures' chain of `*FilterInterpreter`s, each a small object with one
/// job and its own timer, and libinput's `tp_palm_detect_*` predicates, which all read and
/// mark one shared touch record (`struct tp_touch`) and say why. A stage here owns its own
/// state and settings, reads and marks the shared ``ContactTable``, and says when it next
/// needs to run without a frame; the ``TouchFilter`` runs the stages in a fixed order and
/// takes the earliest deadline.
protocol TouchFilterStage: Sendable {
    /// When this stage must run next without a frame (``TouchFilter/flush(upTo:before:)``);
    /// nil when it waits for nothing.
    var nextDeadline: Timestamp? { get }
    /// Forgets every contact (the device went away).
    mutating func reset()
}

extension TouchFilterStage {
    var nextDeadline: Timestamp? { nil }
}

/// What the filter may believe about a device, fixed when the filter is made: sizes and
/// ranges only where the device reports a resolution, pressure only where it means pressure.
struct FilterDeviceFacts: Sendable {
    /// The pressure axis's maximum where pressure thresholds apply (nil: no pressure test).
    let pressureMaximum: Int32?
    /// The surface in mm (0 when unknown: no bands).
    let width: Double
    let height: Double
    let isTouchpad: Bool
    /// A resolution, and a position per contact (a single-touch pad's one position jumps
    /// between fingers).
    let reportsContacts: Bool
    /// Touch sizes are in position units when the size axis has no resolution of its own, so
    /// they mean millimetres only on a device with a known resolution.
    let sizesTrusted: Bool
    /// Slots tracked: the slot count (protocol B), one (single-touch pads), and whether the
    /// device tracks slots at all (protocol A reports every contact).
    let slotCount: Int
    let tracksSlots: Bool

    init(device: DeviceDescription, pressureIsPressure: Bool) {
        // A recording without a description has its ranges inferred from the touches
        // themselves (the surface shrinks to where fingers went, the pressure range to what
        // they pressed): no pressure test there. Pressure thresholds are absolute units and
        // need no resolution (libinput applies its 130 on any pad); the bands are fractions
        // of the surface and sizes millimetres, so they need a resolution: with libinput's
        // 69 × 50 mm guess for a pad without one, the bands cost two validation recordings
        // (evemu-devices). Configure WidthMM=/HeightMM= to give such a device a size.
        let trusted = device.hasResolution
        let real = !device.rangesAreInferred
        let pressure = device.axis(.absMTPressure) ?? device.axis(.absPressure)
        pressureMaximum =
            real && pressureIsPressure ? pressure.flatMap { $0.maximum > $0.minimum ? $0.maximum : nil } : nil
        width = trusted ? device.widthMillimeters : 0
        height = trusted ? device.heightMillimeters : 0
        isTouchpad = device.kind == .touchpad
        reportsContacts = trusted && device.axis(.absMTPositionX) != nil
        sizesTrusted = trusted
        slotCount = device.axis(.absMTSlot) != nil ? device.slotCount : 1
        tracksSlots = device.axis(.absMTSlot) != nil || device.axis(.absMTPositionX) == nil
    }
}

/// The bands of a touchpad where new contacts are held back (libinput's palm edges and
/// thumb lines), in mm from the surface's top left corner.
struct FilterBands: Sendable {
    let settings: TouchFilterSettings
    let width: Double
    let height: Double

    /// Whether `p` lies in a palm band: the left or right ``TouchFilterSettings/edgeBandFraction``
    /// of the width, or the top ``TouchFilterSettings/topEdgeBandFraction`` of the height on
    /// a touchpad taller than ``TouchFilterSettings/topEdgeMinimumHeight`` (libinput's
    /// `upper_edge`).
    func inEdgeBand(_ p: PhysicalPoint) -> Bool {
        let band = settings.edgeBandFraction * width
        if band > 0 && (p.x < band || p.x > width - band) { return true }
        return height > settings.topEdgeMinimumHeight && p.y < settings.topEdgeBandFraction * height
    }

    /// A held-back thumb becomes a finger above this line only (hysteresis): a thumb sliding
    /// along the band wanders a few millimetres above where it landed.
    func aboveThumbExitLine(_ p: PhysicalPoint) -> Bool {
        let band = max(settings.thumbBandFraction, settings.thumbExitFraction) * height
        return band <= 0 || p.y <= height - band
    }

    func inThumbBand(_ p: PhysicalPoint) -> Bool {
        let band = settings.thumbBandFraction * height
        return band > 0 && p.y > height - band
    }
}
