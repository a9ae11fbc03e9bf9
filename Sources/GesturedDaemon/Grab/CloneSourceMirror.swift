public import GestureEngine

/// The raw state of a grabbed device's multitouch slots, as its events said: what a uinput
/// clone copies its values from, so that a touch forwarded to the compositor carries exactly
/// the source's coordinates, pressure and sizes (never the engine's millimetres).
///
/// Each slot keeps the contact now in it and the one before (a touch held back by a
/// recognizer may be replayed after its slot was reused). Pure value type.
///
/// A frame costs the mirror only its events' values: every slot's values live in one array
/// (``codes`` order, slot after slot), and a contact still down reads its values there; a
/// contact's own copy is made when it lifts (DESIGN.md "Grab and clone").
public struct CloneSourceMirror: Sendable {
    /// One contact of one slot, from its tracking id to its lift.
    public struct Contact: Sendable, Hashable {
        /// Serial of the contact across the device, never reused.
        public var serial: UInt64
        public var trackingID: Int32
        /// The values (``CloneSourceMirror/codes`` order) at the end of its first frame.
        public var start: [Int32]
        /// The values now, or at the lift.
        public var values: [Int32]
        /// The `SYN_REPORT` time of its first frame.
        public var startTime: Timestamp
        /// The source frame (``CloneSourceMirror/frameSerial``) it began in.
        public var startFrame: UInt64
        public var isDown: Bool
    }

    struct Slot: Sendable {
        /// The contact now in the slot; while it is down its ``Contact/values`` are not kept
        /// (the slot's values are its values) until it lifts.
        var current: Contact?
        var previous: Contact?
    }

    /// The per-slot axes copied, in order: every `ABS_MT_*` code of the source except
    /// `ABS_MT_SLOT` and `ABS_MT_TRACKING_ID`.
    public let codes: [UInt16]
    /// For each `ABS_*` code, its index in ``codes`` plus one; 0 for a code not copied.
    private let codeIndex: [UInt8]
    /// Every slot's values now: `codes.count` of them a slot, slot after slot.
    private var values: [Int32]
    private(set) var slots: [Slot]
    /// Each slot's contact down now, by its serial; 0 when none is (serials start at 1).
    private var downSerials: [UInt64]
    private var slot = 0
    private var nextSerial: UInt64 = 1
    /// Source frames seen (`SYN_REPORT`s).
    public private(set) var frameSerial: UInt64 = 0
    /// Contacts whose tracking id appeared in the frame being read.
    private var opened: [Int] = []
    /// A contact began or ended in the frame being read.
    private var contactsChanging = false
    /// Whether a contact began or ended in the last frame committed (its `SYN_REPORT`): a
    /// frame that only moved contacts can leave the clone's set of touches as it was.
    public private(set) var lastFrameChangedContacts = false

    public init(device: DeviceDescription) {
        var codes: [UInt16] = []
        for code in EventUsage.absMTTouchMajor.code...EventUsage.absMaximum
        where code != EventUsage.absMTTrackingID.code && device.codes.contains(EventUsage(type: EventUsage.evAbs, code: code)) {
            codes.append(code)
        }
        self.codes = codes
        var codeIndex = [UInt8](repeating: 0, count: Int(EventUsage.absMaximum) + 1)
        for (i, code) in codes.enumerated() { codeIndex[Int(code)] = UInt8(i + 1) }
        self.codeIndex = codeIndex
        var initial = codes.map { device.axes[$0]?.minimum ?? 0 }
        if let toolIndex = codes.firstIndex(of: EventUsage.absMTToolType.code) { initial[toolIndex] = 0 }
        let slotCount = max(1, device.slotCount)
        values = []
        values.reserveCapacity(slotCount * codes.count)
        for _ in 0..<slotCount { values += initial }
        slots = Array(repeating: Slot(), count: slotCount)
        downSerials = Array(repeating: 0, count: slotCount)
    }

    /// The index of `code` in ``codes``.
    public func index(of code: UInt16) -> Int? { codes.firstIndex(of: code) }

    /// The contact of `slot` that a touch first reported at `time` is: the current one when
    /// it had begun by then, else the previous one.
    public func contact(slot index: Int, at time: Timestamp) -> Contact? {
        guard slots.indices.contains(index) else { return nil }
        if let current = slots[index].current, current.startTime <= time { return filled(current, slot: index) }
        if let previous = slots[index].previous { return previous }
        return slots[index].current.map { filled($0, slot: index) }
    }

    /// The contact with `serial`, if the mirror still knows it.
    public func contact(serial: UInt64, slot index: Int) -> Contact? {
        guard slots.indices.contains(index) else { return nil }
        if let c = slots[index].current, c.serial == serial { return filled(c, slot: index) }
        if let c = slots[index].previous, c.serial == serial { return c }
        return nil
    }

    /// The values now (or at the lift) of the contact with `serial`, without a copy of them:
    /// the clone's path asks this every frame for every touch it has.
    @inline(__always)
    func values(serial: UInt64, slot index: Int) -> ArraySlice<Int32>? {
        guard index >= 0, index < downSerials.count else { return nil }
        if downSerials[index] == serial { return slotValues(index) }
        return liftedValues(serial: serial, slot: index)
    }

    private func liftedValues(serial: UInt64, slot index: Int) -> ArraySlice<Int32>? {
        if let c = slots[index].current, c.serial == serial, !c.isDown { return c.values[...] }
        if let c = slots[index].previous, c.serial == serial { return c.values[...] }
        return nil
    }

    /// A contact as callers see it: one still down has its slot's values.
    private func filled(_ contact: Contact, slot index: Int) -> Contact {
        guard contact.isDown else { return contact }
        var contact = contact
        contact.values = Array(slotValues(index))
        return contact
    }

    private func slotValues(_ index: Int) -> ArraySlice<Int32> {
        values[index * codes.count..<(index + 1) * codes.count]
    }

    /// Whether some contact is down on the source.
    public var hasContactDown: Bool { downSerials.contains { $0 != 0 } }

    /// Takes one source event.
    public mutating func feed(_ event: RawEvent) {
        switch event.usage.type {
        case EventUsage.evSyn:
            // After a SYN_DROPPED, libevdev's sync events bring the slots up to date like any
            // other events; the SYN_REPORT that ends them commits them.
            if event.usage == .synReport { commit(at: event.time) }
        case EventUsage.evAbs:
            let code = event.usage.code
            if code == EventUsage.absMTSlot.code {
                slot = Int(event.value)
            } else if code == EventUsage.absMTTrackingID.code {
                setTrackingID(event.value)
            } else if code < codeIndex.count, codeIndex[Int(code)] != 0, slot >= 0, slot < slots.count {
                values[slot * codes.count + Int(codeIndex[Int(code)]) - 1] = event.value
            }
        default:
            break
        }
    }

    private mutating func setTrackingID(_ id: Int32) {
        guard slots.indices.contains(slot) else { return }
        if var old = slots[slot].current, old.isDown {
            if old.trackingID == id { return }
            contactsChanging = true
            old.isDown = false
            old.values = Array(slotValues(slot))
            slots[slot].current = old
            downSerials[slot] = 0
        }
        guard id >= 0 else { return }
        contactsChanging = true
        slots[slot].previous = slots[slot].current
        slots[slot].current = Contact(
            serial: nextSerial, trackingID: id, start: [], values: [], startTime: .zero, startFrame: 0, isDown: true)
        downSerials[slot] = nextSerial
        nextSerial += 1
        opened.append(slot)
    }

    private mutating func commit(at time: Timestamp) {
        frameSerial += 1
        lastFrameChangedContacts = contactsChanging
        contactsChanging = false
        guard !opened.isEmpty else { return }
        for index in opened {
            guard var c = slots[index].current, c.start.isEmpty else { continue }
            c.start = Array(slotValues(index))
            c.startTime = time
            c.startFrame = frameSerial
            slots[index].current = c
        }
        opened.removeAll(keepingCapacity: true)
    }
}
