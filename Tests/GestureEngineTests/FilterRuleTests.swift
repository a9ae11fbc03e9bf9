import Testing

@testable import GestureEngine

/// What one scenario delivers: every (id, phase, flags) and every delivered x (mm).
private func outcome(_ run: FilterRun) -> [String] {
    run.phases + run.delivered.compactMap { $0 }.flatMap { $0 }.map { "x=\($0.position.x)" }
}

private typealias Scenario = @Sendable (TouchFilterSettings) -> [String]

/// One scenario per rule of the touch filter, made to need that rule: with the rule on it
/// comes out one way, with the rule switched off (``TouchFilterSettings/disabledRules``)
/// another. The stage tests (FilterTests) check what each rule does; this table checks that
/// none is dead weight and that no rule lacks a test.
private let scenarios: [FilterRule: Scenario] = [
    .toolPalm: { s in
        var filter = TouchFilter(device: pad, settings: s)
        let touch = Touch(id: TouchID(1), phase: .began, position: PhysicalPoint(x: 50, y: 30), startTime: .zero, toolType: .palm)
        return filter.process(Frame(timestamp: .zero, touches: [touch])).frame?.touches.map(\.phase.rawValue) ?? ["dropped"]
    },
    .pressurePalm: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 200)])
        return outcome(run)
    },
    .sizePalm: { s in
        var run = FilterRun(s)
        run.majors = [1: 30]
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        return outcome(run)
    },
    .landingPressure: { s in
        var s = s
        s.palmPressureAtBegin = 63
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 63)])
        return outcome(run)
    },
    .palmMemory: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 200)])
        run.frame(0.10, [(1, .ended, 50, 30, 200)])
        run.frame(0.30, [(2, .began, 60, 30, 20)])
        return outcome(run)
    },
    .wobble: { s in
        var s = s
        s.palmReversalCount = 2
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        for (i, y) in [30.0, 32.5, 30, 32.5, 30].enumerated() { run.frame(0.20 + Double(i) * 0.01, [(1, .moved, 50, y, 40)]) }
        return outcome(run)
    },
    .edgeBand: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 3, 30, 20)])
        run.frame(0.50, [(1, .moved, 3, 31, 20)])
        return outcome(run)
    },
    .edgePartner: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 97, 20, 20), (2, .began, 97, 40, 20)])
        run.frame(0.50, [(1, .moved, 96, 20, 20), (2, .moved, 96, 40, 20)])
        return outcome(run)
    },
    .edgeFingerMajor: { s in
        var run = FilterRun(s)
        run.majors = [1: 12]
        run.frame(0.00, [(1, .began, 3, 30, 20)])
        run.frame(0.50, [(1, .moved, 4, 30, 20)])
        run.frame(0.60, [(1, .moved, 20, 30, 20)])
        return outcome(run)
    },
    .handLanding: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 57, 30, 20)])
        run.frame(0.02, [(1, .stationary, 57, 30, 30), (2, .began, 96, 38, 10)])
        run.frame(0.10, [(1, .ended, 57, 30, 30), (2, .moved, 96, 39, 20)])
        run.frame(1.00, [])
        return outcome(run)
    },
    .thumbBand: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 40, 56, 20)])
        run.frame(0.50, [(1, .moved, 60, 57, 20)])
        return outcome(run)
    },
    .diagonalThumb: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 15, 48, 30)])
        run.frame(0.40, [(1, .stationary, 15, 48, 30), (2, .began, 80, 5, 30)])
        run.frame(0.50, [(1, .stationary, 15, 48, 30), (2, .stationary, 80, 5, 30), (3, .began, 55, 12, 30)])
        return outcome(run)
    },
    .unknownPressure: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 40)])
        run.frame(0.05, [(1, .ended, 50, 30, 40)])
        run.frame(1.00, [(2, .began, 30, 30, nil)])
        run.frame(1.10, [(2, .moved, 40, 30, nil)])
        return outcome(run)
    },
    .palmConfirm: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.05, [(1, .moved, 54, 30, 20)])
        return outcome(run)
    },
    .liftDebounce: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.20, [(1, .ended, 50, 30, 20)])
        run.frame(0.22, [(2, .began, 51, 30, 20)])
        run.frame(0.40, [(2, .moved, 55, 30, 20)])
        return outcome(run)
    },
    .flicker: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 30, 30, 20)])
        run.frame(0.03, [(1, .ended, 30, 30, 20)])
        run.frame(0.05, [(2, .began, 30, 30, 20)])
        run.frame(0.08, [(2, .ended, 30, 30, 20)])
        run.frame(0.10, [(3, .began, 30, 31, 20)])
        run.frame(0.12, [(3, .ended, 30, 31, 20)])
        run.frame(0.50, [])
        return outcome(run)
    },
    .palmReturn: { s in
        var s = s
        s.palmPressureAtBegin = 63
        s.palmReturnWait = 0.15
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.03, [(1, .moved, 50, 30, 63)])
        run.frame(0.08, [(1, .ended, 50, 30, 63)])
        run.frame(0.15, [(2, .began, 52, 31, 63)])
        run.frame(0.20, [(2, .ended, 52, 31, 63)])
        run.frame(1.00, [])
        return outcome(run)
    },
    .fakeFingers: { s in
        var run = FilterRun(s, device: twoSlotPad)
        run.frame(0.00, [(1, .began, 30, 20, 200)], count: 1)
        run.frame(0.20, [(1, .moved, 30, 20, 200), (2, .began, 60, 40, 30)], count: 3)
        return outcome(run)
    },
    .clickNoTap: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.03, [(1, .stationary, 50, 30, 20)], button: true)
        run.frame(0.08, [(1, .stationary, 50, 30, 20)], button: false)
        run.frame(0.10, [(1, .ended, 50, 30, 20)])
        run.frame(0.50, [])
        return outcome(run)
    },
    .clickingFinger: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 30, 40, 20), (2, .began, 60, 30, 20)])
        run.frame(0.05, [(1, .stationary, 30, 40, 20), (2, .stationary, 60, 30, 20)], button: true)
        run.frame(0.20, [(1, .stationary, 30, 40, 20), (2, .moved, 70, 30, 20)], button: true)
        return outcome(run)
    },
    .afterScroll: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 40, 20, 20), (2, .began, 60, 20, 20)])
        run.frame(0.10, [(1, .moved, 40, 25, 20), (2, .moved, 60, 25, 20)])
        run.frame(0.28, [(1, .moved, 40, 35, 20), (2, .moved, 60, 35, 20)])
        run.frame(0.30, [(1, .ended, 40, 35, 20), (2, .ended, 60, 35, 20)])
        run.frame(0.45, [(4, .began, 50, 30, 20)])
        run.frame(0.52, [(4, .ended, 50, 30, 20)])
        run.frame(1.00, [])
        return outcome(run)
    },
    .tooLight: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 4)])
        run.frame(0.05, [(1, .moved, 50, 30, 8)])
        run.frame(0.08, [(1, .ended, 50, 30, 8)])
        run.frame(0.50, [])
        return outcome(run)
    },
    .split: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 20, 34, 40)])
        run.frame(0.20, [(1, .moved, 30, 34, 130)])
        run.frame(0.30, [(1, .moved, 31, 34, 63), (2, .began, 31, 44, 60)])
        run.frame(0.33, [(1, .moved, 33, 34, 130), (2, .ended, 31, 44, 60)])
        run.frame(1.00, [])
        return outcome(run)
    },
    .hovering: { s in
        var run = FilterRun(s)
        run.frame(0.11, [(2, .began, 51, 30, 40)], count: 0)
        run.frame(0.15, [(2, .moved, 51.5, 30, 40)], count: 0)
        run.frame(0.19, [(2, .ended, 51.5, 30, 40)], count: 0)
        run.frame(0.50, [])
        return outcome(run)
    },
    .trackingLost: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 60, 30, 40)], count: 1)
        run.frame(0.50, [(1, .stationary, 60, 30, 40), (2, .began, 30, 30, 40)], count: 2)
        run.frame(0.53, [(1, .stationary, 60, 30, 40), (2, .stationary, 30, 30, 40)], count: 2)
        run.frame(0.56, [(1, .stationary, 60, 30, 40), (2, .ended, 30, 30, 40)], count: 3)
        run.frame(1.00, [])
        return outcome(run)
    },
    .glitch: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 40)])
        run.frame(0.016, [(1, .ended, 50, 30, 40)])
        run.frame(0.10, [])
        return outcome(run)
    },
    .heldTap: { s in
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 3, 30, 20)])
        run.frame(0.08, [(1, .ended, 3.5, 30, 20)])
        run.frame(0.20, [])
        return outcome(run)
    },
    .semiMTCountChange: { s in
        var s = s
        s.palmConfirmTime = 0
        var run = FilterRun(s, device: semiMTPad)
        run.frame(0.00, [(1, .began, 30, 30, 40)], count: 1)
        // The second finger lands: the box's first corner leaps 6 mm, no finger moved.
        run.frame(0.02, [(1, .moved, 24, 30, 40), (2, .began, 60, 40, 40)], count: 2)
        run.frame(0.04, [(1, .moved, 23, 30, 40), (2, .stationary, 60, 40, 40)], count: 2)
        return outcome(run)
    },
    .hysteresis: { s in
        var s = s
        s.palmConfirmTime = 0
        var run = FilterRun(s)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.02, [(1, .moved, 50.3, 30, 20)])
        run.frame(0.04, [(1, .moved, 49.8, 30, 20)])
        return outcome(run)
    },
]

@Suite("Every touch filter rule earns its place")
struct FilterRuleTests {
    @Test("every rule has a scenario")
    func everyRuleHasAScenario() {
        for rule in FilterRule.allCases { #expect(scenarios[rule] != nil, "no scenario for \(rule)") }
    }

    @Test("switched off alone, each rule changes its scenario", arguments: FilterRule.allCases)
    func ruleChangesItsScenario(rule: FilterRule) throws {
        let scenario = try #require(scenarios[rule])
        var off = TouchFilterSettings()
        off.disabledRules = 1 << rule.rawValue
        let on = scenario(TouchFilterSettings())
        let without = scenario(off)
        #expect(on != without, "\(rule) off changes nothing: \(on)")
    }
}
