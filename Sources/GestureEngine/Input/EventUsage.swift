/// An evdev event type and code in one value, `type << 16 | code` (libinput's `evdev_usage_t`).
///
/// Statics are the kernel constants in lowerCamel; ``name`` gives the kernel spelling for logs,
/// transcripts and evemu comments.
public struct EventUsage: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(type: UInt16, code: UInt16) {
        rawValue = UInt32(type) << 16 | UInt32(code)
    }

    public var type: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 16) }
    public var code: UInt16 { UInt16(truncatingIfNeeded: rawValue & 0xFFFF) }

    public static func < (a: EventUsage, b: EventUsage) -> Bool { a.rawValue < b.rawValue }

    // Event types (linux/input-event-codes.h).
    public static let evSyn: UInt16 = 0x00
    public static let evKey: UInt16 = 0x01
    public static let evRel: UInt16 = 0x02
    public static let evAbs: UInt16 = 0x03
    public static let evMsc: UInt16 = 0x04
    /// The highest event type (`EV_MAX`); a description naming a higher one is not a device's.
    public static let typeMaximum: UInt16 = 0x1f
    /// The highest absolute axis code (`ABS_MAX`).
    public static let absMaximum: UInt16 = 0x3f
    /// The highest code of any type (`KEY_MAX`, the largest of the `*_MAX` constants).
    public static let codeMaximum: UInt16 = 0x2ff

    public static let synReport = EventUsage(type: evSyn, code: 0)
    public static let synConfig = EventUsage(type: evSyn, code: 1)
    public static let synMTReport = EventUsage(type: evSyn, code: 2)
    public static let synDropped = EventUsage(type: evSyn, code: 3)

    public static let btnLeft = EventUsage(type: evKey, code: 0x110)
    public static let btnRight = EventUsage(type: evKey, code: 0x111)
    public static let btnMiddle = EventUsage(type: evKey, code: 0x112)
    public static let btnToolPen = EventUsage(type: evKey, code: 0x140)
    public static let btnToolRubber = EventUsage(type: evKey, code: 0x141)
    public static let btnToolFinger = EventUsage(type: evKey, code: 0x145)
    public static let btnToolQuintTap = EventUsage(type: evKey, code: 0x148)
    public static let btnTouch = EventUsage(type: evKey, code: 0x14a)
    public static let btnStylus = EventUsage(type: evKey, code: 0x14b)
    public static let btnToolDoubleTap = EventUsage(type: evKey, code: 0x14d)
    public static let btnToolTripleTap = EventUsage(type: evKey, code: 0x14e)
    public static let btnToolQuadTap = EventUsage(type: evKey, code: 0x14f)

    public static let absX = EventUsage(type: evAbs, code: 0x00)
    public static let absY = EventUsage(type: evAbs, code: 0x01)
    public static let absPressure = EventUsage(type: evAbs, code: 0x18)
    public static let absToolWidth = EventUsage(type: evAbs, code: 0x1c)
    public static let absMTSlot = EventUsage(type: evAbs, code: 0x2f)
    public static let absMTTouchMajor = EventUsage(type: evAbs, code: 0x30)
    public static let absMTTouchMinor = EventUsage(type: evAbs, code: 0x31)
    public static let absMTWidthMajor = EventUsage(type: evAbs, code: 0x32)
    public static let absMTWidthMinor = EventUsage(type: evAbs, code: 0x33)
    public static let absMTOrientation = EventUsage(type: evAbs, code: 0x34)
    public static let absMTPositionX = EventUsage(type: evAbs, code: 0x35)
    public static let absMTPositionY = EventUsage(type: evAbs, code: 0x36)
    public static let absMTToolType = EventUsage(type: evAbs, code: 0x37)
    public static let absMTBlobID = EventUsage(type: evAbs, code: 0x38)
    public static let absMTTrackingID = EventUsage(type: evAbs, code: 0x39)
    public static let absMTPressure = EventUsage(type: evAbs, code: 0x3a)
    public static let absMTDistance = EventUsage(type: evAbs, code: 0x3b)
    public static let absMTToolX = EventUsage(type: evAbs, code: 0x3c)
    public static let absMTToolY = EventUsage(type: evAbs, code: 0x3d)

    public static let mscTimestamp = EventUsage(type: evMsc, code: 0x05)

    /// The kernel spelling (`ABS_MT_POSITION_X`), or `EV_<type>:<code>` for codes not named here.
    public var name: String {
        if let known = EventUsage.names[self] { return known }
        let typeName = EventUsage.typeNames[type] ?? "EV_\(type)"
        return "\(typeName):\(code)"
    }

    public var description: String { name }

    static let typeNames: [UInt16: String] = [0: "EV_SYN", 1: "EV_KEY", 2: "EV_REL", 3: "EV_ABS", 4: "EV_MSC"]

    static let names: [EventUsage: String] = [
        .synReport: "SYN_REPORT", .synConfig: "SYN_CONFIG", .synMTReport: "SYN_MT_REPORT", .synDropped: "SYN_DROPPED",
        .btnLeft: "BTN_LEFT", .btnRight: "BTN_RIGHT", .btnMiddle: "BTN_MIDDLE", .btnToolPen: "BTN_TOOL_PEN",
        .btnToolRubber: "BTN_TOOL_RUBBER", .btnToolFinger: "BTN_TOOL_FINGER", .btnToolQuintTap: "BTN_TOOL_QUINTTAP",
        .btnTouch: "BTN_TOUCH", .btnStylus: "BTN_STYLUS", .btnToolDoubleTap: "BTN_TOOL_DOUBLETAP",
        .btnToolTripleTap: "BTN_TOOL_TRIPLETAP", .btnToolQuadTap: "BTN_TOOL_QUADTAP",
        .absX: "ABS_X", .absY: "ABS_Y", .absPressure: "ABS_PRESSURE", .absToolWidth: "ABS_TOOL_WIDTH",
        .absMTSlot: "ABS_MT_SLOT", .absMTTouchMajor: "ABS_MT_TOUCH_MAJOR", .absMTTouchMinor: "ABS_MT_TOUCH_MINOR",
        .absMTWidthMajor: "ABS_MT_WIDTH_MAJOR", .absMTWidthMinor: "ABS_MT_WIDTH_MINOR",
        .absMTOrientation: "ABS_MT_ORIENTATION", .absMTPositionX: "ABS_MT_POSITION_X",
        .absMTPositionY: "ABS_MT_POSITION_Y", .absMTToolType: "ABS_MT_TOOL_TYPE", .absMTBlobID: "ABS_MT_BLOB_ID",
        .absMTTrackingID: "ABS_MT_TRACKING_ID", .absMTPressure: "ABS_MT_PRESSURE", .absMTDistance: "ABS_MT_DISTANCE",
        .absMTToolX: "ABS_MT_TOOL_X", .absMTToolY: "ABS_MT_TOOL_Y", .mscTimestamp: "MSC_TIMESTAMP",
    ]
}

/// One kernel `input_event`: timestamp, type, code, value.
public struct RawEvent: Hashable, Sendable, CustomStringConvertible {
    public var time: Timestamp
    public var usage: EventUsage
    public var value: Int32

    public init(time: Timestamp, usage: EventUsage, value: Int32) {
        self.time = time
        self.usage = usage
        self.value = value
    }

    public init(time: Timestamp, type: UInt16, code: UInt16, value: Int32) {
        self.init(time: time, usage: EventUsage(type: type, code: code), value: value)
    }

    public var description: String { "\(time) \(usage.name) \(value)" }
}
