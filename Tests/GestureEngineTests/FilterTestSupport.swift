import Testing

@testable import GestureEngine

/// A 100 × 60 mm clickpad (10 units/mm) with a 0…255 pressure axis.
let pad = DeviceDescription(
    name: "test pad",
    properties: [.pointer, .buttonpad],
    codes: [.btnToolFinger, .btnLeft],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 9),
        EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ]
)

/// The same pad tracking only two slots, counting up to four fingers (a Cr-48-class pad).
let twoSlotPad = DeviceDescription(
    name: "two-slot pad",
    properties: [.pointer],
    codes: [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 1),
        EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ]
)

/// A two-slot semi-MT pad (`INPUT_PROP_SEMI_MT`: the slots carry the fingers' bounding box),
/// like the ALPS and Cypress PS/2 pads of evemu-devices.
let semiMTPad = DeviceDescription(
    name: "semi-MT pad",
    properties: [.pointer, .semiMT],
    codes: [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 1),
        EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ]
)

/// The Cypress pad of the 2012 Chromebooks as its description reads (1280 × 680, 12/10
/// units/mm, pressure 0…255), named as the kernel names it.
let cypressPad = DeviceDescription(
    name: "Cypress APA Trackpad (cyapa)", properties: [.pointer],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 14),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1280, resolution: 12),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 680, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ])

/// What config/quirks/50-cypress-cyapa.quirks says about that pad (GesturedConfigTests check
/// the file parses to this).
let cypressQuirks: DeviceQuirks = {
    var quirks = DeviceQuirks()
    quirks.palmPressureAtLanding = 63
    quirks.palmReturnWait = 0.15
    quirks.sensorJumpStep = 1
    quirks.boxSize = 1
    quirks.dropsConfirmedMotion = true
    return quirks
}()

/// Builds assembler-like frames touch by touch (positions in mm, times in s) and runs them
/// through a filter, keeping every delivered touch.
struct FilterRun {
    var filter: TouchFilter
    var positions: [UInt64: PhysicalPoint] = [:]
    var starts: [UInt64: (PhysicalPoint, Timestamp)] = [:]
    /// Delivered touches, frame by frame (nil = frame dropped).
    var delivered: [[Touch]?] = []
    /// Touch major (mm) reported for a touch id from now on.
    var majors: [UInt64: Double] = [:]

    init(_ settings: TouchFilterSettings = TouchFilterSettings(), device: DeviceDescription = pad) {
        filter = TouchFilter(device: device, settings: settings)
    }

    /// One frame: `touches` lists (id, phase, x, y, pressure).
    mutating func frame(_ t: Double, _ touches: [(UInt64, TouchPhase, Double, Double, Int32?)], button: Bool = false, count: Int? = nil) {
        let time = Timestamp(seconds: t)
        var list: [Touch] = []
        for (id, phase, x, y, pressure) in touches {
            let position = PhysicalPoint(x: x, y: y)
            if phase == .began { starts[id] = (position, time) }
            let start = starts[id] ?? (position, time)
            list.append(
                Touch(
                    id: TouchID(id), phase: phase, position: position, previousPosition: positions[id] ?? position,
                    startPosition: start.0, startTime: start.1, pressure: pressure, touchMajorMillimeters: majors[id]))
            positions[id] = position
        }
        let frame = Frame(timestamp: time, touches: list, fingerCount: count, isButtonPressed: button)
        let filtered = filter.process(frame)
        if let lifts = filtered.ahead { delivered.append(lifts.touches) }
        delivered.append(filtered.frame?.touches)
    }

    /// Every delivered (id, phase, flags) in order: `1 ended noTap(.afterScroll)`.
    var phases: [String] {
        delivered.compactMap { $0 }.flatMap { $0 }.map { touch in
            let flags = touch.flags.isEmpty ? "" : " \(touch.flags)"
            return "\(touch.id.rawValue) \(touch.phase.rawValue)\(flags)"
        }
    }
}

/// What a stage alone is run on: a touch's step on a contact record, and a frame in flight
/// around a table a test sets up (no other stage of the chain runs).
enum StageBench {
    static func contact(_ role: ContactRole = .finger, at x: Double, _ y: Double, since t: Double = 0) -> FilterContact {
        let position = PhysicalPoint(x: x, y: y)
        return FilterContact(
            role: role, start: position, startTime: Timestamp(seconds: t), hysteresis: PositionHysteresis(radius: 0, position: position))
    }

    static func touch(_ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, pressure: Int32? = nil, tool: ToolType = .finger) -> Touch {
        let position = PhysicalPoint(x: x, y: y)
        return Touch(
            id: TouchID(id), phase: phase, position: position, previousPosition: position, startPosition: position,
            startTime: .zero, toolType: tool, pressure: pressure)
    }

    static func step(_ touch: Touch, _ contact: FilterContact) -> ContactStep {
        ContactStep(touch: touch, contact: contact, state: .judging)
    }

    static func frame(_ t: Double, _ touches: [Touch] = [], button: Bool = false, table: ContactTable = ContactTable()) -> FilterFrame {
        FilterFrame(input: Frame(timestamp: Timestamp(seconds: t), touches: touches, isButtonPressed: button), buttonBefore: false, table: table, out: [])
    }
}
