import Testing

@testable import GestureEngine

/// The example of docs/state-machines/custom-recognizers.md, verbatim.
struct DocumentedHoldStill: CustomRecognizer {
    var position = PhysicalPoint.zero
    var kind: GestureKind { .custom("hold_still") }
    var isDiscrete: Bool { false }

    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        position = touches[0].position
        context.schedule(0, after: 0.3)
    }
    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        position = touches[0].position
        if context.state != .possible { context.request(.changed) }
    }
    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        context.request(context.state == .possible ? .failed : .ended)
    }
    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        context.request(context.state == .possible ? .failed : .cancelled)
    }
    mutating func timerFired(_ token: Int, context: inout RecognizerContext) {
        if context.state == .possible { context.request(.began) }
    }
    mutating func reset() { position = .zero }
    func values(at now: Timestamp) -> GestureValues {
        GestureValues(fingers: 1, location: position, values: ["custom_value": 1])
    }
}

@Suite("Custom recognizers (spec §4.8)")
struct CustomRecognizerTests {
    @Test("the documented example begins on its timer, changes, ends, and reports its values")
    func documentedExample() {
        var h = Harness([recognizer("still", .custom(AnyCustomRecognizer(DocumentedHoldStill())))])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.move(a, to: 12, 10, at: 0.4)
        f.up(a, at: 0.5)
        h.run(f)
        #expect(h.summary == ["still began@0.300", "still changed@0.400", "still ended@0.500"])
        #expect(h.events("still")[1].location == PhysicalPoint(x: 12, y: 10))
        #expect(h.events("still")[0].values == ["custom_value": 1])
        #expect(h.transcript.contains("hold_still 'still' began fingers=1 x_mm=10.00 y_mm=10.00 custom_value=1.00"))
    }

    @Test("two configured copies of one custom recognizer keep separate state")
    func separateCopies() {
        var h = Harness([
            recognizer("left", .custom(AnyCustomRecognizer(DocumentedHoldStill()))) {
                $0.region = .fraction(x: 0, y: 0, width: 0.5, height: 1)
            },
            recognizer("right", .custom(AnyCustomRecognizer(DocumentedHoldStill()))) {
                $0.region = .fraction(x: 0.5, y: 0, width: 0.5, height: 1)
            },
        ])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        let b = f.down(90, 10, at: 0.1)
        f.up(a, at: 0.2)
        f.up(b, at: 0.5)
        h.run(f)
        #expect(h.summary == ["right began@0.400", "right ended@0.500"])
    }

    @Test("custom recognizers compare by value inside a configuration")
    func equality() {
        let a = RecognizerKind.custom(AnyCustomRecognizer(TickleRecognizer()))
        var p = TickleParameters()
        p.minimumTravel = 3.117
        let b = RecognizerKind.custom(AnyCustomRecognizer(TickleRecognizer(parameters: p)))
        #expect(a == .custom(AnyCustomRecognizer(TickleRecognizer())))
        #expect(a != b)
        #expect(a.gestureKind == .custom("tickle"))
        #expect(a.isDiscrete)
    }
}
