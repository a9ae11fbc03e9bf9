import Testing

@testable import GestureEngine

@Suite("Palm wobble stage")
struct PalmWobbleStageTests {
    @Test("with the wobble rule on, a lone contact jumping back and forth frame to frame is a palm; a finger turning smoothly is not")
    func wobblingPalm() {
        // The rule is off by default (sixth pass); with two turns, as it shipped until then:
        let two = TouchFilterSettings.changing { $0.palmReversalCount = 2 }
        // A palm's centre jumping 2.5 mm back and forth: cancelled at the second turn back.
        var run = FilterRun(two)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.20, [(1, .moved, 50, 30, 40)])
        run.frame(0.21, [(1, .moved, 50, 32.5, 40)])
        run.frame(0.22, [(1, .moved, 50, 30, 40)])
        run.frame(0.23, [(1, .moved, 50, 32.5, 40)])
        run.frame(0.24, [(1, .moved, 50, 30, 40)])
        run.frame(0.25, [(1, .ended, 50, 30, 40)])
        run.frame(0.50, [])
        #expect(run.phases.last == "1 cancelled palm(.wobble)")
        #expect(!run.phases.contains("1 ended"))
        // A finger going right and back left slows down before it turns: it stays a finger.
        var finger = FilterRun(two)
        finger.frame(0.00, [(1, .began, 40, 30, 20)])
        for (i, x) in [40.0, 42, 44, 46, 46.5, 46.8, 46.5, 45, 43, 41, 40.5, 40.8, 41, 43, 45].enumerated() {
            finger.frame(0.20 + Double(i) * 0.01, [(1, .moved, x, 30, 40)])
        }
        finger.frame(0.40, [(1, .ended, 45, 30, 40)])
        finger.frame(0.50, [])
        #expect(finger.phases.last == "1 ended")
        #expect(!finger.phases.contains { $0.hasPrefix("1 cancelled") })
        // Beside another finger the rule is off (two close fingers landing make the sensor
        // jump between them), and with palmReversalCount 0 (the default) it is off everywhere.
        var off = FilterRun()
        off.frame(0.00, [(1, .began, 50, 30, 20)])
        for (i, y) in [30.0, 32.5, 30, 32.5, 30].enumerated() { off.frame(0.20 + Double(i) * 0.01, [(1, .moved, 50, y, 40)]) }
        off.frame(0.25, [(1, .ended, 50, 30, 40)])
        off.frame(0.50, [])
        #expect(off.phases.last == "1 ended")
        var pair = FilterRun(two)
        pair.frame(0.00, [(1, .began, 50, 30, 20), (2, .began, 70, 30, 20)])
        for (i, y) in [30.0, 32.5, 30, 32.5, 30].enumerated() {
            pair.frame(0.20 + Double(i) * 0.01, [(1, .moved, 50, y, 40), (2, .stationary, 70, 30, 40)])
        }
        pair.frame(0.25, [(1, .ended, 50, 30, 40), (2, .ended, 70, 30, 40)])
        pair.frame(0.50, [])
        #expect(!pair.phases.contains { $0.hasPrefix("1 cancelled") })
    }

    @Test("alone: a lone contact whose steps turn back palmReversalCount times is a palm; a finger is withdrawn")
    func alone() {
        var settings = TouchFilterSettings()
        settings.palmReversalCount = 2
        let stage = PalmWobbleStage(settings: settings)
        var contact = StageBench.contact(at: 50, 30)
        var out: [Touch] = []
        for (k, x) in [53.0, 50.0, 53.0].enumerated() {
            var frame = StageBench.frame(0.02 * Double(k + 1))
            var touch = StageBench.touch(1, .moved, x, 30)
            touch.previousPosition = PhysicalPoint(x: k % 2 == 0 ? 50 : 53, y: 30)
            var step = StageBench.step(touch, contact)
            step.alone = true
            stage.process(&step, in: &frame)
            contact = step.contact
            out += frame.out
        }
        #expect(contact.palmReason == .wobble)
        #expect(out.map(\.phase) == [.cancelled])
    }
}
