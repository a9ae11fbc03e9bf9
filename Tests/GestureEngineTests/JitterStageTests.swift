import Testing

@testable import GestureEngine

@Suite("Jitter stage: filtered positions and what is delivered")
struct JitterStageTests {
    @Test("position hysteresis holds a wobbling contact still, passes a moving one through, rests again")
    func hysteresis() {
        var h = PositionHysteresis(radius: 0.5, position: PhysicalPoint(x: 10, y: 10))
        #expect(h.update(PhysicalPoint(x: 10.3, y: 10.2)) == PhysicalPoint(x: 10, y: 10))
        #expect(h.update(PhysicalPoint(x: 9.8, y: 9.7)) == PhysicalPoint(x: 10, y: 10))
        #expect(h.update(PhysicalPoint(x: 12, y: 10)) == PhysicalPoint(x: 12, y: 10))
        #expect(h.isMoving)
        #expect(h.update(PhysicalPoint(x: 12.2, y: 10)) == PhysicalPoint(x: 12.2, y: 10))
        #expect(h.update(PhysicalPoint(x: 12.21, y: 10)) == PhysicalPoint(x: 12.21, y: 10))
        #expect(!h.isMoving)
        #expect(h.update(PhysicalPoint(x: 12.5, y: 10)) == PhysicalPoint(x: 12.21, y: 10))
    }

    @Test("on the Cypress pads a resting palm's jumps and wobble move nothing delivered")
    func cypressPalmWobble() {
        let cypress = cypressPad
        // y jumps 2.4 mm between still frames, x wobbles 0.8 mm: the first pad's delivered
        // position stays within a millimetre; the same path on the test pad moves it.
        let ys: [Double] = [46.5, 46.5, 48.9, 48.9, 46.5, 46.5, 48.9, 46.5, 48.9, 46.5]
        let xs: [Double] = [89.0, 89.0, 89.8, 89.0, 89.8, 89.0, 89.8, 89.0, 89.8, 89.0]
        func travel(_ device: DeviceDescription) -> Double {
            var settings = TouchFilterSettings.changing {
                $0.palmConfirmTime = 0
                $0.palmReversalCount = 0
            }
            if device == cypress { settings = settings.applying(cypressQuirks) }
            var run = FilterRun(settings, device: device)
            run.frame(0.0, [(1, .began, 89, 46.5, 40)])
            for k in ys.indices { run.frame(0.02 * Double(k + 1), [(1, .moved, xs[k], ys[k], 40)]) }
            let delivered = run.delivered.compactMap { $0 }.flatMap { $0 }
            return zip(delivered, delivered.dropFirst()).reduce(0) { $0 + distance($1.0.position, $1.1.position) }
        }
        #expect(travel(cypress) < 1)
        #expect(travel(pad) > 10)
    }

    @Test("a quick touch in a band while a palm is on the pad is no tap")
    func noBandTapBesidePalm() {
        var run = FilterRun()
        // A palm (palm pressure) rests in the middle; a light touch brushes the left band.
        run.frame(0.00, [(1, .began, 50, 30, 200)])
        run.frame(0.50, [(1, .stationary, 50, 30, 200), (2, .began, 3, 30, 20)])
        run.frame(0.56, [(1, .stationary, 50, 30, 200), (2, .ended, 3, 30, 20)])
        run.frame(0.70, [(1, .stationary, 50, 30, 200)])
        #expect(run.phases.isEmpty)
    }

    @Test("a quick still touch in a band is delivered after all, as a tap there")
    func tapInBand() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 3, 30, 20)])
        run.frame(0.08, [(1, .ended, 3.5, 30, 20)])
        // Delivered when its lift comes due (liftDelay), in case it comes back.
        #expect(run.phases.isEmpty)
        run.frame(0.20, [])
        #expect(run.phases == ["1 began", "1 ended"])
        let touches = run.delivered.compactMap { $0 }.flatMap { $0 }
        #expect(touches.first?.startTime == Timestamp(seconds: 0))
    }

    // The stage alone, on steps set up by hand.

    @Test("alone: a landing finger is delivered as it came; a released candidate begins where it is; a palm delivers nothing")
    func aloneDelivery() {
        let stage = JitterStage(settings: TouchFilterSettings())
        var frame = StageBench.frame(0.3)
        var landing = StageBench.step(StageBench.touch(1, .began, 50, 30), StageBench.contact(at: 50, 30))
        stage.process(&landing, in: &frame)
        var released = StageBench.step(StageBench.touch(2, .moved, 20, 30), StageBench.contact(.edgeCandidate, at: 5, 30))
        released.state = .releasing
        stage.process(&released, in: &frame)
        var palm = StageBench.step(StageBench.touch(3, .moved, 80, 30), StageBench.contact(.palm, at: 80, 30))
        stage.process(&palm, in: &frame)
        #expect(frame.out.map(\.phase) == [.began, .began])
        #expect(frame.out.last?.startTime == Timestamp(seconds: 0.3))
        #expect(frame.out.last?.startPosition == PhysicalPoint(x: 20, y: 30))
        #expect(released.contact.role == .finger)
    }

    @Test("alone: a finger's end is its last delivery, marked no tap when it clicked; a cancel goes out at once")
    func aloneEnd() {
        let stage = JitterStage(settings: TouchFilterSettings())
        var frame = StageBench.frame(0.1)
        var clicked = StageBench.contact(at: 50, 30)
        clicked.clicked = true
        var end = StageBench.step(StageBench.touch(1, .ended, 50, 30), clicked)
        stage.process(&end, in: &frame)
        #expect(end.state == .lifting)
        #expect(end.lifting.first?.flags.noTap == .click)
        var cancel = StageBench.step(StageBench.touch(2, .cancelled, 60, 30), StageBench.contact(at: 55, 30))
        stage.process(&cancel, in: &frame)
        #expect(frame.out.map(\.position) == [PhysicalPoint(x: 55, y: 30)])
    }
}
