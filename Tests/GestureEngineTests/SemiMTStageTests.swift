import Testing

@testable import GestureEngine

@Suite("Semi-MT stage: the box's leap")
struct SemiMTStageTests {
    @Test("semi-MT: the box's leap when the finger count changes is no motion; motion after it is")
    func semiMTCountChange() {
        var settings = TouchFilterSettings()
        settings.palmConfirmTime = 0
        var run = FilterRun(settings, device: semiMTPad)
        run.frame(0.00, [(1, .began, 30, 30, 40)], count: 1)
        run.frame(0.02, [(1, .moved, 24, 30, 40), (2, .began, 60, 40, 40)], count: 2)
        run.frame(0.04, [(1, .moved, 22, 30, 40), (2, .moved, 60, 40, 40)], count: 2)
        // The second finger lifts: the corner leaps back; then both lift.
        run.frame(0.06, [(1, .moved, 29, 31, 40), (2, .ended, 60, 40, 40)], count: 1)
        run.frame(0.08, [(1, .ended, 29, 31, 40)], count: 0)
        run.frame(0.30, [], count: 0)
        let first = run.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id == TouchID(1) }.map(\.position.x)
        #expect(first == [30, 30, 28, 28, 28], "\(first)")
        // Not semi-MT: the same steps are motion.
        var plain = FilterRun(settings, device: twoSlotPad)
        plain.frame(0.00, [(1, .began, 30, 30, 40)], count: 1)
        plain.frame(0.02, [(1, .moved, 24, 30, 40), (2, .began, 60, 40, 40)], count: 2)
        let moved = plain.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id == TouchID(1) }.map(\.position.x)
        #expect(moved == [30, 24], "\(moved)")
    }

    @Test("alone: in a frame changing the finger count a contact's step is taken out; in the next it is not")
    func alone() {
        var stage = SemiMTStage()
        var first = StageBench.frame(0, [StageBench.touch(1, .stationary, 50, 30)])
        stage.begin(&first)
        #expect(!first.countChanged)
        var second = StageBench.frame(0.01, [StageBench.touch(1, .moved, 53, 30), StageBench.touch(2, .began, 20, 30)])
        stage.begin(&second)
        #expect(second.countChanged)
        var contact = StageBench.contact(at: 50, 30)
        _ = contact.jump.update(PhysicalPoint(x: 53, y: 30))
        var step = StageBench.step(StageBench.touch(1, .moved, 53, 30), contact)
        step.unjumpedPrevious = PhysicalPoint(x: 50, y: 30)
        stage.process(&step, in: &second)
        #expect(step.contact.jump.position(for: PhysicalPoint(x: 53, y: 30)) == PhysicalPoint(x: 50, y: 30))
        var third = StageBench.frame(0.02, [StageBench.touch(1, .moved, 54, 30), StageBench.touch(2, .moved, 20, 30)])
        stage.begin(&third)
        #expect(!third.countChanged)
    }
}
