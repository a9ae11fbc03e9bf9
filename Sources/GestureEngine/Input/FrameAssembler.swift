/// Turns a device's raw evdev events into ``Frame``s, one per `SYN_REPORT` (spec §2.2–2.5).
///
/// The assembler keeps the kernel's per-slot state (tracking id, position, tool type, pressure,
/// touch size) and the engine's view of each contact (touch id, start, suppression). It handles:
///
/// * **Protocol B** (slots): `ABS_MT_SLOT` selects a slot (an out-of-range slot is clamped to
///   the last slot and reported as ``EngineDiagnostic/kernelBug(_:)``); `ABS_MT_TRACKING_ID ≥ 0`
///   begins a contact, `−1` ends it (later position events for that slot in the same frame are
///   ignored), a different id without `−1` ends the old contact and begins a new one.
/// * **Protocol A** (`SYN_MT_REPORT` groups, no slots): contacts are matched frame to frame by
///   their kernel tracking id when every contact has one, else by nearest neighbour, so that
///   they keep stable touch ids. This is the recording path; live protocol-A devices are
///   converted to protocol B by mtdev in GesturedSystem.
/// * **Single-touch devices** (`ABS_X`/`ABS_Y` + `BTN_TOUCH`, no MT axes): one finger.
/// * **Tool types** (`ABS_MT_TOOL_TYPE`): a palm or pen at begin is suppressed for the contact's
///   life; a tracked finger that turns into a palm (or pen) is `cancelled` and stays
///   suppressed until it lifts.
/// * **Capacity**: at most `maxTouches` contacts are delivered; any further contact is
///   suppressed for its whole life (never delivered, never counted).
/// * **SYN_DROPPED**: see ``beginResync()``.
///
/// Frame timestamps are the `SYN_REPORT` times made monotonic
/// (`t = max(t_event, t_previous_frame)`); touch ids are serials that are never reused.
///
/// A contact that begins and ends inside one kernel frame appears **twice** in
/// ``Frame/touches``, first `began` then `ended`, with the same id (spec §2.3: "delivered as
/// began and ended in that same frame, began first"). An ending contact whose position also
/// changed in its last frame is delivered once, as `ended`, with the new ``Touch/position`` and
/// the old ``Touch/previousPosition``.
public struct FrameAssembler: Sendable {
    /// The device the events come from.
    public let device: DeviceDescription
    /// The most contacts delivered at once (spec §2.4).
    public let maxTouches: Int

    private enum Mode: Sendable { case protocolB, protocolA, singleTouch }

    /// Why a contact is never delivered (kept for debugging; every reason suppresses alike).
    private enum Suppression: Sendable { case tool, capacity, stale }

    /// The engine's view of one physical contact.
    private struct Contact: Sendable {
        var id: TouchID
        var trackingID: Int32
        var startPosition: PhysicalPoint
        var startTime: Timestamp
        /// Position at the end of the previous frame (mm).
        var lastPosition: PhysicalPoint
        /// Position at the end of the previous frame (device units).
        var lastDevicePosition: DevicePoint
        /// Set when the contact began in the current frame and has not been committed yet.
        var isNew: Bool
        /// Delivered at least once (a `began` went out).
        var isDelivered: Bool
        var suppression: Suppression?
    }

    /// The kernel's state of one slot, plus the contact living in it.
    private struct Slot: Sendable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        /// Whether X and Y were ever reported for this slot. A recording that starts while a
        /// finger is down may omit a coordinate the kernel had already sent (it sends only
        /// changes): the contact waits until both are known rather than appearing at 0.
        var xKnown = true
        var yKnown = true
        var positionKnown: Bool { xKnown && yKnown }
        var pressure: Int32?
        var touchMajor: Int32?
        var touchMinor: Int32?
        var orientation: Int32?
        var toolType: Int32 = 0
        var contact: Contact?
    }

    /// One protocol-A contact as reported between two `SYN_MT_REPORT`s.
    private struct ReportedContact: Sendable {
        var x: Int32?
        var y: Int32?
        var pressure: Int32?
        var touchMajor: Int32?
        var touchMinor: Int32?
        var orientation: Int32?
        var toolType: Int32 = 0
        var trackingID: Int32?
        var isEmpty: Bool { x == nil && y == nil && trackingID == nil }
    }

    /// Axis figures looked up once: ``DeviceDescription`` keeps its axes in a dictionary, and
    /// every touch of every frame converts its position (spec §2.1.2).
    private struct Conversion: Sendable {
        var xMinimum: Int32
        var yMinimum: Int32
        /// Units per millimetre (``DeviceDescription/resolutionX``, with its fallback).
        var xResolution: Double
        var yResolution: Double
        /// Units per millimetre of `ABS_MT_TOUCH_MAJOR` / `MINOR` (their own resolution, else X).
        var touchMajorResolution: Double
        var touchMinorResolution: Double
        var hasTouchKey: Bool
        /// The device's calibration and the axis ranges it works over; nil for none or the
        /// identity.
        var calibration: Calibration?
        var xRange: (min: Double, max: Double)
        var yRange: (min: Double, max: Double)

        init(_ device: DeviceDescription) {
            xMinimum = device.xAxis?.minimum ?? 0
            yMinimum = device.yAxis?.minimum ?? 0
            calibration = device.calibration.flatMap { $0.isIdentity ? nil : $0 }
            xRange = (Double(xMinimum), Double(device.xAxis?.maximum ?? 0))
            yRange = (Double(yMinimum), Double(device.yAxis?.maximum ?? 0))
            xResolution = device.resolutionX
            yResolution = device.resolutionY
            func sizeResolution(_ usage: EventUsage) -> Double {
                if let resolution = device.axis(usage)?.resolution, resolution > 0 { return Double(resolution) }
                return device.resolutionX
            }
            touchMajorResolution = sizeResolution(.absMTTouchMajor)
            touchMinorResolution = sizeResolution(.absMTTouchMinor)
            hasTouchKey = device.codes.contains(.btnTouch)
        }
    }

    /// Keys held, as a bit set over key codes (`KEY_MAX` is 0x2ff): checked on every frame,
    /// where a `Set` would hash each code.
    private struct KeySet: Sendable {
        private var words = [UInt64](repeating: 0, count: 12)

        func contains(_ code: UInt16) -> Bool {
            let word = Int(code) >> 6
            return word < words.count && words[word] & (1 << UInt64(code & 63)) != 0
        }

        mutating func insert(_ code: UInt16) {
            let word = Int(code) >> 6
            if word < words.count { words[word] |= 1 << UInt64(code & 63) }
        }

        mutating func remove(_ code: UInt16) {
            let word = Int(code) >> 6
            if word < words.count { words[word] &= ~(1 << UInt64(code & 63)) }
        }
    }

    private let mode: Mode
    private let conversion: Conversion
    private var slots: [Slot]
    private var currentSlot = 0
    private var nextTouchID: UInt64 = 1
    private var lastFrameTime: Timestamp?
    /// Touches that ended, were cancelled or began-and-ended during the current kernel frame.
    private var closedThisFrame: [Touch] = []
    /// Keys (`BTN_*`) currently held, by code.
    private var keysDown = KeySet()
    /// The touch list of the last frame, reused for the next one once the caller has let go
    /// of that frame, so that steady-state frames allocate nothing.
    private var spareTouches: [Touch] = []
    private var reportsFingerCount: Bool
    private var isResyncing = false
    private var diagnostics: [EngineDiagnostic] = []
    private var droppedDiagnostics = 0
    // Protocol A.
    private var reported: [ReportedContact] = []
    private var pendingReport = ReportedContact()
    // Single-touch.
    private var singleTouchDown = false
    /// `BTN_TOUCH` appeared in the stream (protocol A then trusts it for "nothing touches").
    private var touchKeySeen = false

    /// The position axes' ranges (nil when the device's own is inverted) and whether a value
    /// outside each was noted yet: once per axis, as libinput does, since real touchpads
    /// overshoot their ranges a little and a note per event would drown the log.
    private let positionRanges: (x: ClosedRange<Int32>?, y: ClosedRange<Int32>?)
    private var positionRangeNoted = (x: false, y: false)

    /// The most diagnostics kept between two ``drainDiagnostics()`` calls; a device spewing
    /// nonsense must not grow memory without bound.
    private static let diagnosticLimit = 64

    /// Creates an assembler for `device`.
    ///
    /// - Parameters:
    ///   - device: decides the protocol (slots → B, MT axes without slots → A, else
    ///     single-touch), the slot count and the mm conversion.
    ///   - maxTouches: the most contacts delivered at once (spec §2.4, default 10).
    public init(device: DeviceDescription, maxTouches: Int = 10) {
        precondition(maxTouches > 0, "maxTouches must be positive")
        self.device = device
        self.maxTouches = maxTouches
        self.conversion = Conversion(device)
        if device.axis(.absMTSlot) != nil {
            mode = .protocolB
        } else if device.axis(.absMTPositionX) != nil {
            mode = .protocolA
        } else {
            mode = .singleTouch
        }
        func range(_ usage: EventUsage) -> ClosedRange<Int32>? {
            guard let axis = device.axis(usage), axis.minimum <= axis.maximum else { return nil }
            return axis.minimum...axis.maximum
        }
        positionRanges = mode == .singleTouch ? (range(.absX), range(.absY)) : (range(.absMTPositionX), range(.absMTPositionY))
        slots = Array(repeating: Slot(), count: mode == .protocolB ? max(1, device.slotCount) : 1)
        if mode == .protocolB {
            for index in slots.indices {
                slots[index].xKnown = false
                slots[index].yKnown = false
            }
        }
        let fingerCodes: [EventUsage] = [
            .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap, .btnTouch,
        ]
        reportsFingerCount = fingerCodes.contains { device.codes.contains($0) }
    }

    /// Takes one event; returns the finished frame when `event` is a `SYN_REPORT`.
    ///
    /// A `SYN_DROPPED` event starts a resync (``beginResync()``); the `SYN_REPORT` that ends it
    /// returns the synthetic cancel frame instead of a kernel frame.
    public mutating func feed(_ event: RawEvent) -> Frame? {
        switch event.usage.type {
        case EventUsage.evSyn:
            switch event.usage {
            case .synReport:
                if isResyncing { return endResync(at: event.time) }
                return commit(at: event.time)
            case .synDropped:
                beginResync()
            case .synMTReport:
                if mode == .protocolA && !pendingReport.isEmpty {
                    reported.append(pendingReport)
                }
                pendingReport = ReportedContact()
            default:
                break
            }
        case EventUsage.evKey:
            if event.value != 0 { keysDown.insert(event.usage.code) } else { keysDown.remove(event.usage.code) }
            if event.usage == .btnTouch { touchKeySeen = true }
            if Self.fingerCount(ofKey: event.usage.code) != nil || event.usage == .btnTouch { reportsFingerCount = true }
        case EventUsage.evAbs:
            switch mode {
            case .protocolB: absProtocolB(event)
            case .protocolA: absProtocolA(event)
            case .singleTouch: absSingleTouch(event)
            }
        default:
            break
        }
        return nil
    }

    /// Starts a resync after lost events (`SYN_DROPPED`, spec §2.5).
    ///
    /// Every event fed from now up to the next `SYN_REPORT` (or ``endResync(at:)``) updates the
    /// kernel state silently. That covers both ways events reach the assembler:
    /// * a raw kernel stream or recording: the partial frame after `SYN_DROPPED`, which the
    ///   kernel documentation says to discard;
    /// * libevdev: after `LIBEVDEV_READ_STATUS_SYNC`, the sync events that describe the current
    ///   device state, followed by their `SYN_REPORT`.
    ///
    /// The resync then ends with one synthetic frame cancelling every touch that was active
    /// before the drop, and every contact still down afterwards is stale: suppressed until it
    /// lifts. Contacts that begin later are normal.
    public mutating func beginResync() {
        isResyncing = true
        pendingReport = ReportedContact()
        reported = []
    }

    /// Ends a resync started by ``beginResync()``; `feed` calls it on the `SYN_REPORT` that ends
    /// the drop.
    ///
    /// - Parameter time: the time of that `SYN_REPORT` (made monotonic).
    /// - Returns: the synthetic frame cancelling every touch active before the drop, or `nil`
    ///   when none was.
    public mutating func endResync(at time: Timestamp) -> Frame? {
        isResyncing = false
        let timestamp = monotonic(time)
        let cancelled = cancelDeliveredTouches()
        closedThisFrame = []
        switch mode {
        case .protocolB:
            for index in slots.indices {
                if slots[index].trackingID >= 0 {
                    slots[index].contact = newContact(slot: index, trackingID: slots[index].trackingID, at: timestamp)
                    slots[index].contact?.suppression = .stale
                    slots[index].contact?.isNew = false
                } else {
                    slots[index].contact = nil
                }
            }
        case .protocolA:
            // The partial frame is unusable; whatever is down now is stale until everything lifts.
            markAllStale(if: true)
        case .singleTouch:
            singleTouchDown = isSingleTouchDown
            markAllStale(if: singleTouchDown)
        }
        guard !cancelled.isEmpty else { return nil }
        return makeFrame(at: timestamp, touches: cancelled, isSynthetic: true)
    }

    /// The device went away (or was suspended, or the grab was lost): cancels every delivered
    /// touch in one synthetic frame. Contacts still down become stale.
    ///
    /// - Parameter time: the time of the cancellation (made monotonic).
    /// - Returns: the cancel frame, or `nil` when no touch was active.
    public mutating func cancelAll(at time: Timestamp) -> Frame? {
        let timestamp = monotonic(time)
        let cancelled = cancelDeliveredTouches()
        closedThisFrame = []
        for index in slots.indices where slots[index].contact != nil {
            slots[index].contact?.suppression = .stale
        }
        guard !cancelled.isEmpty else { return nil }
        return makeFrame(at: timestamp, touches: cancelled, isSynthetic: true)
    }

    /// Whether ``drainDiagnostics()`` has anything to return (checked per frame, for free).
    public var hasDiagnostics: Bool { !diagnostics.isEmpty || droppedDiagnostics > 0 }

    /// Returns and forgets what the assembler noticed (kernel bugs such as out-of-range slots
    /// or timestamps going backwards).
    public mutating func drainDiagnostics() -> [EngineDiagnostic] {
        guard hasDiagnostics else { return [] }
        var result = diagnostics
        if droppedDiagnostics > 0 {
            result.append(.kernelBug("\(droppedDiagnostics) further kernel-bug notes suppressed"))
        }
        diagnostics = []
        droppedDiagnostics = 0
        return result
    }

    /// The number of contacts currently down that are being delivered (not suppressed).
    public var activeTouchCount: Int {
        slots.count { $0.contact.map { $0.suppression == nil && !$0.isNew } ?? false }
    }

    // MARK: - Protocol B

    private mutating func absProtocolB(_ event: RawEvent) {
        let value = event.value
        switch event.usage {
        case .absMTSlot:
            if value < 0 || Int(value) >= slots.count {
                let clamped = value < 0 ? 0 : slots.count - 1
                note("slot \(value) out of range 0…\(slots.count - 1), using slot \(clamped)")
                currentSlot = clamped
            } else {
                currentSlot = Int(value)
            }
        case .absMTTrackingID:
            setTrackingID(value, slot: currentSlot, at: event.time)
        case _ where slots[currentSlot].trackingID < 0 && !isResyncing:
            break  // Values for a slot whose contact ended are ignored until a new id (spec §2.2).
        case .absMTPositionX:
            slots[currentSlot].x = value
            slots[currentSlot].xKnown = true
            if !positionRangeNoted.x { checkPositionRange(event) }
        case .absMTPositionY:
            slots[currentSlot].y = value
            slots[currentSlot].yKnown = true
            if !positionRangeNoted.y { checkPositionRange(event) }
        case .absMTPressure:
            slots[currentSlot].pressure = value
        case .absMTTouchMajor:
            slots[currentSlot].touchMajor = value
        case .absMTTouchMinor:
            slots[currentSlot].touchMinor = value
        case .absMTOrientation:
            slots[currentSlot].orientation = value
        case .absMTToolType:
            slots[currentSlot].toolType = value
        default:
            break  // ABS_X/ABS_Y and friends are the kernel's single-touch emulation.
        }
    }

    private mutating func setTrackingID(_ value: Int32, slot index: Int, at time: Timestamp) {
        let old = slots[index].trackingID
        guard value != old else { return }
        slots[index].trackingID = value
        if isResyncing { return }  // Applied silently; endResync rebuilds the contacts.
        if slots[index].contact != nil {
            closeContact(inSlot: index, at: time)
        }
        if value >= 0 {
            slots[index].contact = newContact(slot: index, trackingID: value, at: time)
        }
    }

    // MARK: - Protocol A

    private mutating func absProtocolA(_ event: RawEvent) {
        let value = event.value
        switch event.usage {
        case .absMTPositionX: pendingReport.x = value
        case .absMTPositionY: pendingReport.y = value
        case .absMTPressure: pendingReport.pressure = value
        case .absMTTouchMajor: pendingReport.touchMajor = value
        case .absMTTouchMinor: pendingReport.touchMinor = value
        case .absMTOrientation: pendingReport.orientation = value
        case .absMTToolType: pendingReport.toolType = value
        case .absMTTrackingID: pendingReport.trackingID = value
        default: break
        }
    }

    /// Matches this frame's reported contacts to the open ones and updates `slots` (used here
    /// as a plain list of contacts) so that the common commit code can deliver them.
    private mutating func matchProtocolA(at time: Timestamp) {
        if !pendingReport.isEmpty { reported.append(pendingReport) }
        pendingReport = ReportedContact()
        var incoming = reported.filter { $0.x != nil || $0.y != nil }
        reported = []
        // BTN_TOUCH up means nothing touches, whatever a sloppy driver left in the frame.
        if touchKeySeen && !keysDown.contains(EventUsage.btnTouch.code) { incoming = [] }

        let open = slots.indices.filter { slots[$0].contact != nil }
        var assignment: [Int: Int] = [:]  // incoming index → slot index
        let useIDs = !incoming.isEmpty && incoming.allSatisfy { $0.trackingID != nil }
        if useIDs {
            for (i, contact) in incoming.enumerated() {
                if let slot = open.first(where: { slots[$0].trackingID == contact.trackingID }) {
                    assignment[i] = slot
                }
            }
        } else {
            // Greedy nearest neighbour over all pairs, shortest distance first.
            var pairs: [(distance: Int64, incoming: Int, slot: Int)] = []
            for (i, contact) in incoming.enumerated() {
                for slot in open {
                    let dx = Int64(contact.x ?? slots[slot].x) - Int64(slots[slot].x)
                    let dy = Int64(contact.y ?? slots[slot].y) - Int64(slots[slot].y)
                    pairs.append((dx * dx + dy * dy, i, slot))
                }
            }
            pairs.sort { ($0.distance, $0.incoming, $0.slot) < ($1.distance, $1.incoming, $1.slot) }
            var usedSlots: Set<Int> = []
            for pair in pairs where assignment[pair.incoming] == nil && !usedSlots.contains(pair.slot) {
                assignment[pair.incoming] = pair.slot
                usedSlots.insert(pair.slot)
            }
        }
        let kept = Set(assignment.values)
        for slot in open where !kept.contains(slot) {
            closeContact(inSlot: slot, at: time)
            slots[slot] = Slot()
        }
        for (i, contact) in incoming.enumerated() {
            let slot: Int
            if let assigned = assignment[i] {
                slot = assigned
            } else {
                if let free = slots.indices.first(where: { slots[$0].contact == nil }) {
                    slot = free
                } else {
                    slots.append(Slot())
                    slot = slots.count - 1
                }
                slots[slot] = Slot()
                slots[slot].trackingID = contact.trackingID ?? Int32(truncatingIfNeeded: nextTouchID)
            }
            slots[slot].x = contact.x ?? slots[slot].x
            slots[slot].y = contact.y ?? slots[slot].y
            slots[slot].pressure = contact.pressure
            slots[slot].touchMajor = contact.touchMajor
            slots[slot].touchMinor = contact.touchMinor
            slots[slot].orientation = contact.orientation
            slots[slot].toolType = contact.toolType
            if assignment[i] == nil {
                slots[slot].contact = newContact(slot: slot, trackingID: slots[slot].trackingID, at: time)
            }
        }
        // A stale set (after SYN_DROPPED) lasts until everything has lifted.
        if !slots.indices.contains(where: { slots[$0].contact != nil }) { staleUntilAllLift = false }
        if staleUntilAllLift {
            for slot in slots.indices where slots[slot].contact?.isNew == true {
                slots[slot].contact?.suppression = .stale
            }
        }
    }

    /// Protocol A has no per-contact identity across a drop: after `SYN_DROPPED` every contact
    /// is stale until a frame reports none.
    private var staleUntilAllLift = false

    private mutating func markAllStale(if down: Bool) {
        if mode == .protocolA {
            staleUntilAllLift = true
            for index in slots.indices where slots[index].contact != nil {
                slots[index].contact?.suppression = .stale
            }
            return
        }
        // Single-touch: slot 0 is the one finger.
        if down {
            if slots[0].contact == nil {
                slots[0].trackingID = 0
                slots[0].contact = newContact(slot: 0, trackingID: 0, at: lastFrameTime ?? .zero)
            }
            slots[0].contact?.suppression = .stale
            slots[0].contact?.isNew = false
        } else {
            slots[0].contact = nil
            slots[0].trackingID = -1
        }
    }

    // MARK: - Single-touch

    private mutating func absSingleTouch(_ event: RawEvent) {
        switch event.usage {
        case .absX:
            slots[0].x = event.value
            if !positionRangeNoted.x { checkPositionRange(event) }
        case .absY:
            slots[0].y = event.value
            if !positionRangeNoted.y { checkPositionRange(event) }
        case .absPressure: slots[0].pressure = event.value
        default: break
        }
    }

    /// BTN_TOUCH when the device has it, else BTN_TOOL_FINGER (some old pads lack BTN_TOUCH).
    private var isSingleTouchDown: Bool {
        if conversion.hasTouchKey || keysDown.contains(EventUsage.btnTouch.code) {
            return keysDown.contains(EventUsage.btnTouch.code)
        }
        return keysDown.contains(EventUsage.btnToolFinger.code)
    }

    private mutating func updateSingleTouch(at time: Timestamp) {
        let down = isSingleTouchDown
        guard down != singleTouchDown else { return }
        singleTouchDown = down
        if down {
            slots[0].trackingID = Int32(truncatingIfNeeded: nextTouchID)
            slots[0].contact = newContact(slot: 0, trackingID: slots[0].trackingID, at: time)
        } else {
            closeContact(inSlot: 0, at: time)
            slots[0].trackingID = -1
        }
    }

    // MARK: - Contacts and frames

    private mutating func newContact(slot index: Int, trackingID: Int32, at time: Timestamp) -> Contact {
        let id = TouchID(nextTouchID)
        nextTouchID += 1
        let position = position(ofSlot: index)
        return Contact(
            id: id,
            trackingID: trackingID,
            startPosition: position,
            startTime: time,
            lastPosition: position,
            lastDevicePosition: DevicePoint(x: slots[index].x, y: slots[index].y),
            isNew: true,
            isDelivered: false,
            suppression: nil
        )
    }

    /// ``DeviceDescription/physicalPoint(_:)`` of the slot's position, with the axis figures
    /// looked up once.
    private func position(ofSlot index: Int) -> PhysicalPoint {
        var x = Double(slots[index].x)
        var y = Double(slots[index].y)
        if let calibration = conversion.calibration {
            (x, y) = calibration.apply(x: x, y: y, xRange: conversion.xRange, yRange: conversion.yRange)
        }
        return PhysicalPoint(
            x: (x - Double(conversion.xMinimum)) / conversion.xResolution,
            y: (y - Double(conversion.yMinimum)) / conversion.yResolution
        )
    }

    private static func toolType(_ value: Int32) -> ToolType {
        switch value {
        case 0: .finger  // MT_TOOL_FINGER
        case 1: .pen  // MT_TOOL_PEN
        default: .palm  // MT_TOOL_PALM and anything else that is not a finger
        }
    }

    /// Ends the contact in `slot` within the current frame (tracking id −1 or replaced).
    private mutating func closeContact(inSlot index: Int, at time: Timestamp) {
        guard var contact = slots[index].contact else { return }
        slots[index].contact = nil
        if contact.isNew {
            // Began and ended inside one frame: judge its tool and the cap now.
            contact.startPosition = position(ofSlot: index)
            contact.lastPosition = contact.startPosition
            contact.lastDevicePosition = DevicePoint(x: slots[index].x, y: slots[index].y)
            contact.startTime = time
            admit(&contact, slot: index)
            guard contact.suppression == nil else { return }
            closedThisFrame.append(touch(for: contact, slot: index, phase: .began))
            closedThisFrame.append(touch(for: contact, slot: index, phase: .ended))
            return
        }
        guard contact.suppression == nil else { return }
        if Self.toolType(slots[index].toolType) != .finger {
            closedThisFrame.append(touch(for: contact, slot: index, phase: .cancelled))
        } else {
            closedThisFrame.append(touch(for: contact, slot: index, phase: .ended))
        }
    }

    /// Decides whether a new contact is delivered: not when its tool is not a finger, not when
    /// `maxTouches` contacts are already delivered.
    private func admit(_ contact: inout Contact, slot index: Int) {
        guard contact.suppression == nil else { return }
        if Self.toolType(slots[index].toolType) != .finger {
            contact.suppression = .tool
            return
        }
        let delivered = slots.count { $0.contact.map { $0.suppression == nil && !$0.isNew } ?? false }
        let closingNew = closedThisFrame.count { $0.phase == .began }
        if delivered + closingNew >= maxTouches {
            contact.suppression = .capacity
        }
    }

    private func touch(for contact: Contact, slot index: Int, phase: TouchPhase) -> Touch {
        touch(for: contact, slot: index, phase: phase, position: position(ofSlot: index))
    }

    /// ``touch(for:slot:phase:)`` with the slot's position in millimetres already computed.
    private func touch(for contact: Contact, slot index: Int, phase: TouchPhase, position: PhysicalPoint) -> Touch {
        let slot = slots[index]
        return Touch(
            id: contact.id,
            slot: mode == .protocolB ? index : 0,
            trackingID: contact.trackingID,
            phase: phase,
            devicePosition: DevicePoint(x: slot.x, y: slot.y),
            position: position,
            previousPosition: contact.lastPosition,
            startPosition: contact.startPosition,
            startTime: contact.startTime,
            toolType: Self.toolType(slot.toolType),
            pressure: slot.pressure,
            touchMajorMillimeters: slot.touchMajor.map { Double($0) / conversion.touchMajorResolution },
            touchMinorMillimeters: slot.touchMinor.map { Double($0) / conversion.touchMinorResolution },
            orientation: slot.orientation
        )
    }

    private mutating func monotonic(_ time: Timestamp) -> Timestamp {
        guard let last = lastFrameTime else {
            lastFrameTime = time
            return time
        }
        if time < last {
            note("timestamp \(time) is before the previous frame's \(last), using \(last)")
            return last
        }
        lastFrameTime = time
        return time
    }

    /// Seconds a new contact whose slot never reported a coordinate waits for it.
    private static let unplacedContactWait = 0.05

    private mutating func commit(at time: Timestamp) -> Frame {
        let timestamp = monotonic(time)
        switch mode {
        case .protocolB: break
        case .protocolA: matchProtocolA(at: timestamp)
        case .singleTouch: updateSingleTouch(at: timestamp)
        }
        // Reuse last frame's list when its frame is gone (unique again); otherwise this
        // allocates a fresh one, as copy-on-write demands.
        var touches = spareTouches
        spareTouches = []
        touches.clear()
        touches.reserveCapacity(slots.count + closedThisFrame.count)
        if !closedThisFrame.isEmpty {
            touches.append(contentsOf: closedThisFrame)
            closedThisFrame.clear()
        }
        for index in slots.indices {
            // The steady case (a delivered finger that moves or rests) is updated in place:
            // no copy of the contact out of its slot and back.
            if let steady = slots[index].contact, !steady.isNew, steady.suppression == nil,
                Self.toolType(slots[index].toolType) == .finger
            {
                let now = position(ofSlot: index)
                let phase: TouchPhase = now == steady.lastPosition ? .stationary : .moved
                touches.append(touch(for: steady, slot: index, phase: phase, position: now))
                slots[index].contact!.lastPosition = now
                slots[index].contact!.lastDevicePosition = DevicePoint(x: slots[index].x, y: slots[index].y)
                continue
            }
            guard var contact = slots[index].contact else { continue }
            // Not placed yet: it begins in the frame that brings its missing coordinate, or
            // after a few frames at the value the slot has (the kernel's state starts at 0,
            // and a coordinate equal to it is never sent either).
            if contact.isNew && !slots[index].positionKnown {
                if timestamp - contact.startTime < Self.unplacedContactWait { continue }
                slots[index].xKnown = true
                slots[index].yKnown = true
            }
            if contact.isNew {
                contact.isNew = false
                contact.startTime = timestamp
                contact.startPosition = position(ofSlot: index)
                contact.lastPosition = contact.startPosition
                contact.lastDevicePosition = DevicePoint(x: slots[index].x, y: slots[index].y)
                // Admit against contacts already counted, in slot order.
                slots[index].contact = nil
                admit(&contact, slot: index)
                if contact.suppression == nil {
                    contact.isDelivered = true
                    touches.append(touch(for: contact, slot: index, phase: .began))
                }
            } else if contact.suppression == nil {
                if Self.toolType(slots[index].toolType) != .finger {
                    // A tracked finger turned into a palm: cancel it, suppress until it lifts.
                    touches.append(touch(for: contact, slot: index, phase: .cancelled))
                    contact.suppression = .tool
                } else {
                    let now = position(ofSlot: index)
                    let phase: TouchPhase = now == contact.lastPosition ? .stationary : .moved
                    touches.append(touch(for: contact, slot: index, phase: phase))
                    contact.lastPosition = now
                    contact.lastDevicePosition = DevicePoint(x: slots[index].x, y: slots[index].y)
                }
            }
            slots[index].contact = contact
        }
        var isSorted = true
        for k in touches.indices.dropFirst() where touches[k].id < touches[k - 1].id {
            isSorted = false
            break
        }
        if !isSorted { touches.sort { $0.id < $1.id } }  // Stable: a began-and-ended touch keeps began first.
        spareTouches = touches
        return makeFrame(at: timestamp, touches: touches, isSynthetic: false)
    }

    /// Cancels every delivered contact (and touches closed in the unfinished frame), returning
    /// them as `cancelled` touches ordered by id.
    private mutating func cancelDeliveredTouches() -> [Touch] {
        var cancelled: [Touch] = []
        for index in slots.indices {
            guard var contact = slots[index].contact, contact.suppression == nil, !contact.isNew else { continue }
            // Report where the touch was last delivered; resync events may have moved the slot.
            var touch = touch(for: contact, slot: index, phase: .cancelled)
            touch.position = contact.lastPosition
            touch.devicePosition = contact.lastDevicePosition
            cancelled.append(touch)
            contact.suppression = .stale
            slots[index].contact = contact
        }
        // Touches that ended in the interrupted frame were delivered before it, so they are
        // cancelled too; those that began in it were never delivered.
        let beganInFrame = Set(closedThisFrame.filter { $0.phase == .began }.map(\.id))
        for closed in closedThisFrame where closed.phase != .began && !beganInFrame.contains(closed.id) {
            var touch = closed
            touch.phase = .cancelled
            touch.position = closed.previousPosition
            cancelled.append(touch)
        }
        return cancelled.sorted { $0.id < $1.id }
    }

    private func makeFrame(at timestamp: Timestamp, touches: [Touch], isSynthetic: Bool) -> Frame {
        Frame(
            timestamp: timestamp,
            touches: touches,
            fingerCount: fingerCount,
            isButtonPressed: keysDown.contains(EventUsage.btnLeft.code) || keysDown.contains(EventUsage.btnRight.code)
                || keysDown.contains(EventUsage.btnMiddle.code),
            isSynthetic: isSynthetic
        )
    }

    /// The fingers a `BTN_TOOL_*` key stands for.
    private static func fingerCount(ofKey code: UInt16) -> Int? {
        switch code {
        case EventUsage.btnToolFinger.code: 1
        case EventUsage.btnToolDoubleTap.code: 2
        case EventUsage.btnToolTripleTap.code: 3
        case EventUsage.btnToolQuadTap.code: 4
        case EventUsage.btnToolQuintTap.code: 5
        default: nil
        }
    }

    private static let fingerCountKeys: [UInt16] = [
        EventUsage.btnToolFinger.code, EventUsage.btnToolDoubleTap.code, EventUsage.btnToolTripleTap.code,
        EventUsage.btnToolQuadTap.code, EventUsage.btnToolQuintTap.code,
    ]

    /// `BTN_TOOL_*` says how many fingers touch (touchpads report more than their slots);
    /// without those, `BTN_TOUCH` plus the contacts down.
    private var fingerCount: Int? {
        guard reportsFingerCount else { return nil }
        var count = 0
        for code in Self.fingerCountKeys where keysDown.contains(code) {
            if let fingers = Self.fingerCount(ofKey: code) { count = max(count, fingers) }
        }
        if count == 0 && keysDown.contains(EventUsage.btnTouch.code) {
            count = max(1, slots.count { $0.contact.map { $0.suppression != .tool } ?? false })
        }
        return count
    }

    /// Notes, once per axis, a position outside the axis range the device declared.
    private mutating func checkPositionRange(_ event: RawEvent) {
        let isX = event.usage == .absMTPositionX || event.usage == .absX
        guard let range = isX ? positionRanges.x : positionRanges.y, !range.contains(event.value) else { return }
        if isX { positionRangeNoted.x = true } else { positionRangeNoted.y = true }
        note("\(event.usage) value \(event.value) outside the device's range \(range.lowerBound)…\(range.upperBound) (noted once per axis)")
    }

    private mutating func note(_ message: String) {
        if diagnostics.count < Self.diagnosticLimit {
            diagnostics.append(.kernelBug(message))
        } else {
            droppedDiagnostics += 1
        }
    }
}
