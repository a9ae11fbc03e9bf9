import Testing

@testable import GestureEngine

@Suite("Fake finger stage")
struct FakeFingerStageTests {
    @Test("a pad counting more fingers than its slots gets fake ones following the topmost finger")
    func fakeFingers() throws {
        var run = FilterRun(device: twoSlotPad)
        // A palm (pressure 200) takes slot 0, one scrolling finger slot 1; the pad counts
        // three: the untracked second finger is a fake copy of the tracked one.
        run.frame(0.00, [(1, .began, 30, 20, 200)], count: 1)
        run.frame(0.20, [(1, .moved, 30, 20, 200), (2, .began, 60, 40, 30)], count: 3)
        run.frame(0.25, [(1, .moved, 30, 20, 200), (2, .moved, 60, 35, 30)], count: 3)
        run.frame(0.30, [(1, .moved, 30, 20, 200), (2, .moved, 60, 30, 30)], count: 2)
        // The fake's lift waits liftDelay, like a real finger's.
        run.frame(0.40, [(1, .moved, 30, 20, 200), (2, .moved, 60, 30, 30)], count: 2)
        let touches = run.delivered.compactMap { $0 }.flatMap { $0 }
        let fakes = touches.filter { $0.id.rawValue != 2 }
        #expect(touches.contains { $0.id.rawValue == 2 && $0.phase == .began })
        #expect(fakes.map(\.phase) == [.began, .moved, .ended])
        #expect(fakes.map(\.position) == [PhysicalPoint(x: 60, y: 40), PhysicalPoint(x: 60, y: 35), PhysicalPoint(x: 60, y: 35)])
        // Off: nothing but the tracked finger.
        var off = FilterRun(TouchFilterSettings.changing { $0.synthesizesUntrackedFingers = false }, device: twoSlotPad)
        off.frame(0.00, [(1, .began, 30, 20, 200)], count: 1)
        off.frame(0.20, [(1, .moved, 30, 20, 200), (2, .began, 60, 40, 30)], count: 3)
        #expect(off.phases == ["2 began"])
    }

    @Test("of two fingers at the same height the fake follows the older one, whatever the table's order")
    func fakeFingerTieBreak() {
        // Two slots, both fingers at y = 30, the pad counts three: the fake copies the finger
        // with the lower id. Several id pairs, so that a dictionary's order (fixed within one
        // process) cannot happen to agree with the ids for all of them.
        for (older, newer) in [(2, 3), (5, 9), (4, 17), (8, 6), (11, 30), (12, 7), (21, 22), (40, 13)] {
            let (a, b) = (UInt64(min(older, newer)), UInt64(max(older, newer)))
            var run = FilterRun(device: twoSlotPad)
            run.frame(0.00, [(a, .began, 34, 30, 40), (b, .began, 64, 30, 40)], count: 2)
            run.frame(0.05, [(a, .moved, 34, 30, 40), (b, .moved, 64, 30, 40)], count: 3)
            let fake = run.delivered.compactMap { $0 }.flatMap { $0 }.first { $0.id.rawValue >= FakeFingerStage.idBase }
            #expect(fake?.position == PhysicalPoint(x: 34, y: 30), "ids \(a), \(b)")
        }
    }

    @Test("a single-touch pad counting two fingers (BTN_TOOL_DOUBLETAP) gets the second as a fake")
    func singleTouchFakeFinger() {
        let singleTouch = DeviceDescription(
            name: "single-touch pad", properties: [.pointer], codes: [.btnToolFinger, .btnToolDoubleTap, .btnTouch],
            axes: [
                EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
                EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
                EventUsage.absPressure.code: AxisInfo(minimum: 0, maximum: 255),
            ])
        var run = FilterRun(device: singleTouch)
        run.frame(0.00, [(1, .began, 50, 30, 30)], count: 2)
        run.frame(0.05, [(1, .moved, 50, 25, 30)], count: 2)
        #expect(run.phases == ["1 began", "4611686018427387904 began", "1 moved", "4611686018427387904 moved"])
    }

    @Test("no fake finger while the slots are not all taken, nor without a finger to copy")
    func noFakeFingers() {
        var run = FilterRun(device: twoSlotPad)
        // Counted three, one slot reported (a transition frame): libinput fakes only beyond
        // the slots, and here the only contact is a palm.
        run.frame(0.00, [(1, .began, 30, 20, 200)], count: 3)
        run.frame(0.05, [(1, .moved, 30, 20, 200), (2, .began, 60, 40, 200)], count: 3)
        #expect(run.phases.isEmpty)
    }

    @Test("alone: a two-slot pad counting three fingers gets one fake at the topmost finger, counted in the table")
    func aloneFake() {
        var stage = FakeFingerStage(settings: TouchFilterSettings(), facts: FilterDeviceFacts(device: twoSlotPad, pressureIsPressure: true))
        var table = ContactTable()
        table[TouchID(1)] = StageBench.contact(at: 30, 40)
        table[TouchID(2)] = StageBench.contact(at: 60, 20)
        let input = Frame(
            timestamp: Timestamp(seconds: 0.1), touches: [StageBench.touch(1, .stationary, 30, 40), StageBench.touch(2, .stationary, 60, 20)],
            fingerCount: 3)
        var frame = FilterFrame(input: input, buttonBefore: false, table: table, out: [])
        stage.end(&frame)
        #expect(frame.table.fakeFingers == 1)
        #expect(frame.out.map(\.phase) == [.began])
        #expect(frame.out.first?.position == PhysicalPoint(x: 60, y: 20))
    }
}
