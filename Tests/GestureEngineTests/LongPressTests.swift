import Testing

@testable import GestureEngine

@Suite("Long press recognizer (spec §4.2)")
struct LongPressTests {
    func run(_ kind: RecognizerKind, _ script: (inout Fingers) -> Void) -> Harness {
        var h = Harness([recognizer("press", kind)])
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    @Test("movement before began is limited to allowableMovement (1.558 mm)", arguments: [(1.5, true), (1.6, false)])
    func movementBeforeBegan(distance: Double, begins: Bool) {
        let h = run(longPress()) { f in
            let a = f.down(10, 10, at: 0)
            f.move(a, to: 10, 10 + distance, at: 0.3)
            f.up(a, at: 0.7)
        }
        #expect(h.summary == (begins ? ["press began@0.500", "press ended@0.700"] : []))
    }

    @Test("after began there is no movement limit")
    func noLimitAfterBegan() {
        let h = run(longPress()) { f in
            let a = f.down(10, 10, at: 0)
            f.move(a, to: 60, 40, at: 0.7)
            f.up(a, at: 0.8)
        }
        #expect(h.summary == ["press began@0.500", "press changed@0.700", "press ended@0.800"])
    }

    @Test("a lift before minimumPressDuration fails; a lift exactly at it lets the press begin first")
    func liftAtDeadline() {
        let early = run(longPress()) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.499)
        }
        #expect(early.gestures.isEmpty)
        let exact = run(longPress()) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.5)
        }
        #expect(exact.summary == ["press began@0.500", "press ended@0.500"])
    }

    @Test("a two-finger press needs both fingers and fails on a third")
    func twoFingers() {
        let one = run(longPress { $0.numberOfTouchesRequired = 2 }) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 1)
        }
        #expect(one.gestures.isEmpty)
        let two = run(longPress { $0.numberOfTouchesRequired = 2 }) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(20, 10, at: 0.1)
            f.up(a, at: 1)
            f.up(b, at: 1)
        }
        #expect(two.summary == ["press began@0.600", "press ended@1.000"])
        #expect(two.events("press")[0].fingers == 2)
        let three = run(longPress { $0.numberOfTouchesRequired = 2 }) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(20, 10, at: 0.1)
            let c = f.down(30, 10, at: 0.2)
            f.up(a, at: 1)
            f.up(b, at: 1)
            f.up(c, at: 1)
        }
        #expect(three.gestures.isEmpty)
    }

    @Test("touches added after began are ignored")
    func laterTouchesIgnored() {
        let h = run(longPress()) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(40, 10, at: 0.6)
            f.move(b, to: 50, 10, at: 0.7)
            f.up(b, at: 0.8)
            f.up(a, at: 0.9)
        }
        #expect(h.summary == ["press began@0.500", "press ended@0.900"])
        #expect(h.events("press")[0].fingers == 1)
    }

    @Test("a cancelled touch cancels a began press")
    func cancelledTouch() {
        let h = run(longPress()) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.6, cancelled: true)
        }
        #expect(h.summary == ["press began@0.500", "press cancelled@0.600"])
    }

    @Test("with one tap required, a tap then a press within 0.35 s begins 0.5 s after the press")
    func tapThenPress() {
        let h = run(longPress { $0.numberOfTapsRequired = 1 }) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.1)
            let b = f.down(10, 10, at: 0.3)
            f.up(b, at: 1.0)
        }
        #expect(h.summary == ["press began@0.800", "press ended@1.000"])
        #expect(h.events("press")[0].taps == 1)
    }

    @Test("with one tap required, a press starting 0.4 s after the tap fails")
    func pressTooLate() {
        let h = run(longPress { $0.numberOfTapsRequired = 1 }) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.1)
            let b = f.down(10, 10, at: 0.5)
            f.up(b, at: 1.2)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test("with one tap required, a press without a tap first never begins")
    func pressWithoutTap() {
        let h = run(longPress { $0.numberOfTapsRequired = 1 }) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 1.2)
        }
        #expect(h.gestures.isEmpty)
    }
}
