import Testing

@testable import GestureEngine

/// The worked scenarios of spec §10, with the numbers given there.
@Suite("Spec §10 test vectors")
struct SpecVectorTests {
    @Test("1: a single tap is recognized at the lift, at the touch-down point")
    func singleTap() throws {
        var h = Harness([recognizer("tap", tap())])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.up(a, at: 0.10)
        h.run(f)
        #expect(h.summary == ["tap recognized@0.100"])
        let e = try #require(h.events("tap").first)
        #expect(e.location == PhysicalPoint(x: 10, y: 10))
        #expect(e.taps == 1)
        #expect(e.fingers == 1)
        #expect(close(e.locationFraction.x, 0.1) && close(e.locationFraction.y, 10.0 / 60))
    }

    @Test("2: a tap held 0.80 s fails when its timer fires at 0.75 s and emits nothing")
    func tapHeldTooLong() {
        var h = Harness([recognizer("tap", tap())])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.up(a, at: 0.80)
        for frame in f.frames.prefix(1) { h.record(h.engine.process(frame)) }
        #expect(h.engine.nextDeadline == Timestamp(seconds: 0.75))
        h.record(h.engine.advance(to: Timestamp(seconds: 0.75)))
        let failed = h.diagnostics.contains {
            $0 == .transition(recognizer: "tap", from: .possible, input: "timer", to: .failed)
        }
        #expect(failed)
        for frame in f.frames.dropFirst() { h.record(h.engine.process(frame)) }
        #expect(h.gestures.isEmpty)
    }

    @Test("3: a single tap that requires the double tap to fail is recognized at 0.45 s")
    func singleRequiresDouble() {
        var h = Harness([
            recognizer("single", tap()) { $0.requiresFailureOf = ["double"] },
            recognizer("double", tap(taps: 2)),
        ])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.up(a, at: 0.10)
        h.run(f)
        #expect(h.summary == ["single recognized@0.450"])
    }

    @Test("4: a second tap at 0.25 s recognizes the double at 0.33 s and fails the single")
    func doubleTap() {
        var h = Harness([
            recognizer("single", tap()) { $0.requiresFailureOf = ["double"] },
            recognizer("double", tap(taps: 2)),
        ])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.up(a, at: 0.10)
        let b = f.down(12, 11, at: 0.25)
        f.up(b, at: 0.33)
        h.run(f)
        #expect(h.summary == ["double recognized@0.330"])
        #expect(h.events("double").first?.taps == 2)
        #expect(h.events("double").first?.location == PhysicalPoint(x: 10, y: 10))
    }

    @Test("4b: a second tap 0.40 s after the lift is too late: single at 0.45 s, double never")
    func secondTapTooLate() {
        var h = Harness([
            recognizer("single", tap()) { $0.requiresFailureOf = ["double"] },
            recognizer("double", tap(taps: 2)),
        ])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.up(a, at: 0.10)
        let b = f.down(10, 10, at: 0.50)
        f.up(b, at: 0.58)
        h.run(f)
        #expect(h.summary == ["single recognized@0.450", "single recognized@0.930"])
    }

    @Test("5: long press begins at 0.5 s, changes on a drag, ends at the lift; the tap fails")
    func longPressThenDrag() {
        var h = Harness([recognizer("tap", tap()), recognizer("press", longPress())])
        var f = Fingers()
        let a = f.down(20, 20, at: 0)
        f.move(a, to: 25, 20, at: 0.8)
        f.up(a, at: 1.0)
        h.run(f)
        #expect(h.summary == ["press began@0.500", "press changed@0.800", "press ended@1.000"])
        #expect(h.events("press")[1].translation == PhysicalPoint(x: 5, y: 0))
        #expect(h.events("tap").isEmpty)
    }

    @Test("6: pan beats long press at 2 mm with translation 0.44 mm after hysteresis removal")
    func panBeatsLongPress() {
        var h = Harness([recognizer("press", longPress()), recognizer("pan", pan())])
        var f = Fingers()
        let a = f.down(20, 20, at: 0)
        f.move(a, to: 22, 20, at: 0.20)
        f.up(a, at: 0.30)
        h.run(f)
        #expect(h.summary == ["pan began@0.200", "pan ended@0.300"])
        let began = h.events("pan")[0]
        #expect(close(began.translation?.x, 0.442, 1e-9) && began.translation?.y == 0)
        #expect(Transcript.fixed(began.translation!.x, 2) == "0.44")
    }

    @Test("7: pan waiting for a swipe fails when a 9 mm right swipe is recognized")
    func panWaitsForSwipeAndFails() {
        var h = Harness([
            recognizer("pan", pan()) { $0.requiresFailureOf = ["swipe"] },
            recognizer("swipe", swipe()),
        ])
        var f = Fingers()
        let a = f.down(20, 20, at: 0)
        f.slide(a, to: 29, 20, from: 0, to: 0.1, steps: 5)
        f.up(a, at: 0.15)
        h.run(f)
        #expect(h.summary == ["swipe recognized@0.100"])
        #expect(h.events("swipe")[0].direction == .right)
    }

    @Test("7b: a slow 3 mm drag fails the swipe at 0.5 s and the pan begins then with translation 0")
    func panBeginsWhenSwipeTimesOut() {
        var h = Harness([
            recognizer("pan", pan()) { $0.requiresFailureOf = ["swipe"] },
            recognizer("swipe", swipe()),
        ])
        var f = Fingers()
        let a = f.down(20, 20, at: 0)
        f.slide(a, to: 23, 20, from: 0, to: 0.4, steps: 4)
        f.move(a, to: 24, 20, at: 0.6)
        f.up(a, at: 0.7)
        h.run(f)
        #expect(h.summary == ["pan began@0.500", "pan changed@0.600", "pan ended@0.700"])
        #expect(h.events("pan")[0].translation == .zero)
        #expect(close(h.events("pan")[1].translation?.x, 1.0, 1e-9))
    }

    /// Spec §10.8 lifts the fingers 100 ms apart: the spec's pinch keeps waiting for its pair,
    /// so this vector runs with the finger-change cancel off (`fingerChangeTimeout = ∞`);
    /// ShellMotionTests has the default.
    @Test("8: pinch begins at 41.3 mm with scale 1.0013, reads 1.455 at 60 mm, ends when both lift")
    func pinch() {
        var h = Harness(
            configuration: EngineConfiguration(
                recognizers: [recognizer("pinch", GestureEngineTests.pinch())],
                fingerChangeTimeout: .infinity
            )
        )
        var f = Fingers()
        let a = f.down(30, 30, at: 0)
        let b = f.down(70, 30, at: 0)
        f.move(b, to: 71.3, 30, at: 0.1)
        f.move(b, to: 90, 30, at: 0.2)
        f.up(a, at: 0.3)
        f.up(b, at: 0.4)
        h.run(f)
        #expect(h.summary == ["pinch began@0.100", "pinch changed@0.200", "pinch ended@0.400"])
        let e = h.events("pinch")
        #expect(close(e[0].scale, 41.3 / 41.247, 1e-9))
        #expect(Transcript.fixed(e[0].scale!, 4) == "1.0013")
        #expect(close(e[1].scale, 60 / 41.247, 1e-9))
        #expect(Transcript.fixed(e[1].scale!, 3) == "1.455")
    }

    @Test("9: rotation begins once the pair turned past 5° and reports ≈ 0 then growing")
    func rotation() {
        var h = Harness([recognizer("rotation", GestureEngineTests.rotation())])
        var f = Fingers()
        let center = PhysicalPoint(x: 50, y: 30)
        let a = f.down(center.x - 20, center.y, at: 0)
        let b = f.down(center.x + 20, center.y, at: 0)
        // Turn clockwise (y down) in 1° steps without stretching.
        for step in 1...10 {
            let angle = Double(step) * Double.pi / 180
            let dx = 20 * cosine(angle)
            let dy = 20 * sine(angle)
            let t = Double(step) * 0.02
            f.move(a, to: center.x - dx, center.y - dy, at: t)
            f.move(b, to: center.x + dx, center.y + dy, at: t)
        }
        f.up(a, at: 0.3)
        f.up(b, at: 0.3)
        h.run(f)
        let e = h.events("rotation")
        #expect(e.first?.state == .began)
        // 6° is the first step beyond 5°.
        #expect(e.first?.timestamp == Timestamp(seconds: 0.12))
        #expect(close(e.first?.rotation, Double.pi / 180, 1e-9))
        #expect(close(e.dropLast().last?.rotation, 5 * Double.pi / 180, 1e-9))
        #expect(e.last?.state == .ended)
    }

    @Test("10: a cancelled touch (SYN_DROPPED) fails the tap; the stale contact emits nothing")
    func dropDuringTap() {
        var h = Harness([recognizer("tap", tap())])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.up(a, at: 0.05, cancelled: true)
        f.tick(at: 0.10)
        h.run(f)
        #expect(h.gestures.isEmpty)
        #expect(h.sinkEvents.map(\.phase) == [.began, .cancelled])
    }

    @Test("11: tickle is recognized at the third stroke, where x ≥ 3.896 mm again")
    func tickle() {
        var h = Harness([recognizer("tickle", .tickle(TickleParameters()))])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.move(a, to: 14, 10, at: 0.1)
        f.move(a, to: 12, 10, at: 0.15)
        f.move(a, to: 10, 10, at: 0.2)
        f.move(a, to: 13.8, 10, at: 0.25)
        f.move(a, to: 13.9, 10, at: 0.3)
        f.up(a, at: 0.4)
        h.run(f)
        #expect(h.summary == ["tickle recognized@0.300"])
        #expect(h.events("tickle")[0].values["strokes"] == 3)
        #expect(h.events("tickle")[0].kind == .custom("tickle"))
    }
}

/// Test-side trigonometry (the test target does not import Foundation either): the argument is
/// reduced to [−π, π] and the Taylor series summed to 30 terms, accurate to ~1e-16.
func reduced(_ x: Double) -> Double {
    var a = x
    while a > Double.pi { a -= 2 * Double.pi }
    while a < -Double.pi { a += 2 * Double.pi }
    return a
}

func sine(_ x: Double) -> Double {
    let a = reduced(x)
    var term = a
    var sum = a
    for n in 1..<30 {
        term *= -a * a / Double((2 * n) * (2 * n + 1))
        sum += term
    }
    return sum
}

func cosine(_ x: Double) -> Double {
    let a = reduced(x)
    var term = 1.0
    var sum = 1.0
    for n in 1..<30 {
        term *= -a * a / Double((2 * n - 1) * (2 * n))
        sum += term
    }
    return sum
}
