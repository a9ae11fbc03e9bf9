public import GestureEngine

/// Turns the engine's raw-touch sink output (spec §7) into the frames a uinput clone of a
/// grabbed touchscreen gets: the compositor reads the clone, so the sink's decisions —
/// forward at once, hold back (`DelaysTouchesBegan=`, `DelaysTouchesEnded=`), cancel
/// (`CancelsTouches=`) — are what applications see. One model: the planner never judges a
/// touch itself, it only says in evdev what the sink said in touches.
///
/// Values come from the source, not from the engine: a forwarded touch carries the source
/// slot's coordinates, pressure and sizes exactly (``CloneSourceMirror``). A touch's `began`
/// that the sink delivers late (every recognizer holding it failed) is replayed as a
/// touch-down at its start values in a frame of its own, then its current values; a
/// cancellation switches the slot to `MT_TOOL_PALM` in one frame and lifts it in the next,
/// which libinput turns into `LIBINPUT_EVENT_TOUCH_CANCEL` (its fallback dispatcher cancels
/// a touch that becomes a palm, and never sends that touch's up).
///
/// Pass-through comes first (``passThrough(into:)``): a source frame that only moves contacts
/// cannot change which touches the clone has (the sink decides only when a touch begins,
/// ends, is cancelled or is released late), so the forwarded touches' new values go out
/// before the engine's step for that frame, and the step then adds only what its sink
/// decided (DESIGN.md "Grab and clone").
///
/// Pure value type: events in, events out (each clone frame ends with its `SYN_REPORT`); the
/// daemon writes them to the uinput device.
public struct CloneFramePlanner: Sendable {
    /// `MT_TOOL_FINGER` and `MT_TOOL_PALM`.
    static let toolFinger: Int32 = 0
    static let toolPalm: Int32 = 2
    /// `BTN_TOOL_FINGER` … `BTN_TOOL_QUINTTAP`: one to five fingers down.
    static let fingerKeys: [EventUsage] = [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap]

    struct CloneSlot: Sendable {
        var touch: TouchID?
        /// Where the touch's values come from (its ``Forwarded`` record, kept here too so the
        /// pass-through finds it by the slot's index, not by a hash of the touch).
        var sourceSlot = 0
        var serial: UInt64 = 0
        var trackingID: Int32 = -1
        var tool: Int32 = 0
        /// Order of the touch-down, for the single-touch emulation (the oldest contact).
        var order: UInt64 = 0
    }

    /// A touch the clone has now.
    struct Forwarded: Sendable {
        var cloneSlot: Int
        var sourceSlot: Int
        var serial: UInt64
    }

    public private(set) var mirror: CloneSourceMirror
    private var slots: [CloneSlot]
    /// The per-slot codes (the mirror's ``CloneSourceMirror/codes``).
    private let codes: [UInt16]
    /// What the kernel holds for each clone slot, `codes.count` values a slot, slot after
    /// slot (``CloneSourceMirror/codes`` order): the kernel drops an unchanged value, so only
    /// changes are written.
    private var kernelValues: [Int32]
    /// The clone slots that have a touch, in slot order (the order their values are written).
    private var occupied: [Int] = []
    private var forwarded: [TouchID: Forwarded] = [:]
    private var nextTrackingID: Int32 = 1
    private var nextOrder: UInt64 = 1
    private var other: [RawEvent] = []
    private var inResync = false
    /// The last source frame observed only moved contacts (none began or ended, no events
    /// were lost): ``passThrough(into:)`` may send its values before the engine's step.
    private var lastFrameIsMotion = false
    private let toolIndex: Int?
    private let xIndex: Int?
    private let yIndex: Int?
    private let pressureIndex: Int?
    private let emulation: Emulation
    private var emulated = EmulatedState()
    /// Touches the sink referred to that the planner could not place (no such source contact,
    /// no free clone slot); for the daemon's debug log.
    public private(set) var unplaced = 0
    /// Landings written ahead of their step (``planLandings(_:into:)``) that wait for the
    /// step's `began`.
    private var provisional: [TouchID] = []
    /// Landings written ahead of their step that the step then claimed: they were cancelled in
    /// the clone (a begin and a cancel where the application would otherwise have seen
    /// nothing); for the daemon's debug log and the tests.
    public private(set) var unforeseen = 0

    struct Emulation: Sendable {
        var btnTouch: Bool
        var toolKeys: [EventUsage]
        var absX: Bool
        var absY: Bool
        var absPressure: Bool
    }

    struct EmulatedState: Sendable {
        var touch = false
        var toolKey: EventUsage?
        var x: Int32?
        var y: Int32?
        var pressure: Int32?
    }

    /// - Parameter device: the source as the kernel describes it (its slots and codes).
    public init(device: DeviceDescription) {
        mirror = CloneSourceMirror(device: device)
        let codes = mirror.codes
        self.codes = codes
        slots = Array(repeating: CloneSlot(), count: max(1, device.slotCount))
        kernelValues = Array(repeating: 0, count: slots.count * codes.count)
        toolIndex = codes.firstIndex(of: EventUsage.absMTToolType.code)
        xIndex = codes.firstIndex(of: EventUsage.absMTPositionX.code)
        yIndex = codes.firstIndex(of: EventUsage.absMTPositionY.code)
        pressureIndex = codes.firstIndex(of: EventUsage.absMTPressure.code)
        let keys = Self.fingerKeys
        emulation = Emulation(
            btnTouch: device.codes.contains(.btnTouch),
            toolKeys: keys.filter { device.codes.contains($0) },
            absX: device.codes.contains(.absX),
            absY: device.codes.contains(.absY),
            absPressure: device.codes.contains(.absPressure) && pressureIndex != nil
        )
    }

    /// Whether the clone has a touch down now.
    public var hasTouchDown: Bool { !forwarded.isEmpty }

    /// The touches the clone has now, for tests.
    public var forwardedTouches: [TouchID] { forwarded.keys.sorted() }

    /// Takes one frame of source events (up to and including its `SYN_REPORT`), before the
    /// engine's output for it is planned. Events that are not about touches (`MSC_*`,
    /// other keys) are kept to go out with the next clone frame; after a `SYN_DROPPED` the
    /// sync events only update the mirror.
    public mutating func observeSource(_ events: some Sequence<RawEvent>) {
        for event in events {
            mirror.feed(event)
            switch event.usage.type {
            case EventUsage.evSyn:
                if event.usage == .synDropped { inResync = true }
                if event.usage == .synReport {
                    lastFrameIsMotion = !inResync && !mirror.lastFrameChangedContacts
                    inResync = false
                }
            case EventUsage.evAbs:
                // Per-slot axes go out per forwarded touch; the single-touch axes are emulated
                // from the clone's own touches.
                let code = event.usage.code
                if code >= EventUsage.absMTSlot.code || code == EventUsage.absX.code || code == EventUsage.absY.code
                    || code == EventUsage.absPressure.code
                {
                    continue
                }
                if !inResync { other.append(event) }
            case EventUsage.evKey:
                if event.usage == .btnTouch || Self.fingerKeys.contains(event.usage) { continue }
                if !inResync { other.append(event) }
            default:
                if !inResync { other.append(event) }
            }
        }
    }

    /// The clone frame of the source frame last observed, before the engine has seen it,
    /// when that frame only moved contacts: the current values of every touch the clone has
    /// and the frame's other events, as the step's own frame would carry them. Whatever the
    /// engine's step then decides (a cancel, a touch released late) follows in frames of its
    /// own from ``plan(_:into:)``, which finds these values already written. Appends nothing
    /// for a frame that began or ended a contact or came after lost events: there the sink
    /// decides first.
    /// Returns whether the frame only moved contacts (whether or not anything was appended).
    @discardableResult
    public mutating func passThrough(into out: inout [RawEvent]) -> Bool {
        guard lastFrameIsMotion else { return false }
        lastFrameIsMotion = false
        var changed = writeForwardedValues(skipping: [], into: &out)
        if !other.isEmpty {
            out += other
            other.removeAll(keepingCapacity: true)
            changed = true
        }
        if changed { endFrame(into: &out) }
        return true
    }

    /// The clone frames of a source frame's landings that the engine foresaw forwarding at
    /// once (``GestureEngine/landingsForwardedAtOnce(in:)``), written before its step: the
    /// touch-downs with the current values of every touch the clone has and the frame's
    /// other events, as ``plan(_:into:)`` would write them for the step's own `began`s, which
    /// it then skips. The landings stay provisional until that next ``plan(_:into:)``: one
    /// whose `began` the step did not emit after all (a gesture with `CancelsTouches=` began
    /// on the landing itself) is cancelled there, palm then lift, and counted in
    /// ``unforeseen``.
    public mutating func planLandings(_ began: [SinkTouchEvent], into out: inout [RawEvent]) {
        plan(began, into: &out)
        provisional.removeAll(keepingCapacity: true)
        for event in began where forwarded[event.touch] != nil { provisional.append(event.touch) }
    }

    /// The clone frames for one engine step's sink output (``EngineOutput/touch(_:)``
    /// events in order) after the source frame last observed, or after a timer step.
    public mutating func plan(_ sink: some Sequence<SinkTouchEvent>) -> [RawEvent] {
        var out: [RawEvent] = []
        plan(sink, into: &out)
        return out
    }

    /// ``plan(_:)`` appending to a buffer the caller keeps (no array per step).
    public mutating func plan(_ sink: some Sequence<SinkTouchEvent>, into out: inout [RawEvent]) {
        // A step planned without its pass-through (a timer, or a caller that skipped it)
        // writes the values itself.
        lastFrameIsMotion = false
        var lateBegins: [TouchID] = []
        var begunNow: [TouchID] = []
        var ends: [TouchID] = []
        var cancels: [TouchID] = []
        for event in sink {
            switch event.phase {
            case .began:
                if !provisional.isEmpty, let k = provisional.firstIndex(of: event.touch) { provisional.remove(at: k) }
                guard forwarded[event.touch] == nil else { continue }
                guard let contact = mirror.contact(slot: event.slot, at: event.timestamp),
                    let cloneSlot = freeSlot(preferring: event.slot)
                else {
                    unplaced += 1
                    continue
                }
                forwarded[event.touch] = Forwarded(cloneSlot: cloneSlot, sourceSlot: event.slot, serial: contact.serial)
                slots[cloneSlot].touch = event.touch
                occupied.insert(cloneSlot, at: occupied.firstIndex { $0 > cloneSlot } ?? occupied.endIndex)
                slots[cloneSlot].sourceSlot = event.slot
                slots[cloneSlot].serial = contact.serial
                let isLate = contact.startFrame != mirror.frameSerial || !contact.isDown
                if isLate { lateBegins.append(event.touch) } else { begunNow.append(event.touch) }
            case .moved, .stationary:
                // Values follow the source for every forwarded touch (below).
                continue
            case .ended:
                if forwarded[event.touch] != nil { ends.append(event.touch) }
            case .cancelled:
                if forwarded[event.touch] != nil { cancels.append(event.touch) }
            }
        }
        // Landings written ahead of the step whose `began` the step did not emit.
        if !provisional.isEmpty {
            for id in provisional where forwarded[id] != nil && !cancels.contains(id) {
                cancels.append(id)
                unforeseen += 1
            }
            provisional.removeAll(keepingCapacity: true)
        }
        // 1. Late touch-downs at their start values, alone in their frame.
        if !lateBegins.isEmpty {
            for id in lateBegins { touchDown(id, atStart: true, into: &out) }
            endFrame(into: &out)
        }
        // 2. The frame of the step: current values, new touch-downs, lifts, palms, other events.
        var changed = false
        for id in begunNow {
            touchDown(id, atStart: false, into: &out)
            changed = true
        }
        if writeForwardedValues(skipping: begunNow + cancels, into: &out) { changed = true }
        let liftsLater = ends.filter { lateBegins.contains($0) || begunNow.contains($0) }
        for id in ends where !liftsLater.contains(id) {
            lift(id, into: &out)
            changed = true
        }
        for id in cancels {
            guard let f = forwarded[id] else { continue }
            selectSlot(f.cloneSlot, into: &out)
            out.append(event(.absMTToolType, Self.toolPalm))
            slots[f.cloneSlot].tool = Self.toolPalm
            changed = true
        }
        if !other.isEmpty {
            out += other
            other.removeAll(keepingCapacity: true)
            changed = true
        }
        if changed { endFrame(into: &out) }
        // 3. Lifts that must follow a frame of their own: cancelled touches, and touches that
        //    went down in this step.
        if !liftsLater.isEmpty || !cancels.isEmpty {
            for id in liftsLater + cancels { lift(id, into: &out) }
            endFrame(into: &out)
        }
    }

    /// Writes the source's current values of every touch the clone has, except `skipped`;
    /// returns whether any differed from what the clone holds.
    private mutating func writeForwardedValues(skipping skipped: [TouchID], into out: inout [RawEvent]) -> Bool {
        var changed = false
        // By position, not `for … in occupied`: the loop would hold a copy of the array (a
        // retain and a release a frame) while `write` changes the planner.
        var position = 0
        while position < occupied.count {
            let index = occupied[position]
            position += 1
            guard let id = slots[index].touch, skipped.isEmpty || !skipped.contains(id),
                let values = mirror.values(serial: slots[index].serial, slot: slots[index].sourceSlot)
            else { continue }
            if write(values, tool: sourceTool(values), toSlot: index, into: &out) { changed = true }
        }
        return changed
    }

    /// Lifts every touch the clone has (the daemon stops, the grab ends, the source is
    /// gone): no touch is left down in the compositor.
    public mutating func liftAll() -> [RawEvent] {
        var out: [RawEvent] = []
        for id in forwarded.keys.sorted() { lift(id, into: &out) }
        other.removeAll()
        if !out.isEmpty { endFrame(into: &out) }
        return out
    }

    // MARK: - Frame building

    private func freeSlot(preferring index: Int) -> Int? {
        if slots.indices.contains(index), slots[index].touch == nil { return index }
        return slots.indices.first { slots[$0].touch == nil }
    }

    private func sourceTool(_ values: ArraySlice<Int32>) -> Int32 {
        guard let toolIndex else { return Self.toolFinger }
        return values[values.startIndex + toolIndex]
    }

    private mutating func touchDown(_ id: TouchID, atStart: Bool, into out: inout [RawEvent]) {
        guard let f = forwarded[id], let contact = mirror.contact(serial: f.serial, slot: f.sourceSlot) else { return }
        let values = atStart ? contact.start[...] : contact.values[...]
        let index = f.cloneSlot
        selectSlot(index, into: &out)
        // The tool goes first: libinput reads the slot's tool as the tracking id arrives, and
        // a slot still marked a palm (a cancelled touch) would make the new touch one.
        let tool = sourceTool(values)
        if slots[index].tool != tool {
            out.append(event(.absMTToolType, tool))
            slots[index].tool = tool
        }
        slots[index].trackingID = nextTrackingID
        out.append(event(.absMTTrackingID, nextTrackingID))
        // Tracking ids are 16 bits on many devices; wrap before the axis maximum.
        nextTrackingID = nextTrackingID >= 65_535 ? 1 : nextTrackingID + 1
        slots[index].order = nextOrder
        nextOrder += 1
        noteActiveSlots()
        write(values, tool: tool, toSlot: index, into: &out)
    }

    private mutating func lift(_ id: TouchID, into out: inout [RawEvent]) {
        guard let f = forwarded.removeValue(forKey: id) else { return }
        selectSlot(f.cloneSlot, into: &out)
        out.append(event(.absMTTrackingID, -1))
        slots[f.cloneSlot].trackingID = -1
        slots[f.cloneSlot].touch = nil
        occupied.removeAll { $0 == f.cloneSlot }
        noteActiveSlots()
    }

    /// Writes the values of `slot` that differ from what the kernel holds; returns whether any
    /// did.
    @discardableResult
    private mutating func write(_ values: ArraySlice<Int32>, tool: Int32, toSlot index: Int, into out: inout [RawEvent]) -> Bool {
        var wrote = false
        let base = values.startIndex
        let held = index * codes.count
        // Which values differ, one bit a code (at most 15 per-slot codes), found without
        // writing anything; then each is written, in code order.
        var differing: UInt32 = 0
        let count = min(codes.count, values.count)
        values.withUnsafeBufferPointer { source in
            kernelValues.withUnsafeBufferPointer { kernel in
                for i in 0..<count where kernel[held &+ i] != source[i] { differing |= 1 &<< UInt32(i) }
            }
        }
        if let toolIndex { differing &= ~(1 &<< UInt32(toolIndex)) }
        while differing != 0 {
            let i = differing.trailingZeroBitCount
            differing &= differing - 1
            let value = values[base + i]
            selectSlot(index, into: &out)
            out.append(RawEvent(time: .zero, type: EventUsage.evAbs, code: codes[i], value: value))
            kernelValues[held + i] = value
            wrote = true
        }
        if slots[index].tool != tool {
            selectSlot(index, into: &out)
            out.append(event(.absMTToolType, tool))
            slots[index].tool = tool
            wrote = true
        }
        return wrote
    }

    /// The slot the kernel has selected for the clone (it keeps it between frames).
    private var currentSlot = 0
    /// The clone's slots with a tracking id, and the oldest of them (the single-touch
    /// emulation's): they change only as a touch goes down or lifts, so ``endFrame(into:)``
    /// does not count them every frame.
    private var activeCount = 0
    private var oldestActive: Int?
    /// The `BTN_TOOL_*` key the active count wants (nil: none, or the device has none).
    private var wantedToolKey: EventUsage?

    private mutating func noteActiveSlots() {
        activeCount = 0
        oldestActive = nil
        for index in slots.indices where slots[index].trackingID >= 0 {
            activeCount += 1
            if oldestActive.map({ slots[index].order < slots[$0].order }) ?? true { oldestActive = index }
        }
        let all = Self.fingerKeys
        let wanted: EventUsage? = activeCount == 0 ? nil : all[min(activeCount, all.count) - 1]
        wantedToolKey = wanted.flatMap { emulation.toolKeys.contains($0) ? $0 : emulation.toolKeys.last }
    }

    private mutating func selectSlot(_ index: Int, into out: inout [RawEvent]) {
        guard currentSlot != index else { return }
        out.append(event(.absMTSlot, Int32(index)))
        currentSlot = index
    }

    private func event(_ usage: EventUsage, _ value: Int32) -> RawEvent {
        RawEvent(time: .zero, usage: usage, value: value)
    }

    /// The single-touch emulation (`BTN_TOUCH`, `BTN_TOOL_*`, `ABS_X/Y/PRESSURE`) of the
    /// clone's own touches, as the kernel's `input_mt_report_pointer_emulation` does it, then
    /// the `SYN_REPORT`.
    private mutating func endFrame(into out: inout [RawEvent]) {
        if emulation.btnTouch, emulated.touch != (activeCount > 0) {
            emulated.touch = activeCount > 0
            out.append(event(.btnTouch, activeCount == 0 ? 0 : 1))
        }
        if wantedToolKey != emulated.toolKey {
            if let old = emulated.toolKey { out.append(event(old, 0)) }
            if let key = wantedToolKey { out.append(event(key, 1)) }
            emulated.toolKey = wantedToolKey
        }
        if let oldest = oldestActive {
            let held = oldest * codes.count
            if emulation.absX, let xIndex, emulated.x != kernelValues[held + xIndex] {
                emulated.x = kernelValues[held + xIndex]
                out.append(event(.absX, kernelValues[held + xIndex]))
            }
            if emulation.absY, let yIndex, emulated.y != kernelValues[held + yIndex] {
                emulated.y = kernelValues[held + yIndex]
                out.append(event(.absY, kernelValues[held + yIndex]))
            }
            if emulation.absPressure, let pressureIndex, emulated.pressure != kernelValues[held + pressureIndex] {
                emulated.pressure = kernelValues[held + pressureIndex]
                out.append(event(.absPressure, kernelValues[held + pressureIndex]))
            }
        } else if emulation.absPressure, emulated.pressure != 0 {
            emulated.pressure = 0
            out.append(event(.absPressure, 0))
        }
        out.append(event(.synReport, 0))
    }
}
