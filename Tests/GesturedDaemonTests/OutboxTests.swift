import Testing

import GesturedProtocol

@testable import GesturedDaemon

@Suite("Client outbox")
struct OutboxTests {
    func line(_ s: String) -> [UInt8] { Array((s + "\n").utf8) }

    func drain(_ outbox: inout Outbox) -> [String] {
        var lines: [String] = []
        while let bytes = outbox.pendingBytes {
            lines.append(String(decoding: bytes, as: UTF8.self).trimmingSuffixNewline)
            outbox.consume(bytes.count)
        }
        return lines
    }

    @Test("below the soft limit every line is kept in order")
    func keepsEverythingBelowSoftLimit() {
        var outbox = Outbox(softLimit: 10, hardLimit: 20)
        for i in 0..<5 { #expect(outbox.enqueue(line("c\(i)"), coalesceKey: "g1") == .queued) }
        #expect(drain(&outbox) == ["c0", "c1", "c2", "c3", "c4"])
    }

    @Test("over the soft limit consecutive changed events of a gesture coalesce to the newest")
    func coalescesChangedOverSoftLimit() {
        var outbox = Outbox(softLimit: 2, hardLimit: 4)
        #expect(outbox.enqueue(line("began")) == .queued)
        #expect(outbox.enqueue(line("changed1"), coalesceKey: "g") == .queued)
        #expect(outbox.enqueue(line("changed2"), coalesceKey: "g") == .coalesced)
        #expect(outbox.enqueue(line("changed3"), coalesceKey: "g") == .coalesced)
        #expect(outbox.enqueue(line("other-changed"), coalesceKey: "h") == .queued)
        #expect(outbox.enqueue(line("ended")) == .queued)
        #expect(drain(&outbox) == ["began", "changed3", "other-changed", "ended"])
    }

    @Test("a partly written line is never replaced")
    func partlyWrittenLineIsKept() {
        var outbox = Outbox(softLimit: 1, hardLimit: 3)
        #expect(outbox.enqueue(line("changed1"), coalesceKey: "g") == .queued)
        outbox.consume(3)
        #expect(outbox.enqueue(line("changed2"), coalesceKey: "g") == .queued)
        #expect(drain(&outbox) == ["nged1", "changed2"])
    }

    @Test("at the hard limit the outbox overflows, and the final message still fits")
    func overflowsAtHardLimit() {
        var outbox = Outbox(softLimit: 1, hardLimit: 2)
        #expect(outbox.enqueue(line("a")) == .queued)
        #expect(outbox.enqueue(line("b")) == .queued)
        #expect(outbox.enqueue(line("c")) == .overflow)
        outbox.enqueueFinal(line("overflow"))
        #expect(drain(&outbox) == ["a", "b", "overflow"])
    }

    @Test("several queued lines go out in one write, and a short write resumes mid-line")
    func gathersLinesIntoOneWrite() {
        var outbox = Outbox(softLimit: 10, hardLimit: 10)
        for s in ["aa", "bbb", "c"] { _ = outbox.enqueue(line(s)) }
        #expect(outbox.gatherPending() == Array("aa\nbbb\nc\n".utf8))
        #expect(outbox.gatherPending(maxBytes: 5) == Array("aa\n".utf8), "only whole lines after the head")
        outbox.consume(5)  // "aa\nbb" written
        #expect(outbox.count == 2)
        #expect(outbox.gatherPending() == Array("b\nc\n".utf8))
        outbox.consume(4)
        #expect(outbox.isEmpty)
    }

    @Test("long streams compact without losing order")
    func compaction() {
        var outbox = Outbox(softLimit: 1000, hardLimit: 1000)
        var expected: [String] = []
        for i in 0..<500 {
            _ = outbox.enqueue(line("e\(i)"))
            expected.append("e\(i)")
            if i % 3 == 0, let bytes = outbox.pendingBytes {
                outbox.consume(bytes.count)
                expected.removeFirst()
            }
        }
        #expect(drain(&outbox) == expected)
    }

    @Test("a written line stops holding its batch at once, so the hub can refill it")
    func writtenLinesReleaseTheirBatch() {
        var outbox = Outbox(softLimit: 10, hardLimit: 10)
        var batch = EncodedBatch(touches: [TouchEventMessage(device: "d", timeUS: 1, touchID: 1, phase: .moved, xMM: 1, yMM: 2)])
        let range = batch.events[0].range
        _ = outbox.enqueue(EncodedLine(batch, range))
        _ = outbox.enqueue(line("next"))
        #expect(!isKnownUniquelyReferenced(&batch), "queued: the outbox holds the batch")
        outbox.consume(range.count - 1)
        #expect(!isKnownUniquelyReferenced(&batch), "partly written: still held")
        outbox.consume(1)
        #expect(isKnownUniquelyReferenced(&batch), "written: released before any compaction")
        #expect(drain(&outbox) == ["next"])
    }
}

extension String {
    var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
