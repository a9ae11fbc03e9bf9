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
        // they pressed): no pressure test and no bands there. Pressure thresholds are absolute
        // units and need no resolution (libinput applies its 130 on any pad). The bands are
        // fractions of the surface: on a described pad without a resolution they use the size
        // the description implies, libinput's 69 × 50 mm guess, and libinput's own gates then
        // decide — no side bands under 70 mm wide, no top band up to 55 mm high (the alex
        // recordings replayed with a generic SynPS/2 description, no resolution: 88/99 without
        // bands, 95/99 with them, 96/99 with alex's own description). Sizes are millimetres only
        // with a resolution. Configure WidthMM=/HeightMM= to give such a device its size.
        let trusted = device.hasResolution
        let real = !device.rangesAreInferred
        let pressure = device.axis(.absMTPressure) ?? device.axis(.absPressure)
        pressureMaximum =
            real && pressureIsPressure ? pressure.flatMap { $0.maximum > $0.minimum ? $0.maximum : nil } : nil
        width = real ? device.widthMillimeters : 0
        height = real ? device.heightMillimeters : 0
        isTouchpad = device.kind == .touchpad
        reportsContacts = trusted && device.axis(.absMTPositionX) != nil
        sizesTrusted = trusted
        slotCount = device.axis(.absMTSlot) != nil ? device.slotCount : 1
        tracksSlots = device.axis(.absMTSlot) != nil || device.axis(.absMTPositionX) == nil
    }
}

/// The bands of a touchpad where new contacts are held back (libinput's palm edges and
/// thumb lines), in mm from the surface's top left corner.
struct FilterBands: Sendable, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let width: Double
    let height: Double

    init(settings: TouchFilterSettings, width: Double, height: Double) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.width = width
        self.height = height
    }

    /// Whether `p` lies in a palm band: the left or right ``TouchFilterSettings/edgeBandFraction``
    /// of the width (at most ``TouchFilterSettings/edgeBandMaximum``, on pads at least
    /// ``TouchFilterSettings/edgeMinimumWidth`` wide: libinput's `tp_init_palmdetect_edge`), or the top ``TouchFilterSettings/topEdgeBandFraction`` of the height on
    /// a touchpad taller than ``TouchFilterSettings/topEdgeMinimumHeight`` (libinput's
    /// `upper_edge`).
    func inEdgeBand(_ p: PhysicalPoint) -> Bool {
        let band = width >= settings.edgeMinimumWidth ? min(settings.edgeBandMaximum, settings.edgeBandFraction * width) : 0
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
