import Testing

@testable import GestureEngine

@Suite("Landing hold stage: palm confirmation, unknown pressure")
struct LandingHoldStageTests {
    @Test("with dropsConfirmedMotion a contact confirmed moves on from where it landed, alone or joined by a second finger")
    func confirmedMotionDropped() {
        let settings = TouchFilterSettings.changing { $0.dropsConfirmedMotion = true }
        var run = FilterRun(settings)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.10, [(1, .moved, 55, 30, 20)])
        run.frame(0.20, [(1, .moved, 56, 30, 20)])
        run.frame(0.25, [(1, .moved, 60, 30, 20)])
        let positions = run.delivered.compactMap { $0 }.flatMap { $0 }.map(\.position.x)
        // Held at 50 until 0.15 s; the 6 mm moved by then are dropped, the 4 mm after come.
        #expect(positions == [50, 50, 50, 54])
        // A second finger landing ends the confirmation early: the first drops what it moved
        // while held back too, and moves on with the second.
        var pair = FilterRun(settings)
        pair.frame(0.00, [(1, .began, 50, 30, 20)])
        pair.frame(0.10, [(1, .moved, 55, 30, 20), (2, .began, 30, 30, 20)])
        pair.frame(0.12, [(1, .moved, 56, 30, 20), (2, .moved, 31, 30, 20)])
        pair.frame(0.14, [(1, .moved, 60, 30, 20), (2, .moved, 35, 30, 20)])
        let first = pair.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id == TouchID(1) }.map(\.position.x)
        #expect(first == [50, 50, 50, 54])
        // Without the setting the held motion comes through at once.
        var keep = FilterRun()
        keep.frame(0.00, [(1, .began, 50, 30, 20)])
        keep.frame(0.10, [(1, .moved, 55, 30, 20), (2, .began, 30, 30, 20)])
        keep.frame(0.12, [(1, .moved, 56, 30, 20), (2, .moved, 31, 30, 20)])
        let kept = keep.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id == TouchID(1) }.map(\.position.x)
        #expect(kept.last == 56)
    }

    @Test("a new contact's motion waits palmConfirmTime (pressure range known): a palm moves nothing")
    func palmConfirmation() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.05, [(1, .moved, 54, 30, 90)])
        run.frame(0.10, [(1, .moved, 58, 30, 250)])
        let positions = run.delivered.compactMap { $0 }.flatMap { $0 }.map(\.position.x)
        #expect(positions == [50, 50, 50])
        #expect(run.phases == ["1 began", "1 stationary", "1 cancelled palm(.pressure)"])
    }

    @Test("a contact whose slot sent no pressure yet is held back until it does, then judged by it")
    func unknownPressureHeldBack() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 40)])
        run.frame(0.05, [(1, .ended, 50, 30, 40)])
        // A palm in a fresh slot sliding 20 mm with no pressure, then pressing as a palm.
        run.frame(1.00, [(2, .began, 30, 30, nil)])
        for (i, x) in [35.0, 40, 45, 50].enumerated() { run.frame(1.1 + Double(i) * 0.1, [(2, .moved, x, 30, nil)]) }
        run.frame(1.50, [(2, .moved, 50, 32, 200)])
        run.frame(1.60, [(2, .ended, 50, 32, 200)])
        // A finger in a fresh slot: delivered from where it sent its first pressure.
        run.frame(3.00, [(3, .began, 30, 30, nil)])
        run.frame(3.02, [(3, .moved, 31, 30, 30)])
        run.frame(3.30, [(3, .moved, 41, 30, 40)])
        run.frame(3.40, [(3, .ended, 41, 30, 40)])
        run.frame(4.00, [])
        #expect(!run.phases.contains { $0.hasPrefix("2 ") })
        let three = run.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id.rawValue == 3 }
        #expect(three.first?.phase == .began)
        #expect(three.first?.position == PhysicalPoint(x: 31, y: 30))
        #expect(three.last?.phase == .ended)
        // Its first known pressure is judged as a landing one: where a contact landing at
        // 63/255 is a palm (the Cypress quirk), one whose first pressure is 70 is never delivered.
        var landing = FilterRun(TouchFilterSettings.changing { $0.palmPressureAtBegin = 63 })
        landing.frame(0.00, [(1, .began, 50, 30, 40)])
        landing.frame(0.05, [(1, .ended, 50, 30, 40)])
        landing.frame(1.00, [(2, .began, 30, 30, nil)])
        landing.frame(1.05, [(2, .moved, 31, 30, 70)])
        landing.frame(1.30, [(2, .moved, 41, 30, 70)])
        landing.frame(1.40, [(2, .ended, 41, 30, 70)])
        landing.frame(2.00, [])
        #expect(!landing.phases.contains { $0.hasPrefix("2 ") })
        // Off: the palm's slide is delivered as a finger's.
        var off = FilterRun(TouchFilterSettings.changing { $0.holdsUnknownPressure = false })
        off.frame(0.00, [(1, .began, 50, 30, 40)])
        off.frame(0.05, [(1, .ended, 50, 30, 40)])
        off.frame(1.00, [(2, .began, 30, 30, nil)])
        off.frame(1.20, [(2, .moved, 40, 30, nil)])
        off.frame(1.40, [(2, .ended, 40, 30, nil)])
        off.frame(2.00, [])
        #expect(off.phases.contains("2 began"))
    }

    @Test("a contact lost and found again during its palm confirmation moves nothing either")
    func confirmationSurvivesReturn() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.03, [(1, .ended, 50, 30, 40)])
        run.frame(0.06, [(2, .began, 50.5, 35, 40)])
        run.frame(0.09, [(2, .moved, 50.5, 35.2, 40)])
        let positions = run.delivered.compactMap { $0 }.flatMap { $0 }.map(\.position)
        #expect(run.phases == ["1 began", "1 stationary", "1 stationary"])
        #expect(positions.allSatisfy { $0 == PhysicalPoint(x: 50, y: 30) })
    }
}
