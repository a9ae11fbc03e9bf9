import GesturedProtocol
import Testing

@testable import GesturedDaemon

/// The batches the input side and the fan-out refill (DESIGN.md, "No allocation per frame").
@Suite("Batch pool and merged batches")
struct BatchPoolTests {
    func touch(_ time: Int64, device: String = "d") -> TouchEventMessage {
        TouchEventMessage(device: device, timeUS: time, touchID: 1, phase: .moved, xMM: 1, yMM: 2)
    }

    @Test("a batch nothing holds is refilled; a held one is left alone and the pool grows instead")
    func refillsOnlyFreeBatchesAndGrows() {
        var pool = BatchPool(initial: 2, limit: 3)
        let first = pool.take()
        first.append(touch: touch(1))
        var held: [EncodedBatch] = [first]  // a slow client's outbox
        let second = pool.take()
        #expect(second !== first, "the held batch is not refilled")
        held.append(second)
        let third = pool.take()
        #expect(pool.count == 3, "every kept batch was held: the pool grew")
        #expect(third !== first && third !== second)
        held.removeFirst()  // the client read the first batch's lines
        let again = pool.take()
        #expect(again === first, "the freed batch is refilled")
        #expect(again.isEmpty && again.bytes.isEmpty, "emptied")
        held.append(again)
        held.append(third)
        // At the limit with every batch held: a new one takes the oldest slot.
        let extra = pool.take()
        #expect(pool.count == 3)
        #expect(!held.contains { $0 === extra })
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
