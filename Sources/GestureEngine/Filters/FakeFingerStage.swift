/// Fake fingers from `BTN_TOOL_*` (libinput's `tp_position_fake_touches`): a touchpad that
/// tracks fewer contacts than it counts (2-slot Synaptics pads such as the Cr-48's report
/// three fingers with `BTN_TOOL_TRIPLETAP` but only two slots) gets the missing fingers as
/// fake touches following the topmost finger, so a two-finger scroll beside a palm that takes
/// one slot is still two fingers. Palms and held-back contacts are never copied: fakes follow
/// a delivered finger, and end when there is none. Touchpad chain only.
struct FakeFingerStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let facts: FilterDeviceFacts

    private struct FakeFinger: Sendable {
        var id: TouchID
        var position: PhysicalPoint
        var startPosition: PhysicalPoint
        var startTime: Timestamp
    }
    private var fakes: [FakeFinger] = []
    private var nextFakeID: UInt64 = 0
    /// Fake fingers get ids far above the assembler's serials (which start at 1).
    static let idBase: UInt64 = 1 << 62

    init(settings: TouchFilterSettings, facts: FilterDeviceFacts) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.facts = facts
    }

    mutating func reset() {
        fakes = []
    }

    /// Adds, moves and ends fakes for the frame's finger count; ended fakes are held back
    /// like a real finger's lift (``ContactTable/lifted``), so fingers lifting together end
    /// together, or, with no lift delay, delivered at once.
    mutating func end(_ frame: inout FilterFrame) {
        step(frame.input, table: &frame.table, into: &frame.out)
        frame.table.fakeFingers = fakes.count
    }

    private mutating func step(_ frame: Frame, table: inout ContactTable, into out: inout [Touch]) {
        var wanted = 0
        if settings.synthesizesUntrackedFingers, settings.enables(.fakeFingers), facts.tracksSlots, let count = frame.fingerCount,
            count > facts.slotCount
        {
            wanted = count - max(table.contacts.count, facts.slotCount)
        }
        // Nothing to add, move or end (every frame of a device whose slots cover its fingers):
        // the search for the topmost finger below would find nothing to use it for.
        if wanted == 0 && fakes.isEmpty { return }
        // The topmost finger; of two at the same height the older (lower id): the table is a
        // dictionary, whose order changes from run to run, and a fake must not jump between
        // two fingers by chance.
        var source: FilterContact?
        var sourceID = TouchID(UInt64.max)
        for (id, contact) in table.contacts where contact.role == .finger {
            if let topmost = source,
                !(contact.delivered.y < topmost.delivered.y || (contact.delivered.y == topmost.delivered.y && id < sourceID))
            {
                continue
            }
            source = contact
            sourceID = id
        }
        if source == nil { wanted = 0 }
        while fakes.count > wanted {
            let fake = fakes.removeLast()
            let ended = Touch(
                id: fake.id, slot: facts.slotCount, trackingID: -1, phase: .ended, position: fake.position,
                previousPosition: fake.position, startPosition: fake.startPosition, startTime: fake.startTime)
            if settings.liftDelay > 0 {
                var contact = FilterContact(
                    role: .finger, start: fake.startPosition, startTime: fake.startTime,
                    hysteresis: PositionHysteresis(radius: settings.hysteresis, position: fake.position))
                contact.delivered = fake.position
                table.lifted[fake.id] = HeldLift(
                    touches: [ended], position: fake.position, startPosition: contact.start, startTime: contact.startTime,
                    time: frame.timestamp, contact: contact, deadline: frame.timestamp.adding(seconds: settings.liftDelay))
            } else {
                out.append(ended)
            }
        }
        guard let source else { return }
        for index in fakes.indices {
            let previous = fakes[index].position
            fakes[index].position = source.delivered
            out.append(
                Touch(
                    id: fakes[index].id, slot: facts.slotCount, trackingID: -1,
                    phase: previous == source.delivered ? .stationary : .moved, position: source.delivered,
                    previousPosition: previous, startPosition: fakes[index].startPosition,
                    startTime: fakes[index].startTime))
        }
        while fakes.count < wanted {
            let id = TouchID(Self.idBase + nextFakeID)
            nextFakeID += 1
            fakes.append(FakeFinger(id: id, position: source.delivered, startPosition: source.delivered, startTime: frame.timestamp))
            out.append(
                Touch(
                    id: id, slot: facts.slotCount, trackingID: -1, phase: .began, position: source.delivered,
                    startTime: frame.timestamp))
        }
    }
}
