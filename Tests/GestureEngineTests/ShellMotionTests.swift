import Testing

@testable import GestureEngine

/// What a shell animating a gesture 1:1 needs (issue 15): deltas since the previous event,
/// the translation as a fraction of the surface, the fling on `ended`, and a `cancelled` when
/// the finger count changes in a way that ends the gesture.
@Suite("Shell motion values and finger-change cancels")
struct ShellMotionTests {
    /// 1 pt in mm (spec §0.1).
    static let point = 25.4 / 163

    /// The seeds' fling in points: `velocity × 0.1 × |velocity| / 200` (pt, pt/s).
    static func seedsFling(_ v: PhysicalPoint) -> PhysicalPoint {
        let magnitude = v.length
        let slideFactor = 0.1 * (magnitude / 200)
        return v * slideFactor
    }

    // MARK: - The fling

    @Test(
        "the fling in mm is the seeds' finalPoint formula converted from points",
        arguments: [(120.0, 0.0), (0.0, -300.0), (250.0, 250.0), (-40.0, 15.0), (900.0, -60.0)]
    )
    func flingMatchesTheSeeds(vx: Double, vy: Double) {
        let v = PhysicalPoint(x: vx, y: vy)
        let f = GestureMotion.fling(
            location: PhysicalPoint(x: 50, y: 30),
            translation: PhysicalPoint(x: 10, y: -5),
            velocity: v,
            surfaceWidth: 100,
            surfaceHeight: 60
        )
        // The same release in points, through the seeds' formula, back to mm.
        let seeds = Self.seedsFling(v / Self.point) * Self.point
        #expect(close(f.displacement.x, seeds.x, 1e-9))
        #expect(close(f.displacement.y, seeds.y, 1e-9))
        // The seeds animate for 2 × slideFactor seconds: the time to stop.
        let seedsDuration = 2 * 0.1 * (v / Self.point).length / 200
        #expect(close(f.duration, seedsDuration, 1e-9))
        #expect(close(f.restLocation.x, 50 + seeds.x, 1e-9))
        #expect(close(f.restLocation.y, 30 + seeds.y, 1e-9))
        #expect(close(f.restTranslationFraction.x, (10 + seeds.x) / 100, 1e-9))
        #expect(close(f.restTranslationFraction.y, (-5 + seeds.y) / 60, 1e-9))
    }

    @Test("the fling is quadratic in the speed and points along the velocity", arguments: [0.5, 2.0, 3.0])
    func flingShape(factor: Double) {
        let v = PhysicalPoint(x: 90, y: -40)
        func displacement(_ velocity: PhysicalPoint) -> PhysicalPoint {
            GestureMotion.fling(location: .zero, translation: .zero, velocity: velocity, surfaceWidth: 1, surfaceHeight: 1)
                .displacement
        }
        let base = displacement(v)
        let scaled = displacement(v * factor)
        // k times the speed slides k² as far, in the same direction.
        #expect(close(scaled.length, base.length * factor * factor, 1e-9))
        let cross = scaled.x * v.y - scaled.y * v.x
        let dot = scaled.x * v.x + scaled.y * v.y
        #expect(abs(cross) < 1e-9 * scaled.length * v.length)
        #expect(dot > 0)
        // |d| = |v|² / (2a): the uniform-deceleration stopping distance.
        #expect(close(base.length, v.lengthSquared / (2 * GestureMotion.flingDeceleration), 1e-9))
        #expect(close(GestureMotion.flingDeceleration, 1000 * Self.point, 1e-12))
    }

    @Test("no velocity, no fling: the rest point is the release point")
    func stillRelease() {
        let f = GestureMotion.fling(
            location: PhysicalPoint(x: 20, y: 20),
            translation: PhysicalPoint(x: 6, y: 0),
            velocity: .zero,
            surfaceWidth: 100,
            surfaceHeight: 60
        )
        #expect(f.displacement == .zero)
        #expect(f.duration == 0)
        #expect(f.restLocation == PhysicalPoint(x: 20, y: 20))
        #expect(close(f.restTranslationFraction.x, 0.06, 1e-12))
    }

    // MARK: - Deltas and fractions from the engine

    @Test("a pan's deltas are the differences of its translations and add up to it; fractions of 100 × 60 mm")
    func panDeltas() throws {
        var h = Harness([recognizer("pan", pan())])
        var f = Fingers()
        let a = f.down(20, 20, at: 0)
        f.slide(a, to: 60, 32, from: 0, to: 0.4, steps: 20)
        f.up(a, at: 0.41)
        h.run(f)
        let events = h.events("pan")
        #expect(events.first?.state == .began)
        #expect(events.last?.state == .ended)
        #expect(events.count > 5)
        var previous = PhysicalPoint.zero
        var sum = PhysicalPoint.zero
        for e in events {
            let t = try #require(e.translation)
            let d = try #require(e.translationDelta)
            #expect(close(d.x, t.x - previous.x, 1e-9) && close(d.y, t.y - previous.y, 1e-9), "\(e.state) at \(e.timestamp)")
            let fraction = try #require(e.translationFraction)
            #expect(close(fraction.x, t.x / 100, 1e-12) && close(fraction.y, t.y / 60, 1e-12))
            previous = t
            sum += d
        }
        let last = try #require(events.last?.translation)
        #expect(close(sum.x, last.x, 1e-9) && close(sum.y, last.y, 1e-9))
        // The began event's delta is its whole translation (counted from zero).
        #expect(events[0].translationDelta == events[0].translation)
        // Pan events carry no scale or rotation, so no deltas of them.
        #expect(events.allSatisfy { $0.scaleDelta == nil && $0.rotationDelta == nil })
    }

    @Test("ended carries the fling of its release velocity; no other event does")
    func panFling() throws {
        var h = Harness([recognizer("pan", pan())])
        var f = Fingers()
        let a = f.down(20, 30, at: 0)
        // 100 mm/s to the right, lifted in motion.
        f.slide(a, to: 50, 30, from: 0, to: 0.3, steps: 30)
        f.up(a, at: 0.31)
        h.run(f)
        let events = h.events("pan")
        #expect(events.dropLast().allSatisfy { $0.fling == nil })
        let ended = try #require(events.last)
        #expect(ended.state == .ended)
        let v = try #require(ended.velocity)
        #expect(close(v.x, 100, 1e-6) && close(v.y, 0, 1e-9))
        let fling = try #require(ended.fling)
        let expected = v.x * v.x / (2 * GestureMotion.flingDeceleration)
        #expect(close(fling.displacement.x, expected, 1e-9))
        #expect(close(fling.restLocation.x, ended.location.x + expected, 1e-9))
        #expect(close(fling.restLocation.y, ended.location.y, 1e-9))
        #expect(close(fling.duration, 100 / GestureMotion.flingDeceleration, 1e-9))
        let t = try #require(ended.translation)
        #expect(close(fling.restTranslationFraction.x, (t.x + expected) / 100, 1e-9))
    }

    @Test("a pinch's scale deltas and a rotation's angle deltas add up to the scale and rotation")
    func pinchAndRotationDeltas() throws {
        var pinchConfig = recognizer("pinch", pinch())
        pinchConfig.recognizesSimultaneouslyWith = ["rotate"]
        var rotateConfig = recognizer("rotate", rotation())
        rotateConfig.recognizesSimultaneouslyWith = ["pinch"]
        var h = Harness([pinchConfig, rotateConfig])
        var f = Fingers()
        let a = f.down(30, 30, at: 0)
        let b = f.down(70, 30, at: 0)
        // Spread and turn together: b moves on a widening arc around a.
        for step in 1...20 {
            let angle = Double(step) * 0.025
            let radius = 40 + Double(step)
            f.move(b, to: 30 + radius * cosine(angle), 30 + radius * sine(angle), at: Double(step) * 0.02)
        }
        f.up(a, at: 0.45)
        f.up(b, at: 0.45)
        h.run(f)
        let pinches = h.events("pinch")
        let turns = h.events("rotate")
        #expect(pinches.first?.state == .began && pinches.last?.state == .ended)
        #expect(turns.first?.state == .began && turns.last?.state == .ended)
        var scale = 1.0
        for e in pinches {
            let s = try #require(e.scale)
            #expect(close(e.scaleDelta, s - scale, 1e-12))
            scale = s
            #expect(e.translationDelta == nil && e.fling == nil)
        }
        #expect(close(pinches.compactMap(\.scaleDelta).reduce(1, +), scale, 1e-9))
        var angle = 0.0
        for e in turns {
            let r = try #require(e.rotation)
            #expect(close(e.rotationDelta, r - angle, 1e-12))
            angle = r
        }
        #expect(angle > 0.2)
        #expect(close(turns.compactMap(\.rotationDelta).reduce(0, +), angle, 1e-9))
    }

    // MARK: - Cancelled when the finger count ends the gesture

    static func threeFingerPan() -> RecognizerConfiguration {
        recognizer(
            "pan3",
            pan {
                $0.minimumNumberOfTouches = 3
                $0.maximumNumberOfTouches = 3
            }
        )
    }

    @Test("a finger lifting from a three-finger pan cancels it 0.1 s later while two go on")
    func threeFingerPanLosesAFinger() throws {
        var h = Harness([Self.threeFingerPan()])
        var f = Fingers()
        let ids = [f.down(30, 20, at: 0), f.down(45, 20, at: 0), f.down(60, 20, at: 0)]
        for step in 1...10 {
            for (k, id) in ids.enumerated() { f.move(id, to: 30 + 15 * Double(k) + 2 * Double(step), 20, at: 0.01 * Double(step)) }
        }
        f.up(ids[2], at: 0.12)
        for step in 11...40 {
            for id in ids.prefix(2) {
                let k = Double(ids.firstIndex(of: id)!)
                f.move(id, to: 30 + 15 * k + 2 * Double(step), 20, at: 0.01 * Double(step) + 0.01)
            }
        }
        f.up(ids[0], at: 0.5)
        f.up(ids[1], at: 0.5)
        h.run(f)
        let events = h.events("pan3")
        #expect(events.first?.state == .began)
        let last = try #require(events.last)
        #expect(last.state == .cancelled)
        #expect(close(last.timestamp.seconds, 0.22, 1e-6))
        #expect(last.fingers == 2)
        #expect(!events.contains { $0.state == .ended })
        #expect(last.fling == nil)
        // Between the lift and the cancel the pan went on (re-based) with two fingers.
        #expect(events.contains { $0.state == .changed && $0.fingers == 2 })
        #expect(h.diagnostics.contains { if case .transition(let r, _, let input, .cancelled) = $0 { r == "pan3" && input.contains("2 fingers") } else { false } })
    }

    @Test("after the cancel the pan starts over with the fingers down: a finger back makes a new attempt")
    func threeFingerPanStartsOver() throws {
        var h = Harness([Self.threeFingerPan()])
        var f = Fingers()
        var ids = [f.down(30, 20, at: 0), f.down(45, 20, at: 0), f.down(60, 20, at: 0)]
        var x = 0.0
        func step(_ t: Double) {
            x += 2
            for (k, id) in ids.enumerated() { f.move(id, to: 30 + 15 * Double(k) + x, 20, at: t) }
        }
        for k in 1...10 { step(0.01 * Double(k)) }
        f.up(ids.removeLast(), at: 0.12)
        for k in 13...30 { step(0.01 * Double(k)) }  // cancelled at 0.22 with two fingers
        ids.append(f.down(70, 20, at: 0.31))
        for k in 32...50 { step(0.01 * Double(k)) }
        for id in ids { f.up(id, at: 0.51) }
        h.run(f)
        let events = h.events("pan3")
        let attempts = Dictionary(grouping: events, by: \.sequence).values.sorted { $0[0].timestamp < $1[0].timestamp }
        #expect(attempts.count == 2)
        #expect(attempts.first?.last?.state == .cancelled)
        let second = try #require(attempts.last)
        #expect(second.first?.state == .began && second.first?.fingers == 3)
        #expect(second.last?.state == .ended)
        // The new attempt's deltas count from its own start.
        #expect(second.first?.translationDelta == second.first?.translation)
    }

    @Test("a scroll that loses a finger takes up the finger it ignored as a third, in a new attempt")
    func scrollTakesUpTheIgnoredFinger() throws {
        var h = Harness([
            recognizer(
                "scroll",
                pan {
                    $0.minimumNumberOfTouches = 2
                    $0.maximumNumberOfTouches = 2
                }
            )
        ])
        var f = Fingers()
        let a = f.down(30, 40, at: 0)
        let b = f.down(50, 40, at: 0)
        f.slide(a, to: 30, 20, from: 0, to: 0.2, steps: 10)
        let c = f.down(70, 20, at: 0.21)  // ignored: the scroll holds its maximum
        f.up(b, at: 0.22)
        for k in 1...20 {
            f.move(a, to: 30, 20 + Double(k), at: 0.22 + 0.01 * Double(k))
            f.move(c, to: 70, 20 + Double(k), at: 0.22 + 0.01 * Double(k))
        }
        f.up(a, at: 0.45)
        f.up(c, at: 0.45)
        h.run(f)
        let events = h.events("scroll")
        let cancelled = try #require(events.first { $0.state == .cancelled })
        #expect(close(cancelled.timestamp.seconds, 0.32, 1e-6))
        let restarted = events.filter { $0.sequence != cancelled.sequence }
        #expect(restarted.first?.state == .began && restarted.first?.fingers == 2)
        #expect(restarted.last?.state == .ended)
        #expect((restarted.last?.translation?.y ?? 0) > 5)
    }

    @Test("fingers lifting from a three-finger pan within 0.1 s of each other end it, with a fling")
    func threeFingerPanLiftsNaturally() throws {
        var h = Harness([Self.threeFingerPan()])
        var f = Fingers()
        let ids = [f.down(30, 20, at: 0), f.down(45, 20, at: 0), f.down(60, 20, at: 0)]
        for step in 1...20 {
            for (k, id) in ids.enumerated() { f.move(id, to: 30 + 15 * Double(k) + 2 * Double(step), 20, at: 0.01 * Double(step)) }
        }
        f.up(ids[0], at: 0.21)
        f.up(ids[1], at: 0.24)
        f.up(ids[2], at: 0.29)
        h.run(f)
        let events = h.events("pan3")
        let last = try #require(events.last)
        #expect(last.state == .ended)
        #expect(!events.contains { $0.state == .cancelled })
        #expect(last.fling != nil)
    }

    /// A fourth finger landing at 0.15 s on a pan limited to three fingers, and lifting at
    /// `lift` s (the three others lift at 0.31 s).
    @Test(
        "a fourth finger on a pan limited to three: lifted within 0.1 s the pan goes on; staying, it cancels the pan 0.1 s after it landed",
        arguments: [(lift: 0.19, cancelled: false), (lift: 0.35, cancelled: true)]
    )
    func fourthFinger(lift: Double, cancelled: Bool) throws {
        var h = Harness([
            recognizer("pan3", pan { $0.minimumNumberOfTouches = 3 }) { $0.policy.maximumFingers = 3 }
        ])
        var f = Fingers()
        let ids = [f.down(30, 20, at: 0), f.down(45, 20, at: 0), f.down(60, 20, at: 0)]
        var extra: TouchID?
        for step in 1...30 {
            let t = 0.01 * Double(step)
            if step == 15 { extra = f.down(50, 50, at: t) }
            if let extra, close(t, lift, 1e-9) { f.up(extra, at: t) }
            for (k, id) in ids.enumerated() { f.move(id, to: 30 + 15 * Double(k) + Double(step), 20, at: t) }
        }
        for id in ids { f.up(id, at: 0.31) }
        if let extra, lift > 0.31 { f.up(extra, at: lift) }
        h.run(f)
        let events = h.events("pan3")
        #expect(events.contains { $0.fingers == 4 })
        let last = try #require(events.last)
        if cancelled {
            #expect(last.state == .cancelled)
            #expect(close(last.timestamp.seconds, 0.25, 1e-6))
            #expect(last.fingers == 4)
        } else {
            #expect(last.state == .ended)
        }
    }

    @Test("a one-finger pan of two fingers losing one goes on: one finger is within its range")
    func panWithinRange() {
        var h = Harness([recognizer("pan", pan())])
        var f = Fingers()
        let a = f.down(30, 20, at: 0)
        let b = f.down(45, 20, at: 0)
        f.slide(a, to: 50, 20, from: 0, to: 0.2, steps: 10)
        f.up(b, at: 0.21)
        f.slide(a, to: 80, 20, from: 0.22, to: 0.6, steps: 10)
        f.up(a, at: 0.61)
        h.run(f)
        #expect(h.events("pan").last?.state == .ended)
        #expect(!h.events("pan").contains { $0.state == .cancelled })
    }

    @Test("a pinch that loses a finger for 0.1 s is cancelled; one whose finger is back in time goes on")
    func pinchLosesAFinger() throws {
        func run(returnAfter gap: Double) -> Harness {
            var h = Harness([recognizer("pinch", pinch())])
            var f = Fingers()
            let a = f.down(30, 30, at: 0)
            let b = f.down(70, 30, at: 0)
            f.slide(b, to: 90, 30, from: 0, to: 0.2, steps: 10)
            f.up(b, at: 0.25)
            let c = f.down(85, 30, at: 0.25 + gap)
            f.slide(c, to: 95, 30, from: 0.25 + gap, to: 0.45 + gap, steps: 10)
            f.up(a, at: 0.5 + gap)
            f.up(c, at: 0.5 + gap)
            h.run(f)
            return h
        }
        let lost = run(returnAfter: 0.3)
        let first = lost.events("pinch").filter { $0.sequence == lost.events("pinch")[0].sequence }
        let last = try #require(first.last)
        #expect(last.state == .cancelled)
        #expect(close(last.timestamp.seconds, 0.35, 1e-6))
        #expect(last.fingers == 1)
        #expect(lost.events("pinch").filter { $0.state == .cancelled }.count == 1)
        // The finger that came back 0.3 s later pinches anew: a second attempt.
        #expect(lost.events("pinch").last?.state == .ended)
        #expect(lost.events("pinch").last?.sequence != last.sequence)
        let back = run(returnAfter: 0.05)
        #expect(back.events("pinch").last?.state == .ended)
        #expect(!back.events("pinch").contains { $0.state == .cancelled })
    }

    @Test("a third finger resting on a pinch cancels it 0.1 s after it landed")
    func pinchThirdFinger() throws {
        var h = Harness([recognizer("pinch", pinch())])
        var f = Fingers()
        let a = f.down(30, 30, at: 0)
        let b = f.down(70, 30, at: 0)
        f.slide(b, to: 90, 30, from: 0, to: 0.2, steps: 10)
        let c = f.down(50, 50, at: 0.3)
        f.slide(b, to: 95, 30, from: 0.3, to: 0.5, steps: 10)
        f.up(c, at: 0.55)
        f.up(a, at: 0.6)
        f.up(b, at: 0.6)
        h.run(f)
        let last = try #require(h.events("pinch").last)
        #expect(last.state == .cancelled)
        #expect(close(last.timestamp.seconds, 0.4, 1e-6))
        #expect(last.fingers == 3)
    }

    @Test("a rotation that loses a finger is cancelled 0.1 s later")
    func rotationLosesAFinger() throws {
        var h = Harness([recognizer("rotate", rotation())])
        var f = Fingers()
        let a = f.down(30, 30, at: 0)
        let b = f.down(70, 30, at: 0)
        for step in 1...10 {
            let angle = Double(step) * 0.03
            f.move(b, to: 30 + 40 * cosine(angle), 30 + 40 * sine(angle), at: Double(step) * 0.02)
        }
        f.up(b, at: 0.25)
        f.up(a, at: 0.6)
        h.run(f)
        let events = h.events("rotate")
        #expect(events.first?.state == .began)
        #expect(events.last?.state == .cancelled)
        #expect(close(events.last?.timestamp.seconds ?? 0, 0.35, 1e-6))
    }

    @Test("with fingerChangeTimeout ∞ the spec's behaviour holds: a pinch waits for its pair, then ends")
    func specModeKeepsWaiting() {
        var h = Harness(
            configuration: EngineConfiguration(recognizers: [recognizer("pinch", pinch())], fingerChangeTimeout: .infinity)
        )
        var f = Fingers()
        let a = f.down(30, 30, at: 0)
        let b = f.down(70, 30, at: 0)
        f.slide(b, to: 90, 30, from: 0, to: 0.2, steps: 10)
        f.up(b, at: 0.25)
        f.up(a, at: 0.9)
        h.run(f)
        #expect(h.events("pinch").last?.state == .ended)
        #expect(h.engine.nextDeadline == nil)
    }

    @Test("the cancel deadline is the engine's next deadline while a finger is missing")
    func deadlineIsReported() {
        var engine = GestureEngine(device: testDevice, configuration: EngineConfiguration(recognizers: [Self.threeFingerPan()]))
        var f = Fingers()
        let ids = [f.down(30, 20, at: 0), f.down(45, 20, at: 0), f.down(60, 20, at: 0)]
        for step in 1...10 {
            for (k, id) in ids.enumerated() { f.move(id, to: 30 + 15 * Double(k) + 2 * Double(step), 20, at: 0.01 * Double(step)) }
        }
        f.up(ids[0], at: 0.15)
        var outputs: [EngineOutput] = []
        for frame in f.frames { outputs += engine.process(frame) }
        #expect(engine.nextDeadline == Timestamp(seconds: 0.25))
        let fired = engine.advance(to: Timestamp(seconds: 0.25))
        #expect(fired.contains { if case .gesture(let e) = $0 { e.state == .cancelled } else { false } })
        #expect(engine.nextDeadline == nil)
    }

    // MARK: - Synthesized input

    /// `script` with stroke `index` lifting at `time` where its path then is.
    static func lifting(_ script: GestureScript, stroke index: Int, at time: Double) -> GestureScript {
        var strokes = script.strokes
        let stroke = strokes[index]
        var keyframes = stroke.keyframes.filter { $0.time < time }
        keyframes.append(.init(time: time, position: stroke.position(at: time)))
        strokes[index] = GestureScript.Stroke(keyframes: keyframes)
        return GestureScript(strokes: strokes)
    }

    static func runSynthesized(_ script: GestureScript, recognizers: [RecognizerConfiguration]) -> Harness {
        let device = GestureSynthesizer.demoTouchscreen
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(for: script, startingAt: Timestamp(seconds: 1))
        var assembler = FrameAssembler(device: device)
        var h = Harness(recognizers, device: device)
        for frame in assembler.frames(events) {
            let outputs = h.engine.process(frame)
            h.record(outputs)
        }
        let rest = h.engine.advance(to: Timestamp(seconds: 1 + script.duration + 2))
        h.record(rest)
        #expect(h.checker.violations.isEmpty, "\(h.checker.violations)")
        return h
    }

    @Test("synthesized: a whole three-finger drag ends with the fling of its speed")
    func synthesizedThreeFingerDrag() throws {
        let synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        let drag = synthesizer.drag(fingers: 3, from: .fraction(x: 0.2, y: 0.5), to: .fraction(x: 0.7, y: 0.5), duration: 0.6)
        let whole = Self.runSynthesized(drag, recognizers: [Self.threeFingerPan()])
        let ended = try #require(whole.events("pan3").last)
        #expect(ended.state == .ended)
        let fling = try #require(ended.fling)
        #expect(fling.displacement.x > 0)
        let speed = try #require(ended.velocity).length
        #expect(close(fling.displacement.length, speed * speed / (2 * GestureMotion.flingDeceleration), 1e-9))
        // 0.5 of 256 mm in 0.6 s: about 213 mm/s, so about 146 mm farther.
        #expect(speed > 150 && speed < 260)
        let width = GestureSynthesizer.demoTouchscreen.widthMillimeters
        #expect(close(try #require(ended.translationFraction).x, try #require(ended.translation).x / width, 1e-9))
    }

    /// A synthesized gesture that one finger (`stroke`) leaves early, at `lift` s into it.
    struct EarlyLift: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let recognizer: RecognizerConfiguration
        let script: @Sendable (GestureSynthesizer) -> GestureScript
        let stroke: Int
        let lift: Double
        /// The fingers still down at the cancel.
        let fingersLeft: Int
    }

    static let earlyLifts = [
        EarlyLift(
            testDescription: "a three-finger drag losing a finger halfway", recognizer: threeFingerPan(),
            script: { $0.drag(fingers: 3, from: .fraction(x: 0.2, y: 0.5), to: .fraction(x: 0.7, y: 0.5), duration: 0.6) },
            stroke: 1, lift: 0.3, fingersLeft: 2),
        EarlyLift(
            testDescription: "a pinch whose second finger lifts early", recognizer: recognizer("pinch", pinch()),
            script: { $0.pinch(scale: 2, duration: 0.6) }, stroke: 0, lift: 0.35, fingersLeft: 1),
    ]

    @Test("synthesized: a gesture whose finger lifts early is cancelled 0.1 s later; played whole, it ends", arguments: earlyLifts)
    func synthesizedEarlyLift(_ c: EarlyLift) throws {
        let synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        let name = c.recognizer.name
        let whole = Self.runSynthesized(c.script(synthesizer), recognizers: [c.recognizer])
        #expect(whole.events(name).last?.state == .ended)
        let broken = Self.runSynthesized(Self.lifting(c.script(synthesizer), stroke: c.stroke, at: c.lift), recognizers: [c.recognizer])
        let events = broken.events(name)
        #expect(events.first?.state == .began)
        let last = try #require(events.last)
        #expect(last.state == .cancelled)
        #expect(last.fingers == c.fingersLeft)
        #expect(!events.contains { $0.state == .ended })
        // Cancelled 0.1 s after the lift frame (script time `lift` from 1 s).
        #expect(close(last.timestamp.seconds, 1 + c.lift + 0.1, 0.011))
    }
}
