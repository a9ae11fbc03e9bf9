public import GestureEngine

/// The touch protocol a device speaks.
public enum MultitouchProtocol: String, Sendable, Hashable {
    /// Slots and tracking ids (`ABS_MT_SLOT`).
    case slots
    /// Protocol A: MT axes grouped by `SYN_MT_REPORT`, no slots (read through mtdev).
    case anonymousContacts
    /// No MT axes: `ABS_X`/`ABS_Y` and `BTN_TOUCH`, one finger.
    case singleTouch
}

/// What gestured makes of a device that it accepts.
public struct DeviceClassification: Sendable, Hashable, CustomStringConvertible {
    /// Touchscreen or touchpad.
    public var kind: DeviceKind
    /// A touchpad whose whole surface is a button (`INPUT_PROP_BUTTONPAD`).
    public var isClickpad: Bool
    /// How the device reports contacts.
    public var multitouch: MultitouchProtocol
    /// Contacts the device tracks (`ABS_MT_SLOT` maximum + 1; 1 for single-touch).
    public var slotCount: Int
    /// Both position axes report units per millimetre; otherwise distances are approximate.
    public var hasResolution: Bool

    /// `touchscreen`, `touchpad` or `clickpad` — the word used in logs and `list-devices`.
    public var label: String {
        switch kind {
        case .touchscreen: "touchscreen"
        case .touchpad: isClickpad ? "clickpad" : "touchpad"
        }
    }

    public var description: String {
        var text = "\(label), \(slotCount) slot\(slotCount == 1 ? "" : "s")"
        switch multitouch {
        case .slots: break
        case .anonymousContacts: text += ", protocol A"
        case .singleTouch: text += ", single-touch"
        }
        if !hasResolution { text += ", no resolution (approximate mm)" }
        return text
    }
}

/// Why a device is not a touch device gestured can use: every missing capability, in words.
public struct NotATouchDevice: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device's name.
    public var name: String
    /// One phrase per problem, e.g. `has no ABS_MT_POSITION_X/ABS_X axis`.
    public var reasons: [String]

    public init(name: String, reasons: [String]) {
        self.name = name
        self.reasons = reasons
    }

    /// `'Logitech USB Receiver' is not a touch device: has no ABS_MT_POSITION_X/ABS_X axis, …`
    public var description: String {
        "'\(name)' is not a touch device: \(reasons.joined(separator: ", "))"
    }
}

/// Decides whether a device is a touchscreen, a touchpad or a clickpad — or why it is none.
public enum DeviceClassifier {
    /// Classifies `description`.
    ///
    /// A touch device needs X and Y position axes (`ABS_MT_POSITION_X/Y`, else `ABS_X/Y`) with
    /// a non-empty range, and a way to say a finger is down (MT tracking ids, `BTN_TOUCH` or
    /// `BTN_TOOL_FINGER`). Pen tablets, accelerometers and joysticks are refused with the
    /// capability that gives them away. The kind follows ``DeviceDescription/kind``:
    /// `INPUT_PROP_DIRECT` → touchscreen; `INPUT_PROP_POINTER`, `INPUT_PROP_BUTTONPAD` or
    /// `BTN_TOOL_FINGER` → touchpad; MT axes alone → touchscreen (old drivers).
    public static func classify(_ description: DeviceDescription) -> Result<DeviceClassification, NotATouchDevice> {
        var reasons: [String] = []
        let x = description.xAxis
        let y = description.yAxis
        if x == nil { reasons.append("has no ABS_MT_POSITION_X/ABS_X axis") }
        if y == nil { reasons.append("has no ABS_MT_POSITION_Y/ABS_Y axis") }
        if let x, x.maximum <= x.minimum { reasons.append("its X axis has an empty range (\(x.minimum)…\(x.maximum))") }
        if let y, y.maximum <= y.minimum { reasons.append("its Y axis has an empty range (\(y.minimum)…\(y.maximum))") }
        if description.properties.contains(.accelerometer) {
            reasons.append("is an accelerometer (INPUT_PROP_ACCELEROMETER)")
        }
        let hasMT = description.axis(.absMTPositionX) != nil
        let hasTouchKey = description.supports(.btnTouch) || description.supports(.btnToolFinger)
        let isPen = description.supports(.btnToolPen) && !description.supports(.btnToolFinger)
        if isPen && !hasMT { reasons.append("is a pen tablet (BTN_TOOL_PEN without BTN_TOOL_FINGER)") }
        if !hasMT && !hasTouchKey && !isPen {
            reasons.append("has no ABS_MT_SLOT, BTN_TOUCH or BTN_TOOL_FINGER to report a touch")
        }
        if hasMT && description.axis(.absMTSlot) == nil && description.axis(.absMTTrackingID) == nil
            && description.axis(.absMTPositionY) == nil
        {
            reasons.append("has ABS_MT_POSITION_X without ABS_MT_POSITION_Y")
        }
        guard reasons.isEmpty, let kind = description.kind else {
            if reasons.isEmpty { reasons.append("has position axes but no touch property or touch key") }
            return .failure(NotATouchDevice(name: description.name, reasons: reasons))
        }
        let multitouch: MultitouchProtocol =
            description.axis(.absMTSlot) != nil ? .slots : hasMT ? .anonymousContacts : .singleTouch
        return .success(
            DeviceClassification(
                kind: kind,
                isClickpad: kind == .touchpad && description.isClickpad,
                multitouch: multitouch,
                slotCount: multitouch == .slots ? description.slotCount : 1,
                hasResolution: description.hasResolution
            )
        )
    }
}
