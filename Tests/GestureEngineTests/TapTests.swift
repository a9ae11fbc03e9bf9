import Testing

@testable import GestureEngine

@Suite("Tap recognizer (spec §4.1)")
struct TapTests {
    func run(_ kind: RecognizerKind, sloppiness: Double = 1, _ script: (inout Fingers) -> Void) -> Harness {
        var h = Harness(
            configuration: EngineConfiguration(recognizers: [recognizer("tap", kind)], sloppiness: sloppiness)
        )
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    @Test(
        "movement up to allowableMovement (7.012 mm) still taps; beyond it fails",
        arguments: [
            (7.0, true), (7.05, false),
        ]
    )
    func allowableMovement(distance: Double, recognized: Bool) {
        let h = run(tap()) { f in
            let a = f.down(10, 10, at: 0)
            f.move(a, to: 10 + distance, 10, at: 0.05)
            f.up(a, at: 0.1)
        }
        #expect(h.events("tap").count == (recognized ? 1 : 0))
    }

    @Test("a lift the touch filter marks no tap fails the tap; an unmarked one taps", arguments: [NoTapReason.afterScroll, nil])
    func noTapFlag(reason: NoTapReason?) {
        let h = run(tap()) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.1, noTap: reason)
        }
        #expect(h.events("tap").count == (reason == nil ? 1 : 0))
    }

    @Test("a two-finger tap fails when either finger's lift is marked no tap", arguments: [true, false])
    func noTapFlagTwoFingers(marked: Bool) {
        let h = run(tap(touches: 2)) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(30, 10, at: 0.01)
            f.up(a, at: 0.1)
            f.up(b, at: 0.11, noTap: marked ? .click : nil)
        }
        #expect(h.events("tap").count == (marked ? 0 : 1))
    }

    @Test("sloppiness multiplies allowableMovement")
    func sloppiness() {
        let h = run(tap(), sloppiness: 2) { f in
            let a = f.down(10, 10, at: 0)
            f.move(a, to: 24, 10, at: 0.05)
            f.up(a, at: 0.1)
        }
        #expect(h.events("tap").count == 1)
    }

    @Test("a tap must lift within maximumTapDuration (0.75 s)", arguments: [(0.74, true), (0.76, false)])
    func maximumTapDuration(lift: Double, recognized: Bool) {
        let h = run(tap()) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: lift)
        }
        #expect(h.events("tap").count == (recognized ? 1 : 0))
    }

    @Test(
        "the next tap must start within maximumIntervalBetweenTaps (0.35 s)",
        arguments: [
            (0.44, true), (0.46, false),
        ]
    )
    func interval(secondDown: Double, recognized: Bool) {
        let h = run(tap(taps: 2)) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.1)
            let b = f.down(10, 10, at: secondDown)
            f.up(b, at: secondDown + 0.05)
        }
        #expect(h.events("tap").count == (recognized ? 1 : 0))
    }

    @Test("a later tap must land within allowableMovement of the first", arguments: [(7.0, true), (7.1, false)])
    func laterTapOffset(offset: Double, recognized: Bool) {
        let h = run(tap(taps: 2)) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.1)
            let b = f.down(10, 10 + offset, at: 0.2)
            f.up(b, at: 0.3)
        }
        #expect(h.events("tap").count == (recognized ? 1 : 0))
        if recognized { #expect(h.events("tap")[0].location == PhysicalPoint(x: 10, y: 10)) }
    }

    @Test("a two-finger tap reports two fingers at their centroid")
    func twoFingerTap() {
        let h = run(tap(touches: 2)) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(20, 10, at: 0.02)
            f.up(a, at: 0.1)
            f.up(b, at: 0.12)
        }
        #expect(h.summary == ["tap recognized@0.120"])
        #expect(h.events("tap")[0].fingers == 2)
        #expect(h.events("tap")[0].location == PhysicalPoint(x: 15, y: 10))
    }

    @Test("more fingers than required fail the tap")
    func tooManyFingers() {
        let h = run(tap(touches: 2)) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(20, 10, at: 0)
            let c = f.down(30, 10, at: 0.01)
            f.up(a, at: 0.1)
            f.up(b, at: 0.1)
            f.up(c, at: 0.1)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test("fingers that come and go one by one are not a two-finger tap")
    func oneByOne() {
        let h = run(tap(touches: 2)) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.05)
            let b = f.down(20, 10, at: 0.06)
            f.up(b, at: 0.1)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test("allowableSeparation bounds the fingers' bounding-box diagonal", arguments: [(15.0, true), (25.0, false)])
    func separation(apart: Double, recognized: Bool) {
        let h = run(tap(touches: 2) { $0.allowableSeparation = 20 }) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(10 + apart, 10, at: 0)
            f.up(a, at: 0.1)
            f.up(b, at: 0.1)
        }
        #expect(h.events("tap").count == (recognized ? 1 : 0))
    }

    @Test("allowableTouchTimeSeparation: all fingers down within it", arguments: [(0.04, true), (0.06, false)])
    func touchTimeSeparation(second: Double, recognized: Bool) {
        let h = run(tap(touches: 2) { $0.allowableTouchTimeSeparation = 0.05 }) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(20, 10, at: second)
            f.up(a, at: 0.2)
            f.up(b, at: 0.2)
        }
        #expect(h.events("tap").count == (recognized ? 1 : 0))
    }

    @Test("minimumTapDuration rejects taps that are too short", arguments: [(0.05, false), (0.15, true)])
    func minimumDuration(lift: Double, recognized: Bool) {
        let h = run(tap { $0.minimumTapDuration = 0.1 }) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: lift)
        }
        #expect(h.events("tap").count == (recognized ? 1 : 0))
    }

    @Test("a triple tap counts three taps")
    func tripleTap() {
        let h = run(tap(taps: 3)) { f in
            for k in 0..<3 {
                let t = Double(k) * 0.2
                let a = f.down(10, 10, at: t)
                f.up(a, at: t + 0.05)
            }
        }
        #expect(h.summary == ["tap recognized@0.450"])
        #expect(h.events("tap")[0].taps == 3)
    }
}

extension TapTests {
    @Test(
        "with restartsTimerOnLanding (touchpads) the duration counts from the last finger landing",
        arguments: [(true, 1), (false, 0)]
    )
    func timerRestartsOnLanding(restarts: Bool, taps: Int) {
        // Three fingers landing 0, 42 and 93 ms apart, the last lift 252 ms after the first
        // landing (a played-late tap from the libinput side by side), limit 250 ms.
        let h = run(
            tap(touches: 3) {
                $0.maximumTapDuration = 0.25
                $0.restartsTimerOnLanding = restarts
            }
        ) { f in
            let a = f.down(10, 10, at: 0)
            let b = f.down(25, 10, at: 0.042)
            let c = f.down(40, 10, at: 0.093)
            f.up(a, at: 0.194)
            f.up(b, at: 0.252)
            f.up(c, at: 0.252)
        }
        #expect(h.events("tap").count == taps)
    }
}
