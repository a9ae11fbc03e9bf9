public import GestureEngine

/// The raw state of a grabbed device's multitouch slots, as its events said: what a uinput
/// clone copies its values from, so that a touch forwarded to the compositor carries exactly
/// the source's coordinates, pressure and sizes (never the engine's millimetres).
///
/// Each slot keeps the contact now in it and the one before (a touch held back by a
/// recognizer may be replayed after its slot was reused). Pure value type.
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
        var values: [Int32]
        var current: Contact?
        var previous: Contact?
    }

    /// The per-slot axes copied, in order: every `ABS_MT_*` code of the source except
    /// `ABS_MT_SLOT` and `ABS_MT_TRACKING_ID`.
    public let codes: [UInt16]
    private(set) var slots: [Slot]
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
        let initial = codes.map { device.axes[$0]?.minimum ?? 0 }
        let toolIndex = codes.firstIndex(of: EventUsage.absMTToolType.code)
        var values = initial
        if let toolIndex { values[toolIndex] = 0 }
        slots = Array(repeating: Slot(values: values), count: max(1, device.slotCount))
    }

    /// The index of `code` in ``codes``.
    public func index(of code: UInt16) -> Int? { codes.firstIndex(of: code) }

    /// The contact of `slot` that a touch first reported at `time` is: the current one when
    /// it had begun by then, else the previous one.
    public func contact(slot index: Int, at time: Timestamp) -> Contact? {
        guard slots.indices.contains(index) else { return nil }
        if let current = slots[index].current, current.startTime <= time { return current }
        return slots[index].previous ?? slots[index].current
    }

    /// The contact with `serial`, if the mirror still knows it.
    public func contact(serial: UInt64, slot index: Int) -> Contact? {
        guard slots.indices.contains(index) else { return nil }
        if let c = slots[index].current, c.serial == serial { return c }
        if let c = slots[index].previous, c.serial == serial { return c }
        return nil
    }

    /// Whether some contact is down on the source.
    public var hasContactDown: Bool { slots.contains { $0.current?.isDown ?? false } }

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
            } else if slots.indices.contains(slot), let i = codes.firstIndex(of: code) {
                slots[slot].values[i] = event.value
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
            old.values = slots[slot].values
            slots[slot].current = old
        }
        guard id >= 0 else { return }
        contactsChanging = true
        slots[slot].previous = slots[slot].current
        slots[slot].current = Contact(
            serial: nextSerial, trackingID: id, start: [], values: [], startTime: .zero, startFrame: 0, isDown: true)
        nextSerial += 1
        opened.append(slot)
    }

    private mutating func commit(at time: Timestamp) {
        frameSerial += 1
        lastFrameChangedContacts = contactsChanging
        contactsChanging = false
        for index in opened {
            guard var c = slots[index].current, c.start.isEmpty else { continue }
            c.start = slots[index].values
            c.startTime = time
            c.startFrame = frameSerial
            slots[index].current = c
        }
        opened.removeAll(keepingCapacity: true)
        // The contact's values are copied element by element into its own array: assigning
        // the slot's array would share it, and the next frame's first value would then copy
        // the whole array (a heap allocation a frame and touch on the clone's path).
        for index in slots.indices where slots[index].current?.isDown ?? false {
            let values = slots[index].values
            if slots[index].current!.values.count == values.count {
                for i in values.indices { slots[index].current!.values[i] = values[i] }
            } else {
                slots[index].current!.values = values.map { $0 }
            }
        }
    }
}
