/// What kind of touch surface a device is (spec §2.1, issue 3 classification).
public enum DeviceKind: String, Sendable, Hashable, CaseIterable {
    /// Direct-touch screen (`INPUT_PROP_DIRECT`).
    case touchscreen
    /// Indirect touchpad (`INPUT_PROP_POINTER` or `BTN_TOOL_FINGER` without `INPUT_PROP_DIRECT`).
    case touchpad
}

/// The static facts of one absolute axis (`struct input_absinfo`).
public struct AxisInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre for position axes (kernel `input.h`); 0 = unknown.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// Input properties (`INPUT_PROP_*`).
public enum InputProperty: UInt16, Sendable, Hashable, CaseIterable {
    case pointer = 0
    case direct = 1
    case buttonpad = 2
    case semiMT = 3
    case topButtonpad = 4
    case pointingStick = 5
    case accelerometer = 6
}

/// A device as the engine needs it: identity, kind, axes, slots. Built from a live device
/// (GesturedSystem), an evemu header (EvemuParser) or a recording's metadata.
public struct DeviceDescription: Hashable, Sendable {
    /// The fallback resolution for axes that report none: 6.3 units/mm (spec §2.1.3).
    public static let fallbackResolution = 6.3

    public var name: String
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var properties: Set<InputProperty>
    /// Every supported (type, code), EV_SYN included.
    public var codes: Set<EventUsage>
    /// Absolute axes keyed by `EV_ABS` code.
    public var axes: [UInt16: AxisInfo]
    /// The axis ranges were inferred from a recording's events (no description): they span
    /// where the fingers went, not the surface, so no physical size is assumed from them.
    public var rangesAreInferred = false
    /// Configured calibration of positions (`Calibration=` in gestured.conf, or udev's
    /// `LIBINPUT_CALIBRATION_MATRIX`); nil = positions as the device reports them.
    public var calibration: Calibration?

    public init(
        name: String,
        bustype: UInt16 = 0,
        vendor: UInt16 = 0,
        product: UInt16 = 0,
        version: UInt16 = 0,
        properties: Set<InputProperty> = [],
        codes: Set<EventUsage> = [],
        axes: [UInt16: AxisInfo] = [:]
    ) {
        self.name = name
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.axes = axes
    }

    public func axis(_ usage: EventUsage) -> AxisInfo? { axes[usage.code] }

    public func supports(_ usage: EventUsage) -> Bool { codes.contains(usage) || (usage.type == EventUsage.evAbs && axes[usage.code] != nil) }

    /// The X axis used for positions: `ABS_MT_POSITION_X`, else `ABS_X`.
    public var xAxis: AxisInfo? { axis(.absMTPositionX) ?? axis(.absX) }
    /// The Y axis used for positions: `ABS_MT_POSITION_Y`, else `ABS_Y`.
    public var yAxis: AxisInfo? { axis(.absMTPositionY) ?? axis(.absY) }

    /// Multitouch protocol B (slots + tracking ids + MT positions).
    public var isMultitouchB: Bool {
        axis(.absMTSlot) != nil && axis(.absMTTrackingID) != nil && axis(.absMTPositionX) != nil
    }

    /// Multitouch protocol A (MT positions without slots).
    public var isMultitouchA: Bool { axis(.absMTPositionX) != nil && axis(.absMTSlot) == nil }

    /// Number of slots (`ABS_MT_SLOT.maximum + 1`), 1 for a single-touch device.
    public var slotCount: Int {
        if let slot = axis(.absMTSlot) { return Int(slot.maximum) + 1 }
        return 1
    }

    /// Both position axes carry a resolution.
    public var hasResolution: Bool { (xAxis?.resolution ?? 0) > 0 && (yAxis?.resolution ?? 0) > 0 }

    /// The largest surface (mm per axis) the fallback resolution may make: a 27-inch
    /// monitor is 598 mm wide. Touchscreens that report no resolution often report HID's
    /// normalised 0…32767 (5.2 m at 6.3 units/mm), where a finger's 16-unit wobble would be
    /// 2.5 mm; such a range is spread over this size instead.
    public static let fallbackMaximumSize = 600.0

    /// The size (mm) assumed for a touchpad that reports no resolution: libinput's
    /// `tp_init_default_resolution` assumes 69 × 50 mm, "the majority of touchpads that
    /// trigger all these conditions are old ones". At 6.3 units/mm an ALPS pad was 317 mm wide.
    public static let fallbackTouchpadSize = (width: 69.0, height: 50.0)

    /// Units per millimetre on X, with the fallback when the device reports none.
    public var resolutionX: Double { resolution(of: xAxis, touchpadSize: Self.fallbackTouchpadSize.width) }

    /// Units per millimetre on Y, with the fallback when the device reports none.
    public var resolutionY: Double { resolution(of: yAxis, touchpadSize: Self.fallbackTouchpadSize.height) }

    private func resolution(of axis: AxisInfo?, touchpadSize: Double) -> Double {
        let r = axis?.resolution ?? 0
        if r > 0 { return Double(r) }
        let range = Double((axis?.maximum ?? 0) - (axis?.minimum ?? 0))
        if !rangesAreInferred && range > 0 && kind == .touchpad { return range / touchpadSize }
        return max(Self.fallbackResolution, range / Self.fallbackMaximumSize)
    }

    /// Surface width in millimetres.
    public var widthMillimeters: Double {
        guard let x = xAxis else { return 0 }
        return Double(x.maximum - x.minimum) / resolutionX
    }

    /// Surface height in millimetres.
    public var heightMillimeters: Double {
        guard let y = yAxis else { return 0 }
        return Double(y.maximum - y.minimum) / resolutionY
    }

    /// Converts device units to millimetres from the axis minimum (spec §2.1.2).
    public func physicalPoint(_ p: DevicePoint) -> PhysicalPoint {
        var x = Double(p.x)
        var y = Double(p.y)
        if let calibration, !calibration.isIdentity, let xAxis, let yAxis {
            (x, y) = calibration.apply(
                x: x, y: y,
                xRange: (Double(xAxis.minimum), Double(xAxis.maximum)),
                yRange: (Double(yAxis.minimum), Double(yAxis.maximum))
            )
        }
        return PhysicalPoint(
            x: (x - Double(xAxis?.minimum ?? 0)) / resolutionX,
            y: (y - Double(yAxis?.minimum ?? 0)) / resolutionY
        )
    }

    /// A position as a fraction (0…1) of the surface.
    public func fraction(of p: PhysicalPoint) -> PhysicalPoint {
        let w = widthMillimeters
        let h = heightMillimeters
        return PhysicalPoint(x: w > 0 ? p.x / w : 0, y: h > 0 ? p.y / h : 0)
    }

    /// Touchscreen when `INPUT_PROP_DIRECT`, touchpad when it has a pointer property or
    /// `BTN_TOOL_FINGER`; `nil` when the device has no usable absolute position axes.
    public var kind: DeviceKind? {
        guard xAxis != nil, yAxis != nil else { return nil }
        if properties.contains(.direct) { return .touchscreen }
        if properties.contains(.pointer) || properties.contains(.buttonpad) || codes.contains(.btnToolFinger) {
            return .touchpad
        }
        // Touchscreens without INPUT_PROP_DIRECT exist (old drivers): MT axes without finger tools.
        if axis(.absMTPositionX) != nil || codes.contains(.btnTouch) { return .touchscreen }
        return nil
    }

    /// A clickpad: the whole surface is a button (`INPUT_PROP_BUTTONPAD`).
    public var isClickpad: Bool { properties.contains(.buttonpad) }
}
