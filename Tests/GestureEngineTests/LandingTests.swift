import Testing

@testable import GestureEngine

/// Arbitration on real landings (DESIGN.md "Engine and arbitration" › "Arbitration on real landings"): fingers that land and lift a few
/// milliseconds apart, one lagging the other, at 60–240 frames per second. Every script goes
/// through the synthesizer's raw events and the frame assembler, as input arrives.
@Suite("Arbitration on real landings")
struct LandingTests {
    static let device = GestureSynthesizer.demoTouchscreen

    /// The touchscreen gestures of the shipped `config/gestured.conf`, as the configuration
    /// module builds them (edge pans, taps, long press, swipes of one to four fingers, pinch and
    /// rotation together).
    static var shippedTouchscreen: [RecognizerConfiguration] {
        var rs: [RecognizerConfiguration] = []
        for edge in [Edge.left, .right, .top, .bottom] {
            rs.append(recognizer("edge-\(edge)", edgePan([edge])) { $0.priority = 10 })
        }
        rs.append(recognizer("tap", tap()) { $0.requiresFailureOf = ["double-tap"] })
        rs.append(recognizer("double-tap", tap(taps: 2)))
        rs.append(recognizer("two-finger-tap", tap(touches: 2)))
        rs.append(recognizer("long-press", longPress()))
        let all: Set<Direction> = [.left, .right, .up, .down]
        rs.append(
            recognizer("swipe", swipe(all)) {
                $0.requiresFailureOf = ["edge-left", "edge-right", "edge-top", "edge-bottom"]
            }
        )
        rs.append(recognizer("two-finger-swipe", swipe(all, touches: 2)))
        rs.append(recognizer("three-finger-swipe", swipe(all, touches: 3)))
        rs.append(recognizer("four-finger-swipe", swipe(all, touches: 4)))
        rs.append(recognizer("pinch", pinch()) { $0.recognizesSimultaneouslyWith = ["rotate"] })
        rs.append(recognizer("rotate", rotation()) { $0.recognizesSimultaneouslyWith = ["pinch"] })
        return rs
    }

    /// The touchscreen gestures of `config/evaluation.conf` that compete for one and two
    /// fingers: a one-finger drag, a two-finger scroll and a pinch.
    static var dragScrollPinch: [RecognizerConfiguration] {
        [
            recognizer("scroll", pan { $0.minimumNumberOfTouches = 2; $0.maximumNumberOfTouches = 2; $0.hysteresis = 3 }),
            recognizer("drag", pan { $0.maximumNumberOfTouches = 1 }),
            recognizer("pinch", pinch()),
        ]
    }

    /// Names of the gestures that began or were recognized, in order.
    static func recognized(
        _ script: GestureScript,
        _ recognizers: [RecognizerConfiguration],
        hertz: Double = 100,
        settlingWindow: Double = EngineConfiguration.defaultSettlingWindow,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        events(script, recognizers, hertz: hertz, settlingWindow: settlingWindow, sourceLocation: sourceLocation)
            .filter { $0.state == .began || $0.state == .recognized }
            .map(\.name)
    }

    /// Every gesture event of `script` replayed as raw events through the assembler and engine.
    static func events(
        _ script: GestureScript,
        _ recognizers: [RecognizerConfiguration],
        hertz: Double = 100,
        settlingWindow: Double = EngineConfiguration.defaultSettlingWindow,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [GestureEvent] {
        var synthesizer = GestureSynthesizer(device: device, frameInterval: 1 / hertz)
        let raw = synthesizer.events(for: script, startingAt: Timestamp(seconds: 1))
        var assembler = FrameAssembler(device: device)
        var engine = GestureEngine(
            device: device,
            configuration: EngineConfiguration(recognizers: recognizers, settlingWindow: settlingWindow)
        )
        var checker = ConsistencyChecker()
        var out: [EngineOutput] = []
        for frame in assembler.frames(raw) { out += engine.process(frame) }
        out += engine.advance(to: Timestamp(seconds: 1 + script.duration + 2))
        checker.feed(out)
        #expect(checker.violations.isEmpty, "\(checker.violations)", sourceLocation: sourceLocation)
        return out.compactMap { if case .gesture(let e) = $0 { e } else { nil } }
    }

    static func staggered(_ script: GestureScript, landing: Double, lift: Double = 0) -> GestureScript {
        script.staggered(landing: landing, lifting: lift, lagging: true)
    }

    static var synthesizer: GestureSynthesizer { GestureSynthesizer(device: device) }

    // MARK: - A failed recognizer stays out until the sequence ends

    @Test(
        "three fingers landing 10 ms apart and swiping left give the three-finger swipe (shipped set)",
        arguments: [60.0, 120.0, 240.0]
    )
    func staggeredThreeFingerSwipe(hertz: Double) {
        let script = Self.staggered(
            Self.synthesizer.swipe(fingers: 3, direction: .left, distance: 50, duration: 0.25),
            landing: 0.010
        )
        #expect(Self.recognized(script, Self.shippedTouchscreen, hertz: hertz) == ["three-finger-swipe"])
    }

    @Test("the one-finger swipe that failed on the second finger does not start over on the third")
    func failedStaysOut() {
        // Without the settling window the arena still must not let the failed one-finger
        // swipe take the third finger alone.
        let script = Self.staggered(
            Self.synthesizer.swipe(fingers: 3, direction: .left, distance: 50, duration: 0.25),
            landing: 0.010
        )
        #expect(Self.recognized(script, Self.shippedTouchscreen, settlingWindow: 0) == ["three-finger-swipe"])
    }

    @Test("after every finger lifted, the recognizers take part again")
    func resetAfterSequence() {
        let swipe = Self.staggered(
            Self.synthesizer.swipe(fingers: 3, direction: .left, distance: 50, duration: 0.25),
            landing: 0.010
        )
        let script = swipe.followed(by: Self.synthesizer.swipe(direction: .right, distance: 40, duration: 0.2), after: 0.3)
        #expect(Self.recognized(script, Self.shippedTouchscreen) == ["three-finger-swipe", "swipe"])
    }

    @Test("a finger still down keeps a finished recognizer out: a second tap beside a resting finger is no tap")
    func restingFingerKeepsSequence() {
        var f = Fingers()
        let rest = f.down(50, 30, at: 0)
        f.move(rest, to: 58, 30, at: 0.05)  // moving fails the tap
        let a = f.down(20, 20, at: 0.3)
        f.up(a, at: 0.35)
        f.up(rest, at: 0.6)
        var h = Harness([recognizer("tap", tap())])
        h.run(f)
        #expect(h.summary.isEmpty)
    }

    // MARK: - Settling window

    @Test(
        "a fast swipe whose second finger lands 33 ms late is the two-finger swipe, not the one-finger one",
        arguments: [60.0, 120.0, 240.0]
    )
    func lateSecondFingerSwipe(hertz: Double) {
        // 600 mm/s from the first frame: the first finger alone passes the one-finger swipe's
        // 7.8 mm within 17 ms, before the second finger lands 33 ms after it.
        var base = Self.synthesizer.swipe(fingers: 2, direction: .right, distance: 60, duration: 0.1)
        base.strokes = base.strokes.map { s in
            GestureScript.Stroke(keyframes: s.keyframes.filter { $0.time >= 0.02 }.map { .init(time: $0.time - 0.02, position: $0.position) })
        }
        let script = Self.staggered(base, landing: 0.034)
        #expect(Self.recognized(script, Self.shippedTouchscreen, hertz: hertz) == ["two-finger-swipe"])
        // The window is what makes it so.
        #expect(Self.recognized(script, Self.shippedTouchscreen, hertz: hertz, settlingWindow: 0) == ["swipe"])
    }

    @Test("a zoom whose second finger lands 30 ms after the first began to move is a pinch, not a drag")
    func lateSecondFingerZoom() {
        var f = Fingers()
        let a = f.down(40, 30, at: 0)
        f.slide(a, to: 36, 30, from: 0, to: 0.03, steps: 3)  // past the drag's 1.56 mm
        let b = f.down(60, 30, at: 0.03)
        for k in 1...17 {
            let t = 0.03 + 0.01 * Double(k)
            f.move(a, to: 36 - 10 * Double(k) / 17, 30, at: t)
            f.move(b, to: 60 + 10 * Double(k) / 17, 30, at: t)
        }
        f.up(a, at: 0.25)
        f.up(b, at: 0.25)
        var h = Harness(Self.dragScrollPinch)
        h.run(f)
        // The drag, wanted at 0.02 s, waits for the landing's first 40 ms; the second finger
        // lands at 0.03 s and it fails, unseen.
        #expect(h.summary.filter { !$0.contains("changed") && !$0.hasPrefix("pinch") } == [])
        #expect(h.events("pinch").first?.state == .began)
        #expect(h.events("pinch").last?.state == .ended)
        var off = Harness(configuration: EngineConfiguration(recognizers: Self.dragScrollPinch, settlingWindow: 0))
        off.run(f)
        #expect(off.gestures.first?.name == "drag")
    }

    @Test("a drag yields to a three-finger landing only for a competitor that can begin on this device")
    func yieldOnlyToPossibleCompetitors() {
        var f = Fingers()
        let a = f.down(40, 30, at: 0)
        // Still for 45 ms, then past the hysteresis: the drag begins at once (the landing's
        // first 40 ms are over) while the window is still open.
        f.move(a, to: 36, 30, at: 0.045)
        f.move(a, to: 34, 30, at: 0.05)
        let b = f.down(50, 30, at: 0.06)
        let c = f.down(60, 30, at: 0.07)
        for id in [a, b, c] { f.up(id, at: 0.2) }
        func run(_ kinds: Set<DeviceKind>) -> [String] {
            var h = Harness([
                recognizer("drag", pan()),
                recognizer("three-finger-swipe", swipe(touches: 3)) { $0.policy.deviceKinds = kinds },
            ])
            h.run(f)
            return h.summary.filter { !$0.contains("changed") }
        }
        // A three-finger swipe that may begin on this touchscreen takes the landing...
        #expect(run([]) == ["drag began@0.045", "drag cancelled@0.070"])
        // ...one for touchpads only can never begin here: the drag goes on.
        #expect(run([.touchpad]) == ["drag began@0.045", "drag ended@0.200"])
    }

    @Test("two fingers landing 25 ms apart while the hand moves scroll, with no drag first")
    func movingLandingScrolls() {
        // 160 mm/s from the first touch: the first finger alone passes the drag's 1.56 mm at
        // 10 ms, 15 ms before the second lands.
        var f = Fingers()
        let a = f.down(70, 30, at: 0)
        var b: TouchID?
        for k in 1...20 {
            let t = 0.005 * Double(k)
            if k == 5 { b = f.down(70, 45, at: t) }
            f.move(a, to: 70 - 160 * t, 30, at: t)
            if let b, k > 5 { f.move(b, to: 70 - 160 * (t - 0.025), 45, at: t) }
        }
        f.up(a, at: 0.12)
        f.up(b!, at: 0.12)
        var h = Harness(Self.dragScrollPinch)
        h.run(f)
        #expect(h.gestures.first?.name == "scroll")
        #expect(h.events("drag").isEmpty)
        // Without the continuous settling the drag begins on the first finger, then yields.
        var off = Harness(configuration: EngineConfiguration(recognizers: Self.dragScrollPinch, continuousSettling: 0))
        off.run(f)
        #expect(off.summary.filter { !$0.contains("changed") }.prefix(2) == ["drag began@0.010", "drag cancelled@0.025"])
    }

    @Test("a drag alone waits for at most the landing's first 40 ms")
    func dragNotDelayed() {
        var f = Fingers()
        let a = f.down(40, 30, at: 0)
        f.slide(a, to: 52, 30, from: 0, to: 0.12, steps: 12)
        f.up(a, at: 0.15)
        var h = Harness(Self.dragScrollPinch)
        h.run(f)
        // Wanted at 0.02 s; the two-finger scroll and pinch could still form.
        #expect(h.summary.filter { !$0.contains("changed") } == ["drag began@0.040", "drag ended@0.150"])
        var off = Harness(configuration: EngineConfiguration(recognizers: Self.dragScrollPinch, continuousSettling: 0))
        off.run(f)
        #expect(off.summary.filter { !$0.contains("changed") } == ["drag began@0.020", "drag ended@0.150"])
    }

    @Test("a one-finger swipe waits for the window while a two-finger swipe could still form")
    func discreteWaitsForWindow() {
        var f = Fingers()
        let a = f.down(40, 30, at: 0)
        f.slide(a, to: 60, 30, from: 0, to: 0.05, steps: 5)
        f.up(a, at: 0.06)
        let rs = [recognizer("swipe", swipe()), recognizer("two-finger-swipe", swipe(touches: 2))]
        var h = Harness(rs)
        h.run(f)
        // Wanted at 0.02 s (8 mm); the two-finger swipe fails at the lift, which releases it.
        #expect(h.summary == ["swipe recognized@0.060"])
        var off = Harness(configuration: EngineConfiguration(recognizers: rs, settlingWindow: 0))
        off.run(f)
        #expect(off.summary == ["swipe recognized@0.020"])
    }

    @Test("a drag that passes its hysteresis after the window begins at once")
    func lateDragNotDelayed() {
        var f = Fingers()
        let a = f.down(40, 30, at: 0)
        f.move(a, to: 40.5, 30, at: 0.1)
        f.move(a, to: 43, 30, at: 0.13)
        f.up(a, at: 0.2)
        var h = Harness(Self.dragScrollPinch)
        h.run(f)
        #expect(h.summary.filter { !$0.contains("changed") } == ["drag began@0.130", "drag ended@0.200"])
    }

    @Test("a one-finger tap is not delayed by the two-finger competitors: they fail at its lift")
    func tapNotDelayed() {
        var f = Fingers()
        let a = f.down(40, 30, at: 0)
        f.up(a, at: 0.03)
        var h = Harness([recognizer("tap", tap()), recognizer("two-finger-tap", tap(touches: 2))])
        h.run(f)
        #expect(h.summary == ["tap recognized@0.030"])
    }

    // MARK: - Translation is not rotation or pinch

    /// Two fingers 15 mm apart swiping up 60 mm in 0.15 s, the second landing and lifting
    /// 12 ms after the first: the pair tilts by up to 17°.
    static var laggingTwoFingerSwipeUp: GestureScript {
        staggered(synthesizer.swipe(fingers: 2, direction: .up, distance: 60, duration: 0.15), landing: 0.012)
    }

    @Test("two fingers swiping up, one 12 ms behind, give the two-finger swipe", arguments: [60.0, 120.0, 240.0])
    func laggingPairIsSwipe(hertz: Double) {
        #expect(Self.recognized(Self.laggingTwoFingerSwipeUp, Self.shippedTouchscreen, hertz: hertz) == ["two-finger-swipe"])
    }

    @Test("without the translation check the lagging pair is a rotation", arguments: [0.0, 0.1])
    func laggingPairWithoutCheck(settlingWindow: Double) {
        let rs = Self.shippedTouchscreen.map { r -> RecognizerConfiguration in
            var r = r
            if case .rotation(var p) = r.kind {
                p.ignoresTranslation = false
                r.kind = .rotation(p)
            }
            return r
        }
        #expect(Self.recognized(Self.laggingTwoFingerSwipeUp, rs, settlingWindow: settlingWindow).first == "rotate")
    }

    @Test("a pair turning about its centre is a rotation, landing together or 12 ms apart", arguments: [0.0, 0.012])
    func realRotation(landing: Double) {
        let script = Self.staggered(Self.synthesizer.rotation(angle: Double.pi / 3), landing: landing)
        #expect(Self.recognized(script, Self.shippedTouchscreen).first == "rotate")
    }

    @Test("a finger turning about a still one is a rotation")
    func pivotRotation() {
        var f = Fingers()
        let pivot = f.down(50, 30, at: 0)
        let b = f.down(70, 30, at: 0)
        for k in 1...20 {
            let angle = Double(k) * Double.pi / 60  // 60° in 20 steps
            f.move(b, to: 50 + 20 * cosine(angle), 30 + 20 * sine(angle), at: 0.01 * Double(k))
        }
        f.up(pivot, at: 0.3)
        f.up(b, at: 0.3)
        var h = Harness(Self.shippedTouchscreen)
        h.run(f)
        #expect(h.gestures.first?.name == "rotate")
    }

    @Test("fingers spreading are a pinch, landing together or 12 ms apart", arguments: [0.0, 0.012])
    func realPinch(landing: Double) {
        let script = Self.staggered(Self.synthesizer.pinch(scale: 2), landing: landing)
        #expect(Self.recognized(script, Self.shippedTouchscreen).first == "pinch")
    }

    @Test("a finger moving away from a still one is a pinch")
    func anchoredPinch() {
        var f = Fingers()
        let a = f.down(50, 30, at: 0)
        let b = f.down(70, 30, at: 0)
        f.slide(b, to: 90, 30, from: 0, to: 0.2, steps: 20)
        f.up(a, at: 0.3)
        f.up(b, at: 0.3)
        var h = Harness(Self.shippedTouchscreen)
        h.run(f)
        #expect(h.gestures.first?.name == "pinch")
    }

    // MARK: - Lift stagger

    @Test(
        "fingers lifting 0–40 ms apart leave a three-finger swipe alone",
        arguments: [0.0, 0.010, 0.020, 0.040]
    )
    func liftStaggerThree(lift: Double) {
        let script = Self.staggered(
            Self.synthesizer.swipe(fingers: 3, direction: .down, distance: 40, duration: 0.25),
            landing: 0.005,
            lift: lift
        )
        #expect(Self.recognized(script, Self.shippedTouchscreen) == ["three-finger-swipe"])
    }

    @Test("fingers lifting 0–40 ms apart leave a lagging two-finger swipe alone", arguments: [0.0, 0.020, 0.040])
    func liftStaggerTwo(lift: Double) {
        let script = Self.staggered(
            Self.synthesizer.swipe(fingers: 2, direction: .left, distance: 50, duration: 0.2),
            landing: 0.012,
            lift: lift
        )
        #expect(Self.recognized(script, Self.shippedTouchscreen) == ["two-finger-swipe"])
    }
}
