/// The record every stage of the ``TouchFilter`` chain reads and marks: the contacts by
/// delivered id with their roles, flags and reasons, and what the stages learnt about the
/// device and its hand that a later stage needs (libinput's `struct tp_touch` array beside
/// its `struct tp_dispatch`). A stage tells a later one what it decided only through it.
struct ContactTable: Sendable {
    var contacts: [TouchID: FilterContact] = [:]
    /// Assembler ids of contacts that continue an earlier one → the id delivered for it.
    var aliases: [TouchID: TouchID] = [:]
    /// Lifted contacts whose end is held back (``LiftDebounceStage``), by delivered id.
    var lifted: [TouchID: HeldLift] = [:]
    /// Where and when palms lifted (``TouchFilterSettings/palmMemoryTime``): written by the
    /// stages that see a palm go, read by ``PalmStage`` at landings.
    var palmMemory: [(position: PhysicalPoint, time: Timestamp)] = []
    /// Fake fingers following a real one (``FakeFingerStage``).
    var fakeFingers = 0
    /// Some contact reported a pressure above 0: the device's pressure channel works
    /// (``PalmStage``). Learnt once; kept by ``reset()``.
    var pressureSeen = false

    subscript(id: TouchID) -> FilterContact? {
        get { contacts[id] }
        set { contacts[id] = newValue }
    }

    /// Forgets every contact, lift and palm (the device went away); what was learnt about
    /// the device stays.
    mutating func reset() {
        let seen = pressureSeen
        self = ContactTable()
        pressureSeen = seen
    }

    /// The delivered id for an assembler id.
    func resolved(_ id: TouchID) -> TouchID { aliases[id] ?? id }

    var fingerCount: Int { contacts.values.count(where: { $0.role == .finger }) }
    var hasFinger: Bool { contacts.values.contains { $0.role == .finger } }

    /// The fingers down, and whether one other than `id` is among them, in one pass (a
    /// moved contact asks both every frame).
    func fingers(besides id: TouchID) -> (count: Int, others: Bool) {
        var count = 0
        var others = false
        for (key, contact) in contacts where contact.role == .finger {
            count += 1
            if key != id { others = true }
        }
        return (count, others)
    }

    /// Notes a palm that lifted, for ``PalmStage``'s memory.
    mutating func rememberPalm(_ position: PhysicalPoint, at time: Timestamp) {
        palmMemory.append((position, time))
    }
}

/// A lifted contact whose end is held back (``LiftDebounceStage``).
struct HeldLift: Sendable {
    /// What to deliver when the lift comes due: a finger's end; a held-back contact's
    /// tap (began and ended), or nothing.
    var touches: [Touch]
    /// Where it lifted, and the touch's start (kept by a contact that continues it).
    var position: PhysicalPoint
    var startPosition: PhysicalPoint
    var startTime: Timestamp
    var time: Timestamp
    var contact: FilterContact
    /// When it is delivered at the latest.
    var deadline: Timestamp
}
