/// Settings from the defaults, and the pressure judgement, kept apart from the declarations.
extension TouchFilterSettings {
    /// The defaults with `change` applied: `TouchFilterSettings.changing { $0.liftDelay = 0 }`.
    public static func changing(_ change: (inout TouchFilterSettings) -> Void) -> TouchFilterSettings {
        var settings = TouchFilterSettings()
        change(&settings)
        return settings
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
