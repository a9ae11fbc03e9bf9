@testable import GestureEngine

/// Builds raw event streams with explicit timestamps for assembler tests.
struct EventScript {
    /// Current time, µs.
    var now: Int64 = 1_000_000
    var events: [RawEvent] = []

    mutating func abs(_ usage: EventUsage, _ value: Int32) {
        events.append(RawEvent(time: Timestamp(microseconds: now), usage: usage, value: value))
    }

    mutating func key(_ usage: EventUsage, _ value: Int32) {
        events.append(RawEvent(time: Timestamp(microseconds: now), usage: usage, value: value))
    }

    mutating func event(_ usage: EventUsage, _ value: Int32 = 0) {
        events.append(RawEvent(time: Timestamp(microseconds: now), usage: usage, value: value))
    }

    /// Ends the frame with SYN_REPORT and moves the clock on by `milliseconds`.
    mutating func syn(advance milliseconds: Int64 = 10) {
        events.append(RawEvent(time: Timestamp(microseconds: now), usage: .synReport, value: 0))
        now += milliseconds * 1000
    }

    /// Slot, tracking id and position of a new contact.
    mutating func down(slot: Int32, id: Int32, x: Int32, y: Int32) {
        abs(.absMTSlot, slot)
        abs(.absMTTrackingID, id)
        abs(.absMTPositionX, x)
        abs(.absMTPositionY, y)
    }

    mutating func move(slot: Int32, x: Int32? = nil, y: Int32? = nil) {
        abs(.absMTSlot, slot)
        if let x { abs(.absMTPositionX, x) }
        if let y { abs(.absMTPositionY, y) }
    }

    mutating func up(slot: Int32) {
        abs(.absMTSlot, slot)
        abs(.absMTTrackingID, -1)
    }
}

enum TestDevices {
    /// A protocol-B touchscreen: 4 slots, 0…1000 × 0…600 at 10 units/mm, tool type, pressure
    /// and touch major (resolution 2 units/mm).
    static let touchscreen: DeviceDescription = {
        let axes: [UInt16: AxisInfo] = [
            EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 3),
            EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
            EventUsage.absMTToolType.code: AxisInfo(minimum: 0, maximum: 2),
            EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
            EventUsage.absMTTouchMajor.code: AxisInfo(minimum: 0, maximum: 100, resolution: 2),
        ]
        var codes: Set<EventUsage> = [.synReport, .btnTouch]
        for code in axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        return DeviceDescription(name: "test touchscreen", properties: [.direct], codes: codes, axes: axes)
    }()

    /// A 2-slot clickpad that reports up to five fingers through BTN_TOOL_*.
    static let clickpad: DeviceDescription = {
        let axes: [UInt16: AxisInfo] = [
            EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 1),
            EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        ]
        var codes: Set<EventUsage> = [
            .synReport, .btnTouch, .btnLeft, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap,
            .btnToolQuintTap,
        ]
        for code in axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        return DeviceDescription(name: "test clickpad", properties: [.pointer, .buttonpad], codes: codes, axes: axes)
    }()

    /// A protocol-A touchscreen (MT axes, no slots).
    static let protocolA: DeviceDescription = {
        let axes: [UInt16: AxisInfo] = [
            EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        ]
        var codes: Set<EventUsage> = [.synReport, .btnTouch]
        for code in axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        return DeviceDescription(name: "test protocol A", codes: codes, axes: axes)
    }()

    /// A single-touch touchscreen: ABS_X/ABS_Y and BTN_TOUCH only.
    static let singleTouch: DeviceDescription = {
        let axes: [UInt16: AxisInfo] = [
            EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
            EventUsage.absPressure.code: AxisInfo(minimum: 0, maximum: 255),
        ]
        var codes: Set<EventUsage> = [.synReport, .btnTouch]
        for code in axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        return DeviceDescription(name: "test single-touch", properties: [.direct], codes: codes, axes: axes)
    }()
}

extension FrameAssembler {
    /// Feeds every event and returns the frames produced.
    mutating func frames(_ events: [RawEvent]) -> [Frame] {
        events.compactMap { feed($0) }
    }
}

extension Frame {
    /// `[id: phase]` for compact expectations (a touch listed twice keeps its last phase).
    var phases: [UInt64: TouchPhase] {
        var result: [UInt64: TouchPhase] = [:]
        for touch in touches { result[touch.id.rawValue] = touch.phase }
        return result
    }

    /// `(id, phase)` pairs in order.
    var sequence: [String] { touches.map { "\($0.id.rawValue):\($0.phase.rawValue)" } }
}

/// Checks the frame stream contract the engine relies on: timestamps never go backwards; a
/// touch id begins once, then is moved/stationary, then ends or is cancelled exactly once,
/// and never appears again; at most `maxTouches` touches are active. Returns the violations.
func frameStreamViolations(_ frames: [Frame], maxTouches: Int = 10) -> [String] {
    var violations: [String] = []
    var active: Set<TouchID> = []
    var finished: Set<TouchID> = []
    var last: Timestamp?
    for (index, frame) in frames.enumerated() {
        if let last, frame.timestamp < last { violations.append("frame \(index): time goes backwards") }
        last = frame.timestamp
        for touch in frame.touches {
            if finished.contains(touch.id) {
                violations.append("frame \(index): \(touch.id) appears after it finished")
                continue
            }
            switch touch.phase {
            case .began:
                if active.contains(touch.id) { violations.append("frame \(index): \(touch.id) began twice") }
                active.insert(touch.id)
            case .moved, .stationary:
                if !active.contains(touch.id) {
                    violations.append("frame \(index): \(touch.id) \(touch.phase) before began")
                }
            case .ended, .cancelled:
                if !active.contains(touch.id) {
                    violations.append("frame \(index): \(touch.id) \(touch.phase) before began")
                }
                active.remove(touch.id)
                finished.insert(touch.id)
            }
            if !touch.position.x.isFinite || !touch.position.y.isFinite {
                violations.append("frame \(index): \(touch.id) has a non-finite position")
            }
        }
        if active.count > maxTouches { violations.append("frame \(index): \(active.count) active touches") }
        let ids = frame.touches.map(\.id)
        if ids != ids.sorted() { violations.append("frame \(index): touches not ordered by id") }
    }
    return violations
}
