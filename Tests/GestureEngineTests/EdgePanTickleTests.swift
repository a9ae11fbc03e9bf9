import Testing

@testable import GestureEngine

@Suite("Edge pan (spec §4.4) and tickle (spec §9)")
struct EdgePanTickleTests {
    func run(_ recognizers: [RecognizerConfiguration], _ script: (inout Fingers) -> Void) -> Harness {
        var h = Harness(recognizers)
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    @Test(
        "an edge pan starts only within the start band (5.142 mm) of a configured edge",
        arguments: [
            (5.1, true), (5.2, false),
        ]
    )
    func startBand(x: Double, begins: Bool) {
        let h = run([recognizer("edge", edgePan([.left]))]) { f in
            let a = f.down(x, 30, at: 0)
            f.move(a, to: x + 10, 30, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect((h.events("edge").first?.state == .began) == begins)
        if begins {
            #expect(h.events("edge")[0].edge == .left)
            #expect(close(h.events("edge")[0].translation?.x, 10 - 2.337, 1e-9))
        }
    }

    @Test("the first movement must point inward within ±77.5°", arguments: [(70.0, true), (80.0, false)])
    func angleWindow(degrees: Double, begins: Bool) {
        // From the right edge the inward normal points to −x.
        let a = degrees * Double.pi / 180
        let h = run([recognizer("edge", edgePan([.right]))]) { f in
            let id = f.down(98, 30, at: 0)
            f.move(id, to: 98 - 5 * cosine(a), 30 - 5 * sine(a), at: 0.1)
            f.up(id, at: 0.2)
        }
        #expect((h.events("edge").first?.state == .began) == begins)
        if begins { #expect(h.events("edge")[0].edge == .right) }
    }

    @Test("the nearest configured edge is reported; no edges means never")
    func nearestEdge() {
        let h = run([recognizer("edge", edgePan([.left, .bottom]))]) { f in
            let a = f.down(4, 58, at: 0)
            f.move(a, to: 4, 48, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(h.events("edge").first?.edge == .bottom)
        let none = run([recognizer("edge", edgePan([]))]) { f in
            let a = f.down(1, 30, at: 0)
            f.move(a, to: 20, 30, at: 0.1)
            f.up(a, at: 0.2)
        }
        #expect(none.gestures.isEmpty)
    }

    @Test("an edge pan takes one finger only by default")
    func oneFinger() {
        let h = run([recognizer("edge", edgePan([.left]))]) { f in
            let a = f.down(2, 30, at: 0)
            let b = f.down(2, 40, at: 0.01)
            f.move(a, to: 12, 30, at: 0.1)
            f.up(a, at: 0.2)
            f.up(b, at: 0.2)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test("tickle needs three reversing strokes of minimumTravel", arguments: [(3.9, true), (3.8, false)])
    func tickleTravel(travel: Double, recognized: Bool) {
        let h = run([recognizer("tickle", .tickle(TickleParameters()))]) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 20 + travel, 30, at: 0.1)
            f.move(a, to: 20, 30, at: 0.2)
            f.move(a, to: 20 + travel, 30, at: 0.3)
            f.up(a, at: 0.4)
        }
        #expect(h.events("tickle").count == (recognized ? 1 : 0))
    }

    @Test("tickle counts a stroke only when it reverses; going on the same way does not count")
    func tickleSameDirection() {
        let h = run([recognizer("tickle", .tickle(TickleParameters()))]) { f in
            let a = f.down(20, 30, at: 0)
            f.move(a, to: 25, 30, at: 0.1)
            f.move(a, to: 30, 30, at: 0.2)
            f.move(a, to: 35, 30, at: 0.3)
            f.up(a, at: 0.4)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test("tickle uses its first touch only and fails when it lifts")
    func tickleFirstTouch() {
        let h = run([recognizer("tickle", .tickle(TickleParameters()))]) { f in
            let a = f.down(20, 30, at: 0)
            let b = f.down(60, 30, at: 0.01)
            f.move(b, to: 65, 30, at: 0.1)
            f.move(b, to: 60, 30, at: 0.2)
            f.move(b, to: 65, 30, at: 0.3)
            f.up(a, at: 0.35)
            f.move(b, to: 60, 30, at: 0.4)
            f.up(b, at: 0.5)
        }
        #expect(h.gestures.isEmpty)
    }

    @Test("TickleRecognizer works outside the engine through the public protocol")
    func tickleDirectly() {
        var r = TickleRecognizer(parameters: TickleParameters())
        var ctx = RecognizerContext.detached(now: .zero)
        let t = Touch(id: TouchID(1), phase: .began, position: PhysicalPoint(x: 0, y: 0), startTime: .zero)
        r.touchesBegan([t], context: &ctx)
        for (k, x) in [4.0, 0.0, 4.0].enumerated() {
            var m = t
            m.phase = .moved
            m.position = PhysicalPoint(x: x, y: 0)
            ctx.nextCallback(at: Timestamp(seconds: Double(k + 1) * 0.1))
            r.touchesMoved([m], context: &ctx)
        }
        #expect(r.count == 3)
        #expect(ctx.requestedStates == [.ended])
    }
}
