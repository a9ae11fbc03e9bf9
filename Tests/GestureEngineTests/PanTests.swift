import Testing

@testable import GestureEngine

@Suite("Pan recognizer (spec §4.3)")
struct PanTests {
    func run(_ kind: RecognizerKind, _ script: (inout Fingers) -> Void) -> Harness {
        var h = Harness([recognizer("pan", kind)])
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    @Test(
        "the hysteresis (1.558 mm) is tested per axis, not on the diagonal",
        arguments: [
            (1.5, 1.5, false), (1.56, 0.0, true), (0.0, -1.56, true),
        ]
    )
    func perAxisHysteresis(dx: Double, dy: Double, begins: Bool) {
        let h = run(pan()) { f in
            let a = f.down(50, 30, at: 0)
            f.move(a, to: 50 + dx, 30 + dy, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.events("pan").first?.state == (begins ? .began : nil))
    }

    @Test("began subtracts the hysteresis from each axis")
    func subtraction() throws {
        let h = run(pan()) { f in
            let a = f.down(50, 30, at: 0)
            f.move(a, to: 53, 29, at: 0.1)
            f.up(a, at: 0.2)
        }
        let began = try #require(h.events("pan").first)
        #expect(close(began.translation?.x, 3 - 1.558, 1e-9))
        #expect(began.translation?.y == 0)
    }

    @Test("an axis lock reports zero on the locked axis and ignores movement along it")
    func axisLock() {
        let h = run(pan { $0.allowsHorizontal = false }) { f in
            let a = f.down(50, 30, at: 0)
            f.move(a, to: 60, 30, at: 0.1)
            f.move(a, to: 60, 33, at: 0.2)
            f.up(a, at: 0.3)
        }
        #expect(h.summary == ["pan began@0.200", "pan ended@0.300"])
        #expect(h.events("pan")[0].translation?.x == 0)
        #expect(close(h.events("pan")[0].translation?.y, 3 - 1.558, 1e-9))
    }

    @Test("minimumNumberOfTouches: one finger does not pan a two-finger pan; two do")
    func minimumTouches() {
        func script(_ f: inout Fingers) {
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 30, 30, at: 0.1)
            let b = f.down(40, 30, at: 0.2)
            f.move(a, to: 31, 30, at: 0.3)
            f.move(b, to: 41, 30, at: 0.3)
            f.move(a, to: 33, 30, at: 0.35)
            f.move(b, to: 43, 30, at: 0.35)
            f.up(a, at: 0.4)
            f.up(b, at: 0.4)
        }
        // By default (issue 12) the one-finger movement before the second finger is no part of
        // the pan: it begins once the two moved 1.558 mm together.
        let h = run(pan { $0.minimumNumberOfTouches = 2 }, script)
        #expect(h.summary == ["pan began@0.350", "pan ended@0.400"])
        #expect(close(h.events("pan").first?.translation?.x, 3 - 1.558, 1e-9))
    }

    @Test("minimumNumberOfTouches as the spec has it: the one-finger movement counts")
    func minimumTouchesSpec() {
        let h = run(pan { $0.minimumNumberOfTouches = 2; $0.tracksOnlyWithMinimumTouches = false }) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 30, 30, at: 0.1)
            let b = f.down(40, 30, at: 0.2)
            f.move(a, to: 31, 30, at: 0.3)
            f.move(b, to: 41, 30, at: 0.3)
            f.up(a, at: 0.4)
            f.up(b, at: 0.4)
        }
        // The one-finger movement before the second finger counts (translation is cumulative),
        // so the first two-finger move begins at once.
        #expect(h.summary == ["pan began@0.300", "pan ended@0.400"])
        #expect(h.events("pan")[0].fingers == 2)
    }

    @Test("maximumNumberOfTouches: an extra finger fails a possible pan")
    func maximumTouchesBeforeBegan() {
        let h = run(pan { $0.maximumNumberOfTouches = 1 }) { f in
            let a = f.down(20, 30, at: 0)
            let b = f.down(40, 30, at: 0.05)
            f.move(a, to: 30, 30, at: 0.1)
            f.up(a, at: 0.2)
            f.up(b, at: 0.2)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test("maximumNumberOfTouches: an extra finger after began is ignored")
    func maximumTouchesAfterBegan() {
        let h = run(pan { $0.maximumNumberOfTouches = 1 }) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 30, 30, at: 0.1)
            let b = f.down(40, 30, at: 0.15)
            f.move(b, to: 50, 30, at: 0.2)
            f.move(a, to: 31, 30, at: 0.25)
            f.up(b, at: 0.3)
            f.up(a, at: 0.4)
        }
        #expect(h.summary == ["pan began@0.100", "pan changed@0.250", "pan ended@0.400"])
        #expect(h.gestures.allSatisfy { $0.fingers <= 1 })
    }

    @Test("adding or lifting a finger re-bases: the translation does not jump")
    func rebase() {
        let h = run(pan()) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 25, 30, at: 0.1)
            let b = f.down(45, 30, at: 0.15)
            f.move(a, to: 26, 30, at: 0.2)
            f.up(a, at: 0.25)
            f.move(b, to: 46, 30, at: 0.3)
            f.up(b, at: 0.4)
        }
        let t = h.events("pan").compactMap(\.translation?.x)
        // began 5 − 1.558; the second finger re-bases; each move adds 0.5 (centroid of two) or 1.
        #expect(t.count == 4)
        #expect(close(t[0], 5 - 1.558, 1e-9))
        #expect(close(t[1], 5 - 1.558 + 0.5, 1e-9))
        #expect(close(t[2], 5 - 1.558 + 1.5, 1e-9))
        #expect(close(t[3], 5 - 1.558 + 1.5, 1e-9))
    }

    @Test("velocity is 0.2·current + 0.8·previous sample")
    func velocityFilter() {
        let h = run(pan()) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 22, 30, at: 0.01)  // 200 mm/s, begins
            f.move(a, to: 23, 30, at: 0.02)  // 100 mm/s
            f.move(a, to: 25, 30, at: 0.03)  // 200 mm/s
            f.up(a, at: 0.04)
        }
        let v = h.events("pan").compactMap(\.velocity?.x)
        #expect(close(v[0], 200, 1e-6))
        #expect(close(v[1], 0.2 * 100 + 0.8 * 200, 1e-6))
        #expect(close(v[2], 0.2 * 200 + 0.8 * 100, 1e-6))
    }

    @Test("velocity reads zero after velocityStaleInterval (0.1 s) without movement")
    func staleVelocity() {
        let fast = run(pan()) { f in
            let a = f.down(20, 30, at: 0)
            f.slide(a, to: 30, 30, from: 0, to: 0.1, steps: 10)
            f.up(a, at: 0.15)
        }
        #expect(close(fast.events("pan").last?.velocity?.x, 100, 1e-6))
        let stopped = run(pan()) { f in
            let a = f.down(20, 30, at: 0)
            f.slide(a, to: 30, 30, from: 0, to: 0.1, steps: 10)
            f.up(a, at: 0.25)
        }
        #expect(stopped.events("pan").last?.velocity == .zero)
    }

    @Test("the end reports the dominant direction of the translation")
    func dominantDirection() {
        let h = run(pan()) { f in
            let a = f.down(50, 30, at: 0)
            f.move(a, to: 45, 20, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.events("pan").last?.direction == .up)
    }

    @Test("a cancelled last touch cancels the pan; a cancelled one of two re-bases and continues")
    func cancellation() {
        let h = run(pan()) { f in
            let a = f.down(20, 30, at: 0)
            let b = f.down(30, 30, at: 0)
            f.move(a, to: 25, 30, at: 0.1)
            f.move(b, to: 35, 30, at: 0.1)
            f.up(b, at: 0.2, cancelled: true)
            f.move(a, to: 26, 30, at: 0.3)
            f.up(a, at: 0.4, cancelled: true)
        }
        #expect(h.summary == ["pan began@0.100", "pan changed@0.300", "pan cancelled@0.400"])
        #expect(close(h.events("pan")[1].translation?.x, 5 - 1.558 + 1, 1e-9))
    }
}
