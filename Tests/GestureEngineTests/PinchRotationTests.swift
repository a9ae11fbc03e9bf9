import Testing

@testable import GestureEngine

@Suite("Pinch and rotation recognizers (spec §4.6, §4.7)")
struct PinchRotationTests {
    /// - Parameter fingerChangeTimeout: ∞ runs the spec's pinch, which waits for its pair
    ///   while a finger is lifted or a third is down (the default cancels it after 0.1 s;
    ///   ShellMotionTests).
    func run(
        _ recognizers: [RecognizerConfiguration],
        fingerChangeTimeout: Double = EngineConfiguration.defaultFingerChangeTimeout,
        _ script: (inout Fingers) -> Void
    ) -> Harness {
        var h = Harness(
            configuration: EngineConfiguration(recognizers: recognizers, fingerChangeTimeout: fingerChangeTimeout)
        )
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    @Test("pinch begins only when the distance changed by more than 1.247 mm", arguments: [(1.2, false), (1.3, true)])
    func pinchHysteresis(change: Double, begins: Bool) {
        let h = run([recognizer("pinch", pinch())]) { f in
            let a = f.down(30, 30, at: 0)
            let b = f.down(70, 30, at: 0)
            f.move(b, to: 70 - change, 30, at: 0.1)
            f.up(a, at: 0.2)
            f.up(b, at: 0.2)
        }
        #expect((h.events("pinch").first?.state == .began) == begins)
        if begins { #expect(close(h.events("pinch")[0].scale, (40 - change) / (40 - 1.247), 1e-9)) }
    }

    @Test("spec mode: a third finger suspends pinch updates; lifting it re-bases so the scale continues")
    func thirdFinger() {
        let h = run([recognizer("pinch", pinch())], fingerChangeTimeout: .infinity) { f in
            let a = f.down(30, 30, at: 0)
            let b = f.down(70, 30, at: 0)
            f.move(b, to: 90, 30, at: 0.1)  // scale 60/41.247
            let c = f.down(50, 50, at: 0.2)
            f.move(b, to: 95, 30, at: 0.3)  // three fingers: no update
            f.up(c, at: 0.4)
            f.move(b, to: 100, 30, at: 0.5)  // 65 → 70 with the pair re-based at 65
            f.up(a, at: 0.6)
            f.up(b, at: 0.6)
        }
        #expect(h.summary == ["pinch began@0.100", "pinch changed@0.500", "pinch ended@0.600"])
        let s0 = 60 / 41.247
        #expect(close(h.events("pinch")[1].scale, s0 * 70 / 65, 1e-9))
    }

    @Test("spec mode: lifting one pinch finger emits nothing; a returning finger re-bases; both up ends")
    func liftAndReturn() {
        let h = run([recognizer("pinch", pinch())], fingerChangeTimeout: .infinity) { f in
            let a = f.down(30, 30, at: 0)
            let b = f.down(70, 30, at: 0)
            f.move(b, to: 90, 30, at: 0.1)
            f.up(b, at: 0.2)
            let c = f.down(50, 30, at: 0.3)  // distance 20 now maps to the current scale
            f.move(c, to: 60, 30, at: 0.4)  // 20 → 30: × 1.5
            f.up(a, at: 0.5)
            f.up(c, at: 0.6)
        }
        #expect(h.summary == ["pinch began@0.100", "pinch changed@0.400", "pinch ended@0.600"])
        #expect(close(h.events("pinch")[1].scale, 60 / 41.247 * 1.5, 1e-9))
    }

    @Test("endsOnSingleTouch ends the pinch at the first lift")
    func endsOnSingleTouch() {
        let h = run([recognizer("pinch", pinch { $0.endsOnSingleTouch = true })]) { f in
            let a = f.down(30, 30, at: 0)
            let b = f.down(70, 30, at: 0)
            f.move(b, to: 90, 30, at: 0.1)
            f.up(b, at: 0.2)
            f.up(a, at: 0.3)
        }
        #expect(h.summary == ["pinch began@0.100", "pinch ended@0.200"])
    }

    @Test("a three-finger pinch scales the span, twice the mean distance from the centroid")
    func threeFingerPinch() {
        let h = run([recognizer("pinch", pinch { $0.numberOfTouchesRequired = 3 })]) { f in
            let ids = [f.down(40, 30, at: 0), f.down(60, 30, at: 0), f.down(50, 40, at: 0)]
            // Spread every finger away from the centroid (50, 33.33) by a factor of 2.
            let c = PhysicalPoint(x: 50, y: 100.0 / 3)
            let starts = [PhysicalPoint(x: 40, y: 30), PhysicalPoint(x: 60, y: 30), PhysicalPoint(x: 50, y: 40)]
            for (id, p) in zip(ids, starts) {
                let q = c + (p - c) * 2
                f.move(id, to: q.x, q.y, at: 0.1)
            }
            for id in ids { f.up(id, at: 0.2) }
        }
        let began = h.events("pinch").first
        #expect(began?.state == .began)
        #expect(began?.fingers == 3)
        // Span grows from s to 2s; began shifts d0 by the 1.247 mm hysteresis.
        let s = 2 * (PhysicalPoint(x: 10, y: 10.0 / 3).length * 2 + 20.0 / 3) / 3
        #expect(close(began?.scale, 2 * s / (s + 1.247), 1e-9))
    }

    @Test("pinch velocity is 0.75·previous + 0.25·current")
    func pinchVelocity() {
        let h = run([recognizer("pinch", pinch())]) { f in
            let a = f.down(30, 30, at: 0)
            let b = f.down(70, 30, at: 0)
            f.move(b, to: 72, 30, at: 0.1)  // began, d0 = 40 + 1.247
            f.move(b, to: 74, 30, at: 0.2)
            f.move(b, to: 78, 30, at: 0.3)
            f.up(a, at: 0.4)
            f.up(b, at: 0.4)
        }
        let d0 = 41.247
        let v1 = (44 / d0 - 42 / d0) / 0.1
        let v2 = (48 / d0 - 44 / d0) / 0.1
        let e = h.events("pinch")
        #expect(close(e[1].scalarVelocity, v1, 1e-9))
        #expect(close(e[2].scalarVelocity, 0.75 * v1 + 0.25 * v2, 1e-9))
    }

    /// Positions of a pair around (50, 30) at `degrees` clockwise with half-distance `r`.
    static func pair(_ degrees: Double, _ r: Double) -> (PhysicalPoint, PhysicalPoint) {
        let a = degrees * Double.pi / 180
        let d = PhysicalPoint(x: r * cosine(a), y: r * sine(a))
        let c = PhysicalPoint(x: 50, y: 30)
        return (c - d, c + d)
    }

    func rotate(_ degrees: [Double], radius: [Double]? = nil, start: Double = 0) -> Harness {
        run([recognizer("rotation", rotation())]) { f in
            let (p, q) = Self.pair(start, 20)
            let a = f.down(p.x, p.y, at: 0)
            let b = f.down(q.x, q.y, at: 0)
            for (k, deg) in degrees.enumerated() {
                let (p, q) = Self.pair(start + deg, radius?[k] ?? 20)
                let t = Double(k + 1) * 0.02
                f.move(a, to: p.x, p.y, at: t)
                f.move(b, to: q.x, q.y, at: t)
            }
            let end = Double(degrees.count + 1) * 0.02
            f.up(a, at: end)
            f.up(b, at: end)
        }
    }

    @Test("rotation's threshold is 5° without stretch", arguments: [(4.9, false), (5.1, true)])
    func rotationThreshold(degrees: Double, begins: Bool) {
        let h = rotate([degrees])
        #expect((h.events("rotation").first?.state == .began) == begins)
    }

    @Test("stretching the pair raises the threshold to 5° + 5°·√(|Δd|/d)", arguments: [(8.4, false), (8.7, true)])
    func stretchTerm(degrees: Double, begins: Bool) {
        // Distance 40 → 60 mm: threshold 5 + 5·√0.5 = 8.54°.
        let h = rotate([degrees], radius: [30])
        #expect((h.events("rotation").first?.state == .began) == begins)
    }

    @Test("counter-clockwise rotation is negative")
    func counterClockwise() {
        let h = rotate([-3, -6, -10])
        let r = h.events("rotation").compactMap(\.rotation)
        #expect(close(r.first, -1 * Double.pi / 180, 1e-9))
        #expect(close(r.dropLast().last, -5 * Double.pi / 180, 1e-9))
    }

    @Test("rotation unwraps across ±180°")
    func unwrapping() {
        // Start at 170° and turn clockwise through 180° to 200°.
        let h = rotate([5, 10, 15, 20, 25, 30], start: 170)
        let r = h.events("rotation").compactMap(\.rotation)
        #expect(close(r.dropLast().last, 25 * Double.pi / 180, 1e-9))
    }

    @Test("pinch and rotation recognize simultaneously when either names the other")
    func simultaneous() {
        func script(_ f: inout Fingers) {
            let (p, q) = Self.pair(0, 20)
            let a = f.down(p.x, p.y, at: 0)
            let b = f.down(q.x, q.y, at: 0)
            for k in 1...6 {
                let (p, q) = Self.pair(Double(k) * 2, 20 + Double(k))
                f.move(a, to: p.x, p.y, at: Double(k) * 0.02)
                f.move(b, to: q.x, q.y, at: Double(k) * 0.02)
            }
            f.up(a, at: 0.2)
            f.up(b, at: 0.2)
        }
        let together = run(
            [
                recognizer("pinch", pinch()) { $0.recognizesSimultaneouslyWith = ["rotation"] },
                recognizer("rotation", rotation()),
            ],
            script
        )
        #expect(together.events("pinch").first?.state == .began)
        #expect(together.events("rotation").first?.state == .began)
        #expect(together.events("pinch").last?.state == .ended)
        #expect(together.events("rotation").last?.state == .ended)
        let exclusive = run([recognizer("pinch", pinch()), recognizer("rotation", rotation())], script)
        #expect(exclusive.events("pinch").first?.state == .began)
        #expect(exclusive.events("rotation").isEmpty)
    }
}
