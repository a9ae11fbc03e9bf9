import Testing

@testable import GestureEngine

@Suite("Lift debounce stage")
struct LiftDebounceStageTests {
    @Test("a finger dropped for a frame continues: no lift, no new touch")
    func reappearingFinger() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.20, [(1, .ended, 50, 30, 20)])
        run.frame(0.22, [(2, .began, 51, 30, 20)])
        run.frame(0.40, [(2, .moved, 55, 30, 20)])
        #expect(run.phases == ["1 began", "1 moved", "1 moved"])
        #expect(run.filter.nextDeadline == nil)
    }

    @Test("a lift is delivered liftDelay later, through nextDeadline and flush")
    func delayedLift() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.20, [(1, .ended, 50, 30, 20)])
        #expect(run.phases == ["1 began"])
        let deadline = run.filter.nextDeadline
        #expect(deadline == Timestamp(seconds: 0.24))
        let lifted = run.filter.fire(upTo: Timestamp(seconds: 0.24))
        #expect(lifted?.timestamp == Timestamp(seconds: 0.24))
        #expect(lifted?.touches.map(\.phase) == [.ended])
        #expect(run.filter.nextDeadline == nil)
    }

    @Test("a contact that keeps vanishing and coming back is a palm, and so is one landing where it was")
    func flickeringPalm() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 30, 30, 20)])
        run.frame(0.03, [(1, .ended, 30, 30, 20)])
        run.frame(0.05, [(2, .began, 30, 30, 20)])
        run.frame(0.08, [(2, .ended, 30, 30, 20)])
        run.frame(0.10, [(3, .began, 30, 31, 20)])
        run.frame(0.12, [(3, .ended, 30, 31, 20)])
        run.frame(0.30, [(4, .began, 31, 30, 20)])
        run.frame(0.35, [(4, .ended, 31, 30, 20)])
        run.frame(0.50, [])
        #expect(run.phases == ["1 began", "1 stationary", "1 cancelled palm(.flicker)"])
    }

    @Test("a short pressing touch waits for a palm's return: a palm back makes it no tap, a light second tap ends it first")
    func palmReturn() {
        let settings = TouchFilterSettings.changing {
            $0.palmPressureAtBegin = 63
            $0.palmReturnWait = 0.15
        }
        func touchThen(_ second: Int32, settings: TouchFilterSettings) -> FilterRun {
            var run = FilterRun(settings)
            run.frame(0.00, [(1, .began, 50, 30, 20)])
            run.frame(0.03, [(1, .moved, 50, 30, 63)])
            run.frame(0.08, [(1, .ended, 50, 30, 63)])
            run.frame(0.15, [(2, .began, 52, 31, second)])
            run.frame(0.20, [(2, .ended, 52, 31, second)])
            run.frame(1.00, [])
            return run
        }
        // The palm lands at 63 again 70 ms after lifting, 2 mm away: the first touch is no tap.
        #expect(touchThen(63, settings: settings).phases == ["1 began", "1 stationary", "1 ended noTap(.palmReturned)"])
        // A finger's second tap lands light: the first tap ends before it begins.
        #expect(touchThen(30, settings: settings).phases == ["1 began", "1 stationary", "1 ended", "2 began", "2 ended"])
        // Without the wait the first lift is out after the 40 ms lift delay, a tap.
        var off = settings
        off.palmReturnWait = 0
        #expect(touchThen(63, settings: off).phases == ["1 began", "1 stationary", "1 ended"])
        // The wait never pushes a tap past the touchpad tap limit (0.25 s − 20 ms).
        var long = FilterRun(settings)
        long.frame(0.00, [(1, .began, 50, 30, 20)])
        long.frame(0.10, [(1, .moved, 50, 30, 63)])
        long.frame(0.15, [(1, .ended, 50, 30, 63)])
        #expect(long.filter.nextDeadline == Timestamp(seconds: 0.23))
    }

    // The stage alone, on a table set up by hand.

    @Test("alone: a finger's end is held for the lift delay, said as the next deadline, and fired when due")
    func aloneHoldAndFire() {
        var settings = TouchFilterSettings()
        settings.liftDelay = 0.04
        let stage = LiftDebounceStage(settings: settings, facts: FilterDeviceFacts(device: pad, pressureIsPressure: true))
        var frame = StageBench.frame(1)
        var end = StageBench.step(StageBench.touch(1, .ended, 50, 30), StageBench.contact(at: 50, 30, since: 0.5))
        stage.process(&end, in: &frame)
        #expect(end.holdUntil == Timestamp(seconds: 1.04))
        var table = ContactTable()
        table.lifted[TouchID(1)] = HeldLift(
            touches: [StageBench.touch(1, .ended, 50, 30)], position: PhysicalPoint(x: 50, y: 30), startPosition: .zero,
            startTime: .zero, time: Timestamp(seconds: 1), contact: end.contact, deadline: Timestamp(seconds: 1.04))
        #expect(stage.nextDeadline(table) == Timestamp(seconds: 1.04))
        var early = StageBench.frame(1.03, table: table)
        stage.fire(&early)
        #expect(early.ahead == nil)
        var due = StageBench.frame(1.05, table: table)
        stage.fire(&due)
        #expect(due.ahead?.timestamp == Timestamp(seconds: 1.04))
        #expect(due.ahead?.touches.map(\.phase) == [.ended])
        #expect(due.table.lifted.isEmpty)
    }

    @Test("alone: a contact landing where a finger just lifted continues it under the lifted id")
    func aloneResume() {
        let stage = LiftDebounceStage(settings: TouchFilterSettings(), facts: FilterDeviceFacts(device: pad, pressureIsPressure: true))
        var table = ContactTable()
        table.lifted[TouchID(1)] = HeldLift(
            touches: [StageBench.touch(1, .ended, 50, 30)], position: PhysicalPoint(x: 50, y: 30), startPosition: .zero,
            startTime: .zero, time: Timestamp(seconds: 1), contact: StageBench.contact(at: 50, 30), deadline: Timestamp(seconds: 1.04))
        var frame = StageBench.frame(1.01, table: table)
        var landing = StageBench.step(StageBench.touch(2, .began, 51, 30), StageBench.contact(at: 51, 30))
        stage.process(&landing, in: &frame)
        #expect(landing.resumed)
        #expect(landing.touch.id == TouchID(1))
        #expect(landing.state == .delivering)
        #expect(frame.table.aliases[TouchID(2)] == TouchID(1))
        #expect(frame.table.lifted.isEmpty)
    }
}
