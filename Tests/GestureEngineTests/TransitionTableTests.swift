import Testing

@testable import GestureEngine

@Suite("Legal transitions (spec §3.1)")
struct TransitionTableTests {
    /// The spec's table written out independently of the engine's.
    static let expectedContinuous: Set<String> = [
        "possible→began", "possible→failed", "began→changed", "began→ended", "began→cancelled",
        "changed→changed", "changed→ended", "changed→cancelled",
    ]
    static let expectedDiscrete: Set<String> = ["possible→ended", "possible→failed"]
    static let expectedResets: Set<String> = ["ended→possible", "cancelled→possible", "failed→possible"]

    @Test("every (from, to) pair is legal exactly when the spec's table says so", arguments: [true, false])
    func exhaustive(isDiscrete: Bool) {
        var legal: Set<String> = []
        var resets: Set<String> = []
        for from in RecognizerState.allCases {
            for to in RecognizerState.allCases {
                if RecognizerTransitions.isLegalRequest(from: from, to: to, isDiscrete: isDiscrete) {
                    legal.insert("\(from.rawValue)→\(to.rawValue)")
                }
                if RecognizerTransitions.isLegalReset(from: from, to: to) {
                    resets.insert("\(from.rawValue)→\(to.rawValue)")
                }
            }
        }
        #expect(legal == (isDiscrete ? Self.expectedDiscrete : Self.expectedContinuous))
        #expect(resets == Self.expectedResets)
    }

    @Test("an illegal request is reported as an engine bug and ignored")
    func illegalRequest() {
        var h = Harness([recognizer("bad", .custom(AnyCustomRecognizer(Misbehaving())))])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.move(a, to: 11, 10, at: 0.1)
        f.up(a, at: 0.2)
        for frame in f.frames { h.record(h.engine.process(frame)) }
        #expect(
            h.diagnostics.contains(.engineBug("'bad' requested the illegal transition possible → changed, ignoring"))
        )
        #expect(h.gestures.isEmpty)
        #expect(h.checker.violations.isEmpty)
    }

    @Test("the transition diagnostic renders like libinput's state lines")
    func rendering() {
        let d = EngineDiagnostic.transition(recognizer: "tap", from: .possible, input: "timer", to: .failed)
        #expect(d.description == "gesture 'tap': possible → failed (timer)")
    }
}

/// Asks for `changed` without having begun.
struct Misbehaving: CustomRecognizer {
    var kind: GestureKind { .custom("misbehaving") }
    var isDiscrete: Bool { false }
    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {}
    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        context.request(.changed)
    }
    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        context.fail()
    }
    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        context.fail()
    }
    mutating func reset() {}
    func values(at now: Timestamp) -> GestureValues { GestureValues(fingers: 0, location: .zero) }
}

/// Re-arms a zero-length timer forever.
struct Spinner: CustomRecognizer {
    var kind: GestureKind { .custom("spinner") }
    var isDiscrete: Bool { true }
    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        context.schedule(0, after: 0)
    }
    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {}
    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) { context.fail() }
    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) { context.fail() }
    mutating func timerFired(_ token: Int, context: inout RecognizerContext) {
        context.schedule(0, after: 0)
    }
    mutating func reset() {}
    func values(at now: Timestamp) -> GestureValues { GestureValues(fingers: 0, location: .zero) }
}

@Suite("Engine self-protection")
struct SelfProtectionTests {
    @Test("a recognizer re-arming a zero-length timer cannot hang the engine")
    func spinningTimer() {
        var engine = GestureEngine(
            device: testDevice,
            configuration: EngineConfiguration(recognizers: [
                recognizer("spin", .custom(AnyCustomRecognizer(Spinner())))
            ])
        )
        let touch = Touch(id: TouchID(1), phase: .began, position: PhysicalPoint(x: 5, y: 5), startTime: .zero)
        _ = engine.process(Frame(timestamp: .zero, touches: [touch]))
        _ = engine.advance(to: Timestamp(seconds: 1))
        #expect(engine.nextDeadline == nil)
        #expect(engine.drainDiagnostics().contains { if case .engineBug = $0 { true } else { false } })
    }
}
