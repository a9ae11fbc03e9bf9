import Testing

@testable import GestureEngine

@Suite("Edge band stage")
struct EdgeBandStageTests {
    @Test("an edge-band contact is held back: leaving the band in time makes a finger, staying makes a palm")
    func edgeBand() {
        var run = FilterRun()
        // Bands: 8 % of 100 mm = 8 mm on each side.
        run.frame(0.00, [(1, .began, 3, 30, 20), (2, .began, 97, 10, 20)])
        run.frame(0.10, [(1, .moved, 12, 30, 20), (2, .moved, 96, 10, 20)])
        run.frame(0.35, [(1, .moved, 20, 30, 20), (2, .moved, 80, 10, 20)])
        run.frame(0.50, [(1, .ended, 20, 30, 20), (2, .ended, 80, 10, 20)])
        run.frame(0.60, [])
        #expect(run.phases == ["1 began", "1 moved", "1 ended"])
    }

    @Test("on a pad measuring contact size, a finger-sized contact resting in the edge band is a finger when it leaves")
    func edgeFingerBySize() {
        var run = FilterRun()
        run.majors = [1: 12, 2: 20]
        // Both rest 0.5 s in the bands, then move toward the middle: 1 measures 12 mm (a
        // fingertip), 2 measures 20 mm (a palm edge, below the 25 mm palm size).
        run.frame(0.00, [(1, .began, 3, 30, 20), (2, .began, 97, 30, 20)])
        run.frame(0.50, [(1, .moved, 4, 30, 20), (2, .moved, 96, 30, 20)])
        run.frame(0.60, [(1, .moved, 20, 30, 20), (2, .moved, 80, 30, 20)])
        #expect(run.phases == ["1 began"])
        // Without a size (a pad that reports none), the release time alone decides.
        var unsized = FilterRun()
        unsized.frame(0.00, [(1, .began, 3, 30, 20)])
        unsized.frame(0.50, [(1, .moved, 4, 30, 20)])
        unsized.frame(0.60, [(1, .moved, 20, 30, 20)])
        #expect(unsized.phases.isEmpty)
    }

    @Test("two contacts landing together in one edge band are two fingers (a scroll from the edge)")
    func edgePair() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 97, 20, 20), (2, .began, 97, 40, 20)])
        run.frame(0.50, [(1, .moved, 96, 20, 20), (2, .moved, 96, 40, 20)])
        #expect(run.phases == ["1 began", "2 began"])
    }

    @Test("a contact landing in the top band is held back: along the edge it stays a palm, down out of it in time it is a finger")
    func topEdgeBand() {
        // Top band: 5 % of 60 mm = 3 mm (the pad is taller than 55 mm).
        var run = FilterRun()
        // 1 slides along the top edge (a ghost beside a palm on a Cypress pad); 2 lands in
        // the band and comes down into the pad within 0.2 s.
        run.frame(0.00, [(1, .began, 20, 1, 20)])
        run.frame(0.10, [(1, .moved, 40, 1.5, 20)])
        run.frame(0.30, [(1, .moved, 60, 1, 20)])
        run.frame(0.40, [(1, .ended, 60, 1, 20)])
        run.frame(1.50, [(2, .began, 50, 1, 20)])
        run.frame(1.60, [(2, .moved, 50, 10, 20)])
        run.frame(1.70, [(2, .ended, 50, 20, 20)])
        run.frame(1.80, [])
        #expect(run.phases == ["2 began", "2 ended"])
        // A band 0 long (off), or a pad 55 mm high or less, holds nothing back there.
        var off = FilterRun(TouchFilterSettings.changing { $0.topEdgeBandFraction = 0 })
        off.frame(0.00, [(1, .began, 20, 1, 20)])
        off.frame(0.40, [(1, .moved, 60, 1, 20)])
        #expect(off.phases == ["1 began", "1 moved"])
        var low = FilterRun(TouchFilterSettings.changing { $0.topEdgeMinimumHeight = 60 })
        low.frame(0.00, [(1, .began, 20, 1, 20)])
        #expect(low.phases == ["1 began"])
    }

    @Test("a finger landing in the top band beside another finger landing is a finger (a scroll down from the edge)")
    func topEdgePair() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 0.5, 20)])
        run.frame(0.02, [(1, .stationary, 50, 0.5, 20), (2, .began, 50, 20, 20)])
        run.frame(0.30, [(1, .moved, 50, 2, 20), (2, .moved, 50, 22, 20)])
        #expect(run.phases.prefix(2) == ["2 began", "1 began"])
        // Far apart (a ghost at the top edge beside a palm) they are not a pair.
        var far = FilterRun()
        far.frame(0.00, [(1, .began, 80, 40, 20)])
        far.frame(0.04, [(1, .stationary, 80, 40, 20), (2, .began, 30, 0.5, 20)])
        far.frame(0.30, [(1, .stationary, 80, 40, 20), (2, .moved, 35, 1, 20)])
        #expect(!far.phases.contains("2 began"))
    }

    @Test("a contact in a side band landing with a finger just outside it is a finger; a lone one stays held")
    func edgePartnerOutsideBand() {
        var run = FilterRun()
        // 1 in the right band (x > 92 mm), 2 lands 0.4 mm outside it 30 ms later, 25 mm below.
        run.frame(0.00, [(1, .began, 95, 20, 20)])
        run.frame(0.03, [(1, .stationary, 95, 20, 20), (2, .began, 91.6, 45, 20)])
        run.frame(0.30, [(1, .moved, 94, 20, 20), (2, .moved, 90.6, 45, 20)])
        #expect(run.phases.contains("1 began"))
        var lone = FilterRun()
        lone.frame(0.00, [(1, .began, 95, 20, 20)])
        lone.frame(0.30, [(1, .moved, 94, 20, 20)])
        #expect(!lone.phases.contains("1 began"))
    }

    @Test("a contact held in the edge band past the release time is remembered as a palm when it lifts")
    func edgePalmMemory() {
        func restThenTouch(restFor rest: Double) -> [String] {
            var run = FilterRun()
            run.frame(0.00, [(1, .began, 3, 30, 40)])
            run.frame(rest, [(1, .ended, 3, 30, 40)])
            run.frame(rest + 0.06, [(2, .began, 4, 31, 40)])
            run.frame(rest + 0.09, [(2, .ended, 4, 31, 40)])
            run.frame(rest + 1, [])
            return run.phases
        }
        // A palm resting 0.5 s at the edge, re-reported as a 30 ms contact as it lifts: no tap.
        #expect(restThenTouch(restFor: 0.5) == [])
        // A quick tap in the band is no palm: a second tap beside it still counts.
        #expect(restThenTouch(restFor: 0.08) == ["1 began", "1 ended", "2 began", "2 ended"])
    }

    // The stage alone, on steps set up by hand (the 100 mm wide pad: side bands up to 8 mm).

    @Test("alone: a landing in the side band is held; leaving toward the middle in time it turns finger, too late a palm")
    func aloneBand() {
        let settings = TouchFilterSettings()
        let stage = EdgeBandStage(settings: settings, bands: FilterBands(settings: settings, width: 100, height: 60))
        var frame = StageBench.frame(0)
        var landing = StageBench.step(StageBench.touch(1, .began, 2, 30), StageBench.contact(at: 2, 30))
        stage.process(&landing, in: &frame)
        #expect(landing.contact.role == .edgeCandidate)
        var early = StageBench.frame(0.05)
        var out = StageBench.step(StageBench.touch(1, .moved, 20, 30), landing.contact)
        stage.process(&out, in: &early)
        #expect(out.state == .releasing)
        var late = StageBench.frame(5)
        var wandered = StageBench.step(StageBench.touch(1, .moved, 20, 30), landing.contact)
        stage.process(&wandered, in: &late)
        #expect(wandered.contact.palmReason == .edge)
    }
}
