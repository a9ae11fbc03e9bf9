import Testing

@testable import GestureEngine

@Suite("Arbitration (spec §5)")
struct ArbitrationTests {
    func run(_ recognizers: [RecognizerConfiguration], _ script: (inout Fingers) -> Void) -> Harness {
        var h = Harness(recognizers)
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    @Test("tap vs pan: a still finger taps, a 3 mm drag pans and the tap fails")
    func tapVersusPan() {
        let rs = [recognizer("tap", tap()), recognizer("pan", pan())]
        let still = run(rs) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 21, 20, at: 0.05)
            f.up(a, at: 0.1)
        }
        #expect(still.summary == ["tap recognized@0.100"])
        let drag = run(rs) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 23, 20, at: 0.05)
            f.up(a, at: 0.1)
        }
        #expect(drag.summary == ["pan began@0.050", "pan ended@0.100"])
    }

    @Test("a began long press fails a possible pan on the same touch")
    func longPressExcludesPan() {
        let h = run([recognizer("pan", pan()), recognizer("press", longPress())]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 30, 20, at: 0.6)
            f.up(a, at: 0.7)
        }
        #expect(h.summary == ["press began@0.500", "press changed@0.600", "press ended@0.700"])
    }

    @Test("recognizers that never share a touch do not exclude each other")
    func independentPans() {
        let h = run([
            recognizer("left", pan()) { $0.region = .rectangle(PhysicalRect(x: 0, y: 0, width: 50, height: 60)) },
            recognizer("right", pan()) { $0.region = .rectangle(PhysicalRect(x: 50, y: 0, width: 50, height: 60)) },
        ]) { f in
            let a = f.down(20, 20, at: 0)
            let b = f.down(80, 20, at: 0)
            f.move(a, to: 25, 20, at: 0.1)
            f.move(b, to: 85, 20, at: 0.1)
            f.up(a, at: 0.2)
            f.up(b, at: 0.2)
        }
        #expect(h.summary == ["left began@0.100", "right began@0.100", "left ended@0.200", "right ended@0.200"])
    }

    @Test("with equal priority the first declared recognizer wins a tie; priority overrides it")
    func priority() {
        func script(_ f: inout Fingers) {
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 25, 20, at: 0.1)
            f.up(a, at: 0.2)
        }
        let declared = run([recognizer("first", pan()), recognizer("second", pan())], script)
        #expect(declared.summary == ["first began@0.100", "first ended@0.200"])
        let prioritized = run([recognizer("first", pan()), recognizer("second", pan()) { $0.priority = 1 }], script)
        #expect(prioritized.summary == ["second began@0.100", "second ended@0.200"])
        #expect(prioritized.engine.engineOrder == ["second", "first"])
    }

    @Test("among equal priorities the innermost region comes first")
    func innermostRegion() {
        let rs = [
            recognizer("outer", pan()),
            recognizer("inner", pan()) { $0.region = .fraction(x: 0, y: 0, width: 0.5, height: 0.5) },
            recognizer("band", pan()) { $0.region = .edge(.left, width: 5) },
        ]
        let inside = run(rs) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 25, 20, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(inside.engine.engineOrder == ["band", "inner", "outer"])
        #expect(inside.summary == ["inner began@0.100", "inner ended@0.200"])
        let outside = run(rs) { f in
            let a = f.down(80, 50, at: 0)
            f.move(a, to: 85, 50, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(outside.summary == ["outer began@0.100", "outer ended@0.200"])
        let band = run(rs) { f in
            let a = f.down(3, 20, at: 0)
            f.move(a, to: 8, 20, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(band.summary == ["band began@0.100", "band ended@0.200"])
    }

    @Test("a tap does not prevent a tap with more taps: both single and double are reported")
    func tapCanPrevent() {
        let h = run([recognizer("single", tap()), recognizer("double", tap(taps: 2))]) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.1)
            let b = f.down(10, 10, at: 0.2)
            f.up(b, at: 0.3)
        }
        #expect(h.summary == ["single recognized@0.100", "single recognized@0.300", "double recognized@0.300"])
    }

    @Test("a tap does not prevent a long press with as many taps; it does prevent a pan")
    func tapVersusLongPressWithTap() {
        let h = run([
            recognizer("tap", tap()), recognizer("tap-press", longPress { $0.numberOfTapsRequired = 1 }),
            recognizer("pan", pan { $0.hysteresis = 50 }),
        ]) { f in
            let a = f.down(10, 10, at: 0)
            f.up(a, at: 0.1)
            let b = f.down(10, 10, at: 0.2)
            f.up(b, at: 0.9)
        }
        #expect(h.summary == ["tap recognized@0.100", "tap-press began@0.700", "tap-press ended@0.900"])
    }

    @Test("a dependent fails when the recognizer it waits for recognizes")
    func dependentFails() {
        let h = run([
            recognizer("pan", pan()) { $0.requiresFailureOf = ["press"] },
            recognizer("press", longPress()),
        ]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 21, 20, at: 0.1)  // within the press's 1.558 mm; pan not past hysteresis
            f.up(a, at: 0.7)
        }
        #expect(h.summary == ["press began@0.500", "press ended@0.700"])
    }

    @Test("a pending pan that ends before it is released reports began and ended together")
    func pendingBeganThenEnded() {
        let h = run([
            recognizer("pan", pan()) { $0.requiresFailureOf = ["double"] },
            recognizer("double", tap(taps: 2)),
        ]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 30, 20, at: 0.05)  // tap fails (moved 10 mm) only at this move ...
            f.up(a, at: 0.1)
        }
        // ... so the pan is not pending at all: it begins at once.
        #expect(h.summary == ["pan began@0.050", "pan ended@0.100"])
        let pending = run([
            recognizer("pan", pan()) { $0.requiresFailureOf = ["press"] },
            recognizer("press", longPress { $0.allowableMovement = 50 }),
        ]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 30, 20, at: 0.05)
            f.up(a, at: 0.1)  // press fails at the lift, pan unblocks with began + ended
        }
        #expect(pending.summary == ["pan began@0.100", "pan ended@0.100"])
        #expect(pending.events("pan")[0].translation == .zero)
    }

    @Test("require-to-fail cycles and unknown names are dropped with a configuration diagnostic")
    func cycles() {
        var engine = GestureEngine(
            device: testDevice,
            configuration: EngineConfiguration(recognizers: [
                recognizer("a", tap()) { $0.requiresFailureOf = ["b"] },
                recognizer("b", tap(taps: 2)) { $0.requiresFailureOf = ["c"] },
                recognizer("c", tap(taps: 3)) { $0.requiresFailureOf = ["a", "nobody"] },
                recognizer("d", pan()) { $0.recognizesSimultaneouslyWith = ["ghost"] },
            ])
        )
        let diagnostics = engine.drainDiagnostics().map(\.description)
        #expect(diagnostics.contains("configuration: require-to-fail cycle: dropped 'c' requires 'a'"))
        #expect(diagnostics.contains { $0.contains("unknown recognizer 'nobody'") })
        #expect(diagnostics.contains { $0.contains("unknown recognizer 'ghost'") })
        #expect(engine.requires.map { $0.map { engine.slots[$0].name } } == [["b"], ["c"], [], []])
    }

    @Test("a custom continuous recognizer takes part in arbitration like a built-in one")
    func customRecognizer() {
        let h = run([
            recognizer("still", .custom(AnyCustomRecognizer(HoldStill()))),
            recognizer("pan", pan()),
        ]) { f in
            let a = f.down(20, 20, at: 0)
            f.move(a, to: 20.1, 20, at: 0.1)
            f.move(a, to: 20.2, 20, at: 0.2)
            f.move(a, to: 30, 20, at: 0.3)
            f.up(a, at: 0.4)
        }
        #expect(h.summary == ["still began@0.100", "still changed@0.200", "still changed@0.300", "still ended@0.400"])
        #expect(h.events("still")[0].kind == .custom("hold_still"))
        #expect(h.events("still")[0].values["moves"] == 1)
    }
}

/// A user-written continuous recognizer: begins at the first small move, counts moves.
struct HoldStill: CustomRecognizer {
    var moves = 0
    var position = PhysicalPoint.zero
    var kind: GestureKind { .custom("hold_still") }
    var isDiscrete: Bool { false }
    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        position = touches[0].position
    }
    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        moves += 1
        position = touches[0].position
        context.request(context.state == .possible ? .began : .changed)
    }
    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        context.request(context.state == .possible ? .failed : .ended)
    }
    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        context.request(context.state == .possible ? .failed : .cancelled)
    }
    mutating func reset() {
        moves = 0
    }
    func values(at now: Timestamp) -> GestureValues {
        GestureValues(fingers: 1, location: position, values: ["moves": Double(moves)])
    }
}

/// A tap that waits for every tap with more taps, like UIKit's private
/// `_delaysRecognitionForGreaterTapCounts`, written as a custom recognizer's override.
struct PatientTap: CustomRecognizer {
    var inner = TapRecognizer(parameters: TapParameters())
    var kind: GestureKind { .custom("patient_tap") }
    var isDiscrete: Bool { true }
    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        inner.touchesBegan(touches, context: &context)
    }
    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        inner.touchesMoved(touches, context: &context)
    }
    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        inner.touchesEnded(touches, context: &context)
    }
    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        inner.touchesCancelled(touches, context: &context)
    }
    mutating func timerFired(_ token: Int, context: inout RecognizerContext) {
        inner.timerFired(token, context: &context)
    }
    mutating func reset() { inner.reset() }
    func values(at now: Timestamp) -> GestureValues { inner.values(at: now) }
    func shouldRequireFailure(of other: RecognizerKind) -> Bool {
        if case .tap(let p) = other { return p.numberOfTapsRequired > 1 }
        return false
    }
}

@Suite("Dynamic failure requirements (spec §5.1)")
struct DynamicRequirementTests {
    @Test("a recognizer's own shouldRequireFailure(of:) makes it wait like require(toFail:)")
    func overrideWaits() {
        var h = Harness([
            recognizer("patient", .custom(AnyCustomRecognizer(PatientTap()))),
            recognizer("double", tap(taps: 2)),
        ])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.up(a, at: 0.1)
        h.run(f)
        #expect(h.summary == ["patient recognized@0.450"])
        #expect(h.engine.requires.map { $0.map { h.engine.slots[$0].name } } == [["double"], []])
    }
}
