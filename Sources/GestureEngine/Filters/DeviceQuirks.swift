/// Per-device corrections of the ``TouchFilterSettings`` where a device reports values that
/// mislead the defaults (libinput's quirks files are the model). Matched on what the device
/// description says, since the recordings these come from carry no name or ids.
public struct DeviceQuirk: Sendable {
    /// What the quirk is for, for logs and docs.
    public var name: String
    public var matches: @Sendable (DeviceDescription) -> Bool
    public var apply: @Sendable (inout TouchFilterSettings) -> Void

    /// The known quirks.
    public static let all: [DeviceQuirk] = [
        DeviceQuirk(
            name: "Cypress touchpad of the 2012 Chromebooks (lumpy, link prototype): 1280×680, pressure saturating at 63",
            matches: { device in
                guard let x = device.xAxis, let y = device.yAxis, let pressure = device.axis(.absMTPressure) else { return false }
                return x.minimum == 0 && x.maximum == 1280 && x.resolution == 12 && y.minimum == 0 && y.maximum == 680
                    && y.resolution == 10 && pressure.maximum == 255
            },
            apply: { settings in
                // Fingers land at 2–40 and rarely reach 63 in their first frame; a palm the
                // sensor loses and finds again comes back at 63 (the pad's saturation value,
                // although the axis claims 255), flickering at one spot.
                settings.palmPressureAtBegin = 63.0 / 255.0
                // A palm landing touches briefly, saturated, lifts, and comes back already
                // at 63 a little later: wait for that return before a saturated touch taps.
                if settings.palmReturnWait == 0 { settings.palmReturnWait = 0.15 }
                // The ChromiumOS library's own settings for this pad (xorg-conf
                // 50-touchpad-cmt-lumpy.conf, "cyapa"): a sensor jump filter of 1 mm and a
                // 1 × 1 mm box. A palm's centre jumps back and forth by 1–3 mm between still
                // frames and wobbles by up to a millimetre while it moves.
                if settings.sensorJumpStep == 0 { settings.sensorJumpStep = 1 }
                if settings.boxSize == 0 { settings.boxSize = 1 }
                // A palm landing slides up to 5 mm before its pressure shows it: what a lone
                // contact moved during its palm confirmation is not delivered.
                settings.dropsConfirmedMotion = true
            }
        )
    ]

    /// `settings` with every matching quirk applied.
    public static func adjusted(_ settings: TouchFilterSettings, for device: DeviceDescription) -> TouchFilterSettings {
        var result = settings
        for quirk in all where quirk.matches(device) { quirk.apply(&result) }
        return result
    }
}
