import Testing

@testable import GestureEngine

@Suite("Raw touches to the sink (spec §7)")
struct SinkTests {
    func run(_ recognizers: [RecognizerConfiguration], _ script: (inout Fingers) -> Void) -> Harness {
        var h = Harness(recognizers)
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    /// `phase@seconds` for every sink event.
    func sink(_ h: Harness) -> [String] {
        h.sinkEvents.map { "\($0.phase.rawValue)@\(Transcript.fixed($0.timestamp.seconds, 3))" }
    }

    @Test("without recognizers every touch event is forwarded at once")
    func passThrough() {
        let h = run([]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 25, 20, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(sink(h) == ["began@0.000", "moved@0.100", "ended@0.200"])
    }

    @Test("a recognized tap turns the withheld end into a cancellation, before the action")
    func tapCancelsTouch() {
        let h = run([recognizer("tap", tap())]) { f in
            let a = f.down(20, 20, at: 0)
            f.up(a, at: 0.1)
        }
        #expect(sink(h) == ["began@0.000", "cancelled@0.100"])
        let lines = h.transcript.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("+0.100s touch #1 cancelled"))
        #expect(lines[2].hasPrefix("+0.100s tap 'tap' recognized"))
    }

    @Test("a failed tap forwards the end once it failed")
    func failedTapForwards() {
        let h = run([recognizer("tap", tap())]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 40, 20, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.gestures.isEmpty)
        #expect(sink(h) == ["began@0.000", "moved@0.100", "ended@0.200"])
    }

    @Test("delaysTouchesEnded holds the end while a single tap waits for the double tap")
    func endHeldWhilePending() {
        let h = run([
            recognizer("single", tap()) { $0.requiresFailureOf = ["double"] },
            recognizer("double", tap(taps: 2)) { $0.cancelsTouchesInView = false },
        ]) { f in
            let a = f.down(20, 20, at: 0)
            f.up(a, at: 0.1)
        }
        #expect(sink(h) == ["began@0.000", "cancelled@0.450"])
    }

    @Test("without delays and cancellation the sink sees the touch as if nobody watched")
    func noDelays() {
        let h = run([
            recognizer("tap", tap()) {
                $0.cancelsTouchesInView = false
                $0.delaysTouchesEnded = false
            }
        ]) { f in
            let a = f.down(20, 20, at: 0)
            f.up(a, at: 0.1)
        }
        #expect(h.summary == ["tap recognized@0.100"])
        #expect(sink(h) == ["began@0.000", "ended@0.100"])
    }

    @Test("delaysTouchesEnded alone: a recognized tap delivers cancelled instead of ended")
    func endCancelledWithoutCancelsTouches() {
        let h = run([recognizer("tap", tap()) { $0.cancelsTouchesInView = false }]) { f in
            let a = f.down(20, 20, at: 0)
            f.up(a, at: 0.1)
        }
        #expect(sink(h) == ["began@0.000", "cancelled@0.100"])
    }

    @Test("a pan with cancelsTouchesInView cancels its touch when it begins; nothing after")
    func panCancels() {
        let h = run([recognizer("pan", pan())]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 21, 20, at: 0.05)
            f.move(a, to: 25, 20, at: 0.1)
            f.move(a, to: 30, 20, at: 0.15)
            f.up(a, at: 0.2)
        }
        #expect(sink(h) == ["began@0.000", "moved@0.050", "cancelled@0.100"])
    }

    @Test("a pan without cancelsTouchesInView leaves the touch stream alone")
    func panKeepsTouches() {
        let h = run([recognizer("pan", pan()) { $0.cancelsTouchesInView = false }]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 25, 20, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(sink(h) == ["began@0.000", "moved@0.100", "ended@0.200"])
    }

    @Test("delaysTouchesBegan: an edge pan that begins hides the touch from the sink entirely")
    func edgePanHides() {
        let h = run([recognizer("edge", edgePan([.left]))]) { f in
            let a = f.down(2, 20, at: 0)
            f.move(a, to: 12, 20, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.summary == ["edge began@0.100", "edge ended@0.200"])
        #expect(sink(h).isEmpty)
    }

    @Test("delaysTouchesBegan: when the edge pan fails, the buffered events are flushed in order")
    func edgePanFailsFlushes() {
        let h = run([recognizer("edge", edgePan([.left]))]) { f in
            let a = f.down(2, 20, at: 0)
            f.move(a, to: 2.5, 20, at: 0.05)
            f.move(a, to: 2.5, 30, at: 0.1)  // vertical: outside the angle window → fail
            f.move(a, to: 2.5, 32, at: 0.15)
            f.up(a, at: 0.2)
        }
        #expect(h.gestures.isEmpty)
        #expect(sink(h) == ["began@0.000", "moved@0.050", "moved@0.100", "moved@0.150", "ended@0.200"])
    }

    @Test("device cancellations are forwarded as cancelled")
    func deviceCancel() {
        let h = run([recognizer("pan", pan())]) { f in
            let a = f.down(20, 20, at: 0)
            f.up(a, at: 0.1, cancelled: true)
        }
        #expect(sink(h) == ["began@0.000", "cancelled@0.100"])
    }

    @Test("a touch taken by a began gesture after it began is never forwarded")
    func laterTouchOwned() {
        let h = run([recognizer("pan", pan())]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 25, 20, at: 0.1)
            let b = f.down(40, 20, at: 0.15)
            f.up(b, at: 0.2)
            f.up(a, at: 0.3)
        }
        #expect(h.sinkEvents.allSatisfy { $0.touch == TouchID(1) })
    }

    @Test("with the sink off the engine emits no touch, and the same gestures")
    func sinkOff() {
        let recognizers = [recognizer("tap", tap()), recognizer("pan", pan())]
        func script(_ f: inout Fingers) {
            let a = f.down(20, 20, at: 0)
            f.up(a, at: 0.1)
            let b = f.down(20, 20, at: 0.6)
            f.slide(b, to: 60, 20, from: 0.6, to: 1.0, steps: 8)
            f.up(b, at: 1.1)
        }
        var on = Harness(recognizers)
        var off = Harness(recognizers)
        off.engine.deliversTouches = false
        var f = Fingers()
        script(&f)
        on.run(f)
        off.run(f)
        #expect(!on.sinkEvents.isEmpty)
        #expect(off.sinkEvents.isEmpty)
        #expect(on.summary == off.summary)
        #expect(on.summary.contains("tap recognized@0.100") && on.summary.contains { $0.hasPrefix("pan began") })
    }

    @Test("turned on mid-touch, the sink follows the touches that begin from then on, each whole")
    func sinkTurnedOn() {
        var f = Fingers()
        let a = f.down(20, 20, at: 0)
        f.move(a, to: 25, 20, at: 0.1)
        f.move(a, to: 30, 20, at: 0.2)
        let b = f.down(50, 50, at: 0.3)
        f.move(b, to: 55, 50, at: 0.4)
        f.up(a, at: 0.5)
        f.up(b, at: 0.6)
        var h = Harness([])
        h.engine.deliversTouches = false
        for frame in f.frames {
            // On between a's first move and its second: a stays out, b is whole.
            if frame.timestamp == Timestamp(seconds: 0.2) { h.engine.deliversTouches = true }
            h.record(h.engine.process(frame))
        }
        h.record(h.engine.advance(to: Timestamp(seconds: 2)))
        #expect(h.checker.violations.isEmpty, "\(h.checker.violations)")
        #expect(h.sinkEvents.allSatisfy { $0.touch == b })
        #expect(sink(h) == ["began@0.300", "moved@0.400", "ended@0.600"])
        // Off again with a touch down: its held-back record is forgotten, nothing more comes.
        var g = Fingers(firstID: 10)
        let c = g.down(20, 20, at: 3)
        g.move(c, to: 30, 20, at: 3.1)
        g.up(c, at: 3.2)
        var k = Harness([])
        for frame in g.frames {
            if frame.timestamp == Timestamp(seconds: 3.1) { k.engine.deliversTouches = false }
            k.record(k.engine.process(frame))
        }
        #expect(sink(k) == ["began@3.000"])
        #expect(k.engine.sink.isEmpty)
    }
}
