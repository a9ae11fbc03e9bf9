import GesturedProtocol
import Testing

@testable import GesturedDaemon

/// The batches the input side and the fan-out refill (DESIGN.md "Daemon, event loop and socket protocol" › "The wire").
@Suite("Batch pool and merged batches")
struct BatchPoolTests {
    func touch(_ time: Int64, device: String = "d") -> TouchEventMessage {
        TouchEventMessage(device: device, timeUS: time, touchID: 1, phase: .moved, xMM: 1, yMM: 2)
    }

    @Test("a batch nothing holds is refilled; a held one is left alone and the pool grows instead")
    func refillsOnlyFreeBatchesAndGrows() {
        var pool = BatchPool(initial: 2, limit: 3)
        // `held` stands for slow clients' outboxes; nothing else keeps a batch.
        var held: [EncodedBatch] = [pool.take()]
        held[0].append(touch: touch(1))
        let first = ObjectIdentifier(held[0])
        held.append(pool.take())
        #expect(ObjectIdentifier(held[1]) != first, "the held batch is not refilled")
        held.append(pool.take())
        #expect(pool.count == 3, "every kept batch was held: the pool grew")
        #expect(Set(held.map(ObjectIdentifier.init)).count == 3)
        held.removeFirst()  // the client read the first batch's lines
        held.append(pool.take())
        #expect(ObjectIdentifier(held[2]) == first, "the freed batch is refilled")
        #expect(held[2].isEmpty && held[2].bytes.isEmpty, "emptied")
        // At the limit with every batch held: a new one takes the oldest slot.
        let extra = ObjectIdentifier(pool.take())
        #expect(pool.count == 3)
        #expect(!held.map(ObjectIdentifier.init).contains(extra))
    }

    @Test("merging keeps every line's bytes and range, and whether any line is restricted")
    func mergeKeepsLines() {
        let gestures = EncodedBatch()
        gestures.append(deviceRemoved: DeviceRemovedEvent(device: "/dev/input/event3", name: "pad"))
        #expect(!gestures.restricted, "a hot-plug line is for every subscriber")
        let touches = EncodedBatch(touches: [touch(5), touch(6)])
        #expect(touches.restricted, "raw touches need their own subscription")
        let merged = EncodedBatch()
        merged.append(contentsOf: gestures)
        #expect(!merged.restricted)
        merged.append(contentsOf: touches)
        #expect(merged.restricted)
        #expect(merged.bytes == gestures.bytes + touches.bytes)
        #expect(merged.events.count == 3)
        let lines = merged.events.map { Array(merged.line($0)) }
        #expect(lines == gestures.events.map { Array(gestures.line($0)) } + touches.events.map { Array(touches.line($0)) })
        merged.removeAll()
        #expect(merged.isEmpty && !merged.restricted)
    }
}
