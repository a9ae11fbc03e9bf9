import Testing

@testable import GestureEngine

/// `recordsTransitions` (DESIGN.md "Engine and arbitration" › "Delivery to the sink and the outputs"): off, the engine builds no
/// transition diagnostic, and nothing else changes.
@Suite("Transition recording")
struct TransitionRecordingTests {
    @Test("with transitions off the outputs are the same and no transition is kept")
    func offChangesNothingButTheDiagnostics() throws {
        let device = GestureSynthesizer.demoTouchscreen
        var s = GestureSynthesizer(device: device, frameInterval: 1.0 / 120, jitterMillimeters: 0.05, seed: 7)
        let script = GestureScript.sequence(
            [
                s.pinch(scale: 1.6, fingers: 2, at: .fraction(x: 0.4, y: 0.5), span: 40, duration: 0.8),
                s.tap(at: .fraction(x: 0.3, y: 0.3)),
                s.swipe(fingers: 3, direction: .right, distance: 60, duration: 0.25),
                s.edgeSwipe(from: .left, distance: 60, duration: 0.6),
            ],
            gap: 0.3
        )
        let events = s.events(for: script, startingAt: Timestamp(seconds: 10))
        func run(recording: Bool) -> (outputs: [EngineOutput], transitions: Int) {
            var assembler = FrameAssembler(device: device)
            var engine = GestureEngine(device: device, configuration: EngineConfiguration(recognizers: LandingTests.shippedTouchscreen))
            engine.recordsTransitions = recording
            var outputs: [EngineOutput] = []
            var transitions = 0
            for frame in assembler.frames(events) {
                engine.process(frame, into: &outputs)
                for d in engine.drainDiagnostics() { if case .transition = d { transitions += 1 } }
            }
            outputs += engine.advance(to: Timestamp(seconds: 10 + script.duration + 2))
            for d in engine.drainDiagnostics() { if case .transition = d { transitions += 1 } }
            return (outputs, transitions)
        }
        let on = run(recording: true)
        let off = run(recording: false)
        #expect(on.transitions > 0, "the shipped recognizers change state on these gestures")
        #expect(off.transitions == 0)
        #expect(on.outputs.contains { if case .gesture = $0 { true } else { false } })
        #expect(off.outputs == on.outputs)
    }
}
