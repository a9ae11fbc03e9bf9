import GesturedRandom

/// Turns scripted finger paths into the raw evdev events a real multitouch device would send,
/// for fixtures (through ``EvemuWriter``), the demo recording and uinput devices in the VM
/// tests.
///
/// Output follows multitouch protocol B as the kernel's `input_mt` helpers emit it: one frame
/// every ``frameInterval`` seconds while a finger is down, `ABS_MT_SLOT` only when the slot
/// changes, `ABS_MT_TRACKING_ID` on touch-down (a fresh id) and `−1` on lift, positions only
/// when they changed, `ABS_MT_PRESSURE` (each finger's ``PressureProfile``, when it changed) and
/// `ABS_MT_TOOL_TYPE` when the device has them,
/// `BTN_TOUCH` and the `BTN_TOOL_*` finger count (which keeps counting fingers beyond the slot
/// count, as touchpads do), the `ABS_X`/`ABS_Y` single-touch emulation, and a `SYN_REPORT`.
/// Frames in which nothing changed are not sent (the kernel drops them too). A device without
/// slots gets single-touch events for its first finger.
public struct GestureSynthesizer: Sendable {
    /// The device the events are for; positions are converted with its axes.
    public var device: DeviceDescription
    /// Seconds between frames (real devices: 7–12 ms).
    public var frameInterval: Double
    /// Amplitude of the random offset added to every sample, millimetres (0 = none).
    public var jitterMillimeters: Double
    private var random: SplitMix64
    private var nextTrackingID: Int32

    /// - Parameters:
    ///   - device: the device to synthesize for (ideally with `ABS_MT_SLOT`).
    ///   - frameInterval: seconds between frames, default 0.010.
    ///   - jitterMillimeters: uniform noise in ±this many mm on every sample, default 0.
    ///   - seed: the seed of the jitter generator, so that noisy output is reproducible.
    public init(
        device: DeviceDescription,
        frameInterval: Double = 0.010,
        jitterMillimeters: Double = 0,
        seed: UInt64 = 1
    ) {
        precondition(frameInterval > 0, "frameInterval must be positive")
        self.device = device
        self.frameInterval = frameInterval
        self.jitterMillimeters = jitterMillimeters
        self.random = SplitMix64(seed: seed)
        self.nextTrackingID = 1
    }

    // MARK: - Geometry

    /// Surface width, mm.
    public var width: Double { device.widthMillimeters }
    /// Surface height, mm.
    public var height: Double { device.heightMillimeters }

    /// A surface point in millimetres.
    public func millimeters(_ point: SurfacePoint) -> PhysicalPoint {
        switch point {
        case .millimeters(let x, let y): PhysicalPoint(x: x, y: y)
        case .fraction(let x, let y): PhysicalPoint(x: x * width, y: y * height)
        }
    }

    // MARK: - Events

    /// The events for `script`, the first frame at `start` (script time 0).
    ///
    /// Touch-down and lift happen on the frame grid (`start + k × frameInterval`); a stroke
    /// lasts at least one frame.
    public mutating func events(for script: GestureScript, startingAt start: Timestamp = Timestamp(seconds: 1))
        -> [RawEvent]
    {
        let strokes = script.strokes.sorted {
            ($0.down, $0.keyframes[0].position.x) < ($1.down, $1.keyframes[0].position.x)
        }
        guard !strokes.isEmpty else { return [] }
        let downFrame = strokes.map { Int(($0.down / frameInterval).rounded()) }
        let upFrame = strokes.indices.map {
            Swift.max(Int((strokes[$0].up / frameInterval).rounded()), downFrame[$0] + 1)
        }
        let firstFrame = downFrame.min() ?? 0
        let lastFrame = upFrame.max() ?? 0

        let multitouch = device.axis(.absMTSlot) != nil
        let slotCount = multitouch ? device.slotCount : 1
        var slotOf = [Int?](repeating: nil, count: strokes.count)
        var slotUser = [Int?](repeating: nil, count: slotCount)
        var sent = [DevicePoint?](repeating: nil, count: strokes.count)
        var active: [Int] = []  // stroke indices down, in touch-down order
        // Unknown at first: a uinput device may have another slot selected from an earlier
        // call, so the first selection is always sent (the kernel drops it when unchanged).
        var currentSlot = -1
        var touchKey = false
        var toolKey: EventUsage?
        var emulated: DevicePoint?
        var emulatedPressure: Int32?
        var sentPressure = [Int32](repeating: 0, count: strokes.count)
        var slotTool = [Int32](repeating: 0, count: slotCount)
        var events: [RawEvent] = []

        for frame in firstFrame...lastFrame {
            let frameTime = Double(frame) * frameInterval
            let time = start.adding(seconds: frameTime)
            var frameEvents: [RawEvent] = []
            func emit(_ usage: EventUsage, _ value: Int32) {
                frameEvents.append(RawEvent(time: time, usage: usage, value: value))
            }
            func select(_ slot: Int) {
                if slot != currentSlot && multitouch {
                    emit(.absMTSlot, Int32(slot))
                    currentSlot = slot
                }
            }
            // Lifts first, so that a slot freed now can be reused by a later touch-down. A
            // lifting finger first moves to where its stroke ends (move and lift in one frame,
            // as the kernel may report it), so that every stroke ends at its last keyframe.
            for index in active where upFrame[index] == frame {
                if let slot = slotOf[index] {
                    if multitouch {
                        let point = devicePoint(strokes[index].position(at: strokes[index].up))
                        let previous = sent[index]
                        if previous?.x != point.x || previous?.y != point.y {
                            select(slot)
                            if previous?.x != point.x { emit(.absMTPositionX, point.x) }
                            if previous?.y != point.y { emit(.absMTPositionY, point.y) }
                        }
                        select(slot)
                        emit(.absMTTrackingID, -1)
                    }
                    slotUser[slot] = nil
                }
                slotOf[index] = nil
            }
            active.removeAll { upFrame[$0] == frame }
            var beginning: Set<Int> = []
            for index in strokes.indices where downFrame[index] == frame {
                active.append(index)
                // With more fingers than slots, the extra ones only count in BTN_TOOL_*.
                guard let slot = slotUser.firstIndex(where: { $0 == nil }) else { continue }
                slotUser[slot] = index
                slotOf[index] = slot
                sent[index] = nil
                beginning.insert(index)
            }
            // More fingers than slots: the extra ones count only in BTN_TOOL_*, and the
            // firmware counts fingers in contact, so the slotted ones press at least
            // ``countedContactPressure`` (see there) however their profile lands.
            let countsBeyondSlots = multitouch && active.count > slotCount
            func pressure(_ index: Int) -> Double {
                let fraction = strokes[index].pressure.fraction(after: frameTime - strokes[index].down)
                return countsBeyondSlots ? Swift.max(fraction, Self.countedContactPressure) : fraction
            }
            // Positions of every finger that has a slot.
            for index in active {
                guard let slot = slotOf[index] else { continue }
                let point = devicePoint(strokes[index].position(at: Double(frame) * frameInterval))
                let previous = sent[index]
                guard multitouch else {
                    sent[index] = point
                    continue
                }
                // A new contact: slot, tracking id and tool first, then its values (the order
                // of the kernel's input_mt_report_slot_state and the axis events after it).
                if beginning.contains(index) {
                    select(slot)
                    emit(.absMTTrackingID, nextTrackingID)
                    nextTrackingID = nextTrackingID == 65535 ? 1 : nextTrackingID + 1
                    if device.axis(.absMTToolType) != nil {
                        let tool: Int32 =
                            strokes[index].toolType == .finger ? 0 : strokes[index].toolType == .pen ? 1 : 2
                        if tool != slotTool[slot] {
                            emit(.absMTToolType, tool)
                            slotTool[slot] = tool
                        }
                    }
                }
                if previous?.x != point.x || previous?.y != point.y {
                    select(slot)
                    if previous?.x != point.x { emit(.absMTPositionX, point.x) }
                    if previous?.y != point.y { emit(.absMTPositionY, point.y) }
                }
                if let axis = device.axis(.absMTPressure) {
                    let value = Self.units(axis, pressure(index))
                    if previous == nil || value != sentPressure[index] {
                        select(slot)
                        emit(.absMTPressure, value)
                        sentPressure[index] = value
                    }
                }
                if previous == nil, let major = device.axis(.absMTTouchMajor) {
                    select(slot)
                    emit(
                        .absMTTouchMajor,
                        Swift.min(major.maximum, major.minimum + Self.sizeUnits(device, major, strokes[index].touchMajorMillimeters))
                    )
                }
                sent[index] = point
            }
            // Keys: BTN_TOUCH and the finger count.
            let down = !active.isEmpty
            if down != touchKey && supports(.btnTouch) {
                emit(.btnTouch, down ? 1 : 0)
            }
            touchKey = down
            let newTool = Self.toolKey(forFingers: active.count).flatMap { supports($0) ? $0 : nil }
            if newTool != toolKey {
                if let old = toolKey { emit(old, 0) }
                if let new = newTool { emit(new, 1) }
                toolKey = newTool
            }
            // Single-touch emulation: the oldest finger down (the kernel's pointer emulation).
            if let first = active.first(where: { slotOf[$0] != nil }) ?? active.first, supports(.absX) {
                let point = sent[first] ?? devicePoint(strokes[first].position(at: Double(frame) * frameInterval))
                if emulated?.x != point.x { emit(.absX, point.x) }
                if emulated?.y != point.y { emit(.absY, point.y) }
                if let axis = device.axis(.absPressure) {
                    let value = Self.units(axis, pressure(first))
                    if value != emulatedPressure {
                        emit(.absPressure, value)
                        emulatedPressure = value
                    }
                }
                emulated = point
            } else if emulated != nil {
                if device.axis(.absPressure) != nil { emit(.absPressure, 0) }
                emulated = nil
                emulatedPressure = nil
            }
            if !frameEvents.isEmpty {
                events += frameEvents
                events.append(RawEvent(time: time, usage: .synReport, value: 0))
            }
        }
        return events
    }

    /// The least pressure (fraction of the range) of a slotted contact while the finger count
    /// exceeds the slots. A pad that counts fingers beyond its slots (`BTN_TOOL_*`, the
    /// Synaptics two-slot pads) counts fingers in contact: on the alex board, such a pad, no
    /// slot in the frames counting more fingers than slots (827 slot-frames) presses below
    /// 12 % of the range, and its contacts land at 11 % and more (5th percentile 13 %; the kernel's
    /// synaptics driver reports `BTN_TOUCH` above a Z of 30 of 255). A rising profile that
    /// lands lighter (the libinput side by side's 5 %) would send a hovering contact while
    /// three fingers are counted, which such a pad does not do. An eighth of the range (31 of
    /// 255); pads whose fingers all have slots keep their profile (the Cypress and Atmel
    /// boards' contacts do land at 1–5 %).
    static let countedContactPressure = 0.125

    private func supports(_ usage: EventUsage) -> Bool {
        device.codes.isEmpty || device.supports(usage)
    }

    private static func toolKey(forFingers count: Int) -> EventUsage? {
        switch count {
        case 0: nil
        case 1: .btnToolFinger
        case 2: .btnToolDoubleTap
        case 3: .btnToolTripleTap
        case 4: .btnToolQuadTap
        default: .btnToolQuintTap
        }
    }

    /// A fraction (0…1) of an axis's range in its units (rounded down, so 0.5 is the
    /// integer middle), clamped to the range.
    private static func units(_ axis: AxisInfo, _ fraction: Double) -> Int32 {
        let value = (Double(axis.maximum - axis.minimum) * Swift.min(Swift.max(fraction, 0), 1)).rounded(.down)
        return axis.minimum + Int32(value)
    }

    /// About 8 mm, the width of a fingertip, in the touch-major axis's units.
    private static func sizeUnits(_ device: DeviceDescription, _ axis: AxisInfo, _ millimeters: Double) -> Int32 {
        let resolution = axis.resolution > 0 ? Double(axis.resolution) : device.resolutionX
        return Int32((millimeters * resolution).rounded())
    }

    /// Millimetres to device units, with jitter, clamped to the axis range.
    private mutating func devicePoint(_ point: PhysicalPoint) -> DevicePoint {
        var p = point
        if jitterMillimeters > 0 {
            p.x += (random.nextUnit() * 2 - 1) * jitterMillimeters
            p.y += (random.nextUnit() * 2 - 1) * jitterMillimeters
        }
        let xAxis = device.xAxis ?? AxisInfo(minimum: 0, maximum: 4095)
        let yAxis = device.yAxis ?? AxisInfo(minimum: 0, maximum: 4095)
        let x = Double(xAxis.minimum) + p.x * device.resolutionX
        let y = Double(yAxis.minimum) + p.y * device.resolutionY
        return DevicePoint(
            x: Int32(Swift.min(Swift.max(x.rounded(), Double(xAxis.minimum)), Double(xAxis.maximum))),
            y: Int32(Swift.min(Swift.max(y.rounded(), Double(yAxis.minimum)), Double(yAxis.maximum)))
        )
    }
}
