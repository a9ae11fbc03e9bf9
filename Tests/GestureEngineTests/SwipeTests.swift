import Testing

@testable import GestureEngine

@Suite("Swipe recognizer (spec §4.5)")
struct SwipeTests {
    func run(_ kind: RecognizerKind, _ script: (inout Fingers) -> Void) -> Harness {
        var h = Harness([recognizer("swipe", kind)])
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    @Test("at 0.1 s the minimum primary movement is 7.06 mm", arguments: [(7.05, false), (7.07, true)])
    func minimumAtTenthOfASecond(distance: Double, recognized: Bool) {
        let h = run(swipe()) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 20 + distance, 30, at: 0.1)
            f.up(a, at: 0.6)
        }
        #expect(h.events("swipe").count == (recognized ? 1 : 0))
    }

    @Test("at 0.45 s the minimum has decayed to 4.50 mm", arguments: [(4.49, false), (4.51, true)])
    func decayedMinimum(distance: Double, recognized: Bool) {
        let h = run(swipe()) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 20 + distance, 30, at: 0.45)
            f.up(a, at: 0.6)
        }
        #expect(h.events("swipe").count == (recognized ? 1 : 0))
    }

    @Test("the duration timer fails the swipe at 0.5 s, before a frame at that time")
    func durationTimer() {
        let h = run(swipe()) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 40, 30, at: 0.5)
            f.up(a, at: 0.6)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test(
        "sideways movement is bounded by the decaying maximum secondary (28.11 mm at 0.1 s)",
        arguments: [(28.0, true), (28.2, false)]
    )
    func secondary(sideways: Double, recognized: Bool) {
        let h = run(swipe()) { f in
            let a = f.down(10, 5, at: 0)
            f.move(a, to: 40, 5 + sideways, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.events("swipe").count == (recognized ? 1 : 0))
    }

    @Test("moving the wrong way beyond the tolerance (1.558 mm) fails", arguments: [(1.5, true), (1.6, false)])
    func wrongDirection(back: Double, recognized: Bool) {
        let h = run(swipe()) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 20 - back, 30, at: 0.02)
            f.move(a, to: 30, 30, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.events("swipe").count == (recognized ? 1 : 0))
    }

    @Test(
        "a left/up mask reports the recognized direction",
        arguments: [
            (PhysicalPoint(x: -10, y: 0), Direction.left), (PhysicalPoint(x: 0, y: -10), Direction.up),
        ]
    )
    func directions(delta: PhysicalPoint, expected: Direction) {
        let h = run(swipe([.left, .up])) { f in
            let a = f.down(50, 30, at: 0)
            f.move(a, to: 50 + delta.x, 30 + delta.y, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.events("swipe").first?.direction == expected)
        #expect(h.events("swipe").first?.location == PhysicalPoint(x: 50, y: 30))
    }

    @Test("a right-only swipe does not recognize a left movement")
    func maskExcludes() {
        let h = run(swipe()) { f in
            let a = f.down(50, 30, at: 0)
            f.move(a, to: 40, 30, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test("a three-finger swipe needs every finger to travel; more fingers or a lift fail")
    func threeFingers() {
        let ok = run(swipe([.left], touches: 3)) { f in
            let ids = [f.down(60, 10, at: 0), f.down(60, 20, at: 0), f.down(60, 30, at: 0.01)]
            for (k, id) in ids.enumerated() { f.move(id, to: 55, Double(10 + 10 * k), at: 0.05) }
            for (k, id) in ids.enumerated() { f.move(id, to: 50, Double(10 + 10 * k), at: 0.1) }
            for id in ids { f.up(id, at: 0.2) }
        }
        #expect(ok.summary == ["swipe recognized@0.100"])
        #expect(ok.events("swipe")[0].fingers == 3)
        #expect(close(ok.events("swipe")[0].translation?.x, -10, 1e-9))
        let four = run(swipe([.left], touches: 3)) { f in
            let ids = [f.down(60, 10, at: 0), f.down(60, 20, at: 0), f.down(60, 30, at: 0), f.down(60, 40, at: 0)]
            for (k, id) in ids.enumerated() { f.move(id, to: 50, Double(10 + 10 * k), at: 0.1) }
            for id in ids { f.up(id, at: 0.2) }
        }
        #expect(four.gestures.isEmpty)
        let lift = run(swipe([.left], touches: 2)) { f in
            let a = f.down(60, 10, at: 0)
            let b = f.down(60, 20, at: 0)
            f.move(a, to: 55, 10, at: 0.05)
            f.up(b, at: 0.06)
            f.move(a, to: 45, 10, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(lift.gestures.isEmpty)
    }

    /// The arena defers a swipe's moves while it holds fewer touches than it needs
    /// (`Slot.movesDecideFrom`) and hands it their positions before the next one lands: the
    /// fingers' travel before the last landed still counts, as when it saw every move.
    @Test("travel before the last finger lands counts, with moves deferred while too few fingers were down")
    func travelBeforeLastLanding() {
        let h = run(swipe([.right], touches: 3)) { f in
            let a = f.down(20, 30, at: 0)
            let b = f.down(20, 40, at: 0)
            f.move(a, to: 32, 30, at: 0.05)
            f.move(b, to: 32, 40, at: 0.05)
            let c = f.down(20, 50, at: 0.08)
            // Only the third finger moves now; the first two stay where they went.
            f.move(c, to: 32, 50, at: 0.1)
            for id in [a, b, c] { f.up(id, at: 0.2) }
        }
        #expect(h.summary == ["swipe recognized@0.100"])
        #expect(h.events("swipe").first?.direction == .right)
    }

    @Test("minimumPrimarySpeed rejects slow strokes")
    func minimumSpeed() {
        let slow = run(swipe { $0.minimumPrimarySpeed = 100 }) { f in
            let a = f.down(20, 30, at: 0)
            f.slide(a, to: 30, 30, from: 0, to: 0.4, steps: 10)  // 25 mm/s
            f.up(a, at: 0.45)
        }
        #expect(slow.gestures.isEmpty)
        let fast = run(swipe { $0.minimumPrimarySpeed = 100 }) { f in
            let a = f.down(20, 30, at: 0)
            f.slide(a, to: 30, 30, from: 0, to: 0.05, steps: 5)  // 200 mm/s
            f.up(a, at: 0.1)
        }
        #expect(fast.events("swipe").count == 1)
    }
}

@Suite("Swipe and edge-pan limits")
struct SwipeLimitTests {
    @Test("maximumPrimaryMovement rejects an over-long stroke", arguments: [(19.0, true), (21.0, false)])
    func maximumPrimary(distance: Double, recognized: Bool) {
        var h = Harness([
            recognizer("swipe", swipe { $0.maximumPrimaryMovement = 20 / (1 - 0.1 * 0.98) })
        ])
        var f = Fingers()
        let a = f.down(20, 30, at: 0)
        f.move(a, to: 20 + distance, 30, at: 0.1)
        f.up(a, at: 0.2)
        h.run(f)
        #expect(h.events("swipe").count == (recognized ? 1 : 0))
    }

    @Test("an edge pan begins only past its 2.337 mm hysteresis", arguments: [(2.3, false), (2.4, true)])
    func edgeHysteresis(distance: Double, begins: Bool) {
        var h = Harness([recognizer("edge", edgePan([.left]))])
        var f = Fingers()
        let a = f.down(1, 30, at: 0)
        f.move(a, to: 1 + distance, 30, at: 0.1)
        f.up(a, at: 0.2)
        h.run(f)
        #expect((h.events("edge").first?.state == .began) == begins)
    }

    @Test("a pan's hysteresis scales with sloppiness")
    func panSloppiness() {
        var h = Harness(
            configuration: EngineConfiguration(recognizers: [recognizer("pan", pan())], sloppiness: 2)
        )
        var f = Fingers()
        let a = f.down(20, 30, at: 0)
        f.move(a, to: 23, 30, at: 0.1)
        f.move(a, to: 24, 30, at: 0.2)
        f.up(a, at: 0.3)
        h.run(f)
        #expect(h.summary == ["pan began@0.200", "pan ended@0.300"])
        #expect(close(h.events("pan")[0].translation?.x, 4 - 2 * 1.558, 1e-9))
    }
}
