/// Facts about one device that change how its touches are read (libinput's quirks: the
/// `Attr*` lines of the `config/quirks/*.quirks` sections that match it). Parsed and matched
/// by GesturedConfig (`QuirkDatabase`); applied to the filter with
/// ``TouchFilterSettings/applying(_:)``. Unset attributes change nothing.
///
/// A device is never recognized by its axis ranges here: a quirk matches the device's name,
/// bus, vendor and product and udev properties, as libinput's do.
public struct DeviceQuirks: Hashable, Sendable {
    /// `AttrPressureIsPressure=`: the pressure axis reports pressure (1) or not, e.g. contact
    /// area (0).
    public var pressureIsPressure: Bool?
    /// `AttrPalmPressureThreshold=` (device units; 0 = no palm by pressure), libinput's name.
    public var palmPressure: Double?
    /// `AttrPalmPressureAtLanding=` (device units): a contact landing this hard is a palm.
    public var palmPressureAtLanding: Double?
    /// `AttrTapMinimumPressure=` (device units).
    public var tapMinimumPressure: Double?
    /// `AttrPalmSizeThreshold=` (mm of touch major), libinput's name.
    public var palmTouchMajor: Double?
    /// `AttrPalmReturnWait=` (s; written in ms): how long a short, pressing touch's lift
    /// waits for a palm coming back.
    public var palmReturnWait: Double?
    /// `AttrSensorJumpStep=` (mm): the sensor jump filter's smallest jump.
    public var sensorJumpStep: Double?
    /// `AttrBoxFilterSize=` (mm).
    public var boxSize: Double?
    /// `AttrDropsConfirmedMotion=`: a palm's motion during its confirmation is dropped.
    public var dropsConfirmedMotion: Bool?
    /// `AttrResolutionHint=XxY` (units per mm), libinput's name: the resolution of a device
    /// whose position axes report none (kernel-reported resolutions are never overridden).
    public var resolutionHint: ResolutionHint?
    /// The sections that matched, in the order applied (for `--check-config` and logs).
    public var sources: [String] = []

    public init() {}

    /// `other`'s set attributes over these (a later file wins, as in libinput).
    public mutating func merge(_ other: DeviceQuirks) {
        if let v = other.pressureIsPressure { pressureIsPressure = v }
        if let v = other.palmPressure { palmPressure = v }
        if let v = other.palmPressureAtLanding { palmPressureAtLanding = v }
        if let v = other.tapMinimumPressure { tapMinimumPressure = v }
        if let v = other.palmTouchMajor { palmTouchMajor = v }
        if let v = other.palmReturnWait { palmReturnWait = v }
        if let v = other.sensorJumpStep { sensorJumpStep = v }
        if let v = other.boxSize { boxSize = v }
        if let v = other.dropsConfirmedMotion { dropsConfirmedMotion = v }
        if let v = other.resolutionHint { resolutionHint = v }
        sources += other.sources
    }

    /// `Attr…=value` lines of the set attributes, in a fixed order.
    public var attributeLines: [String] {
        var lines: [String] = []
        func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        if let v = pressureIsPressure { lines.append("AttrPressureIsPressure=\(v ? 1 : 0)") }
        if let v = palmPressure { lines.append("AttrPalmPressureThreshold=\(number(v))") }
        if let v = palmPressureAtLanding { lines.append("AttrPalmPressureAtLanding=\(number(v))") }
        if let v = tapMinimumPressure { lines.append("AttrTapMinimumPressure=\(number(v))") }
        if let v = palmTouchMajor { lines.append("AttrPalmSizeThreshold=\(number(v))") }
        if let v = palmReturnWait { lines.append("AttrPalmReturnWait=\(number(v * 1000))ms") }
        if let v = sensorJumpStep { lines.append("AttrSensorJumpStep=\(number(v))mm") }
        if let v = boxSize { lines.append("AttrBoxFilterSize=\(number(v))mm") }
        if let v = dropsConfirmedMotion { lines.append("AttrDropsConfirmedMotion=\(v ? 1 : 0)") }
        if let v = resolutionHint { lines.append("AttrResolutionHint=\(v.x)x\(v.y)") }
        return lines
    }
}

/// `AttrResolutionHint=`: units per millimetre on X and Y.
public struct ResolutionHint: Hashable, Sendable {
    public var x: Int32
    public var y: Int32

    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

extension DeviceQuirks {
    /// `device` with the resolution hint applied, as libinput's `evdev_fix_abs_resolution`
    /// does: only when neither position axis reports a resolution (the kernel's, or one a
    /// `[Device]` `Size=` already set, wins), on both the single-touch and the MT axes.
    /// Without a hint, or with a resolution reported, `device` as it is; a touchpad still
    /// without one then falls back to 69 × 50 mm (``DeviceDescription/fallbackTouchpadSize``).
    public func applyingResolution(to device: DeviceDescription) -> DeviceDescription {
        guard let hint = resolutionHint, !device.hasResolution,
            (device.xAxis?.resolution ?? 0) <= 0, (device.yAxis?.resolution ?? 0) <= 0
        else { return device }
        var result = device
        for (usages, value) in [([EventUsage.absX, .absMTPositionX], hint.x), ([EventUsage.absY, .absMTPositionY], hint.y)] {
            for usage in usages {
                guard var axis = result.axes[usage.code] else { continue }
                axis.resolution = value
                result.axes[usage.code] = axis
            }
        }
        return result
    }
}

extension TouchFilterSettings {
    /// These settings with a device's quirks applied.
    public func applying(_ quirks: DeviceQuirks) -> TouchFilterSettings {
        var result = self
        if let v = quirks.pressureIsPressure { result.pressureMeaning = v }
        if let v = quirks.palmPressure { result.palmPressure = v > 0 ? v : nil }
        if let v = quirks.palmPressureAtLanding { result.palmPressureAtBegin = v > 0 ? v : nil }
        if let v = quirks.tapMinimumPressure { result.tapMinimumPressure = v > 0 ? v : nil }
        if let v = quirks.palmTouchMajor { result.palmTouchMajor = v > 0 ? v : .infinity }
        if let v = quirks.palmReturnWait { result.palmReturnWait = v }
        if let v = quirks.sensorJumpStep { result.sensorJumpStep = v }
        if let v = quirks.boxSize { result.boxSize = v }
        if let v = quirks.dropsConfirmedMotion { result.dropsConfirmedMotion = v }
        return result
    }
}
