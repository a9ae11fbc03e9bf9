import Testing

@testable import GestureEngine

@Suite("Touch filter: the chain")
struct TouchFilterTests {
    @Test("each decision is kept with its reason: a palm landing, a contact held in the edge band and its end as a palm, a no-tap lift")
    func decisionsCarryReasons() {
        var run = FilterRun()
        run.filter.recordsDecisions = true
        run.frame(0.00, [(1, .began, 50, 30, 200), (2, .began, 2, 30, 20)])
        run.frame(0.30, [(1, .moved, 50, 30, 200), (2, .moved, 2.5, 30, 20)])
        run.frame(0.40, [(1, .ended, 50, 30, 200), (2, .moved, 30, 30, 20)])
        run.frame(0.50, [(2, .ended, 30, 30, 20)])
        run.frame(1.20, [(3, .began, 60, 30, 5)])
        run.frame(1.25, [(3, .moved, 60, 30, 5)])
        run.frame(1.30, [(3, .ended, 60, 30, 5)])
        run.frame(1.60, [])
        let lines = run.filter.drainDecisions().map(\.description)
        #expect(
            lines == [
                "touch #1 began palm(.pressure) not delivered", "touch #2 began held(.edgeBand)",
                "touch #2 moved palm(.edge) not delivered", "touch #3 ended noTap(.tooLight)",
            ])
        #expect(run.filter.drainDecisions().isEmpty)
        var quiet = FilterRun()
        quiet.frame(0.00, [(1, .began, 50, 30, 200)])
        #expect(quiet.filter.drainDecisions().isEmpty)
    }

    @Test("disabled settings pass frames through untouched")
    func disabled() {
        var filter = TouchFilter(device: pad, settings: .disabled)
        let frame = Frame(
            timestamp: Timestamp(seconds: 1),
            touches: [Touch(id: TouchID(1), phase: .began, position: PhysicalPoint(x: 1, y: 1), startTime: Timestamp(seconds: 1), pressure: 255)])
        #expect(filter.process(frame).frame == frame)
    }

    @Test("a described pad without a resolution gets the bands at libinput's 69 × 50 mm; side bands only from 70 mm wide, at most 8 mm")
    func bandsWithoutResolution() {
        var described = pad
        for code in [EventUsage.absMTPositionX.code, EventUsage.absMTPositionY.code] { described.axes[code]?.resolution = 0 }
        // 69 mm wide: no side band; 50 mm high: the thumb band is the bottom 7.5 mm.
        var run = FilterRun(device: described)
        run.frame(0.00, [(1, .began, 2, 25, 20), (2, .began, 35, 47, 20)])
        run.frame(0.50, [(1, .moved, 2, 26, 20), (2, .moved, 40, 47, 20)])
        #expect(run.phases == ["1 began", "1 moved"])
        // A 120 mm pad: the side band is 8 mm, not 8 % (9.6 mm).
        var wide = pad
        wide.axes[EventUsage.absMTPositionX.code] = AxisInfo(minimum: 0, maximum: 1200, resolution: 10)
        var edge = FilterRun(device: wide)
        edge.frame(0.00, [(1, .began, 9, 5, 20), (2, .began, 7, 45, 20)])
        edge.frame(0.50, [(1, .moved, 9, 6, 20), (2, .moved, 7, 44, 20)])
        #expect(edge.phases == ["1 began", "1 moved"])
    }
}
