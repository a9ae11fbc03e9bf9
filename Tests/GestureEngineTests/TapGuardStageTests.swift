import Testing

@testable import GestureEngine

@Suite("Tap guard stage: short contacts that are no taps")
struct TapGuardStageTests {
    @Test("a hand landing — a quick touch in the middle with a contact landing in the edge band 40 mm away — is no tap")
    func handLandingIsNoTap() {
        // 2 lands 20 ms after 1, in the right band, 40 mm away (beyond the 35 mm of a pair):
        // held back; 1 lifts after 100 ms while 2 is still held: cancelled, not a tap.
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 57, 30, 20)])
        run.frame(0.02, [(1, .stationary, 57, 30, 30), (2, .began, 96, 38, 10)])
        run.frame(0.10, [(1, .ended, 57, 30, 30), (2, .moved, 96, 39, 20)])
        run.frame(0.30, [(2, .moved, 96, 40, 20)])
        run.frame(0.40, [(2, .ended, 96, 40, 20)])
        run.frame(1.00, [])
        #expect(run.phases.last == "1 ended noTap(.handLanding)")
        #expect(!run.phases.contains("2 began"))
        // The same tap with the edge contact landing 0.3 s later (a resting palm is no part of
        // the tap's landing): the tap ends.
        var later = FilterRun()
        later.frame(0.00, [(2, .began, 96, 38, 10)])
        later.frame(0.30, [(1, .began, 57, 30, 20), (2, .moved, 96, 39, 20)])
        later.frame(0.40, [(1, .ended, 57, 30, 30), (2, .moved, 96, 40, 20)])
        later.frame(1.00, [])
        #expect(later.phases.last == "1 ended")
        // 30 mm apart they are a pair: both fingers.
        var pair = FilterRun()
        pair.frame(0.00, [(1, .began, 66, 30, 20)])
        pair.frame(0.02, [(1, .stationary, 66, 30, 30), (2, .began, 96, 30, 10)])
        pair.frame(0.10, [(1, .stationary, 66, 30, 30), (2, .stationary, 96, 30, 20)])
        #expect(pair.phases.contains("2 began"))
    }

    @Test("a contact seen once and down less than 25 ms alone is no tap; beside another finger, longer, or seen again, it taps")
    func briefLoneContact() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 40)])
        run.frame(0.016, [(1, .ended, 50, 30, 40)])
        run.frame(0.10, [])
        #expect(run.phases == ["1 began", "1 ended noTap(.glitch)"])
        // 30 ms: a (very short) tap.
        var longer = FilterRun()
        longer.frame(0.00, [(1, .began, 50, 30, 40)])
        longer.frame(0.030, [(1, .ended, 50, 30, 40)])
        longer.frame(0.10, [])
        #expect(longer.phases == ["1 began", "1 ended"])
        // 14 ms but reported in three frames (a fast pad): a tap.
        var fast = FilterRun()
        fast.frame(0.000, [(1, .began, 50, 30, 40)])
        fast.frame(0.007, [(1, .stationary, 50, 30, 40)])
        fast.frame(0.014, [(1, .ended, 50, 30, 40)])
        fast.frame(0.10, [])
        #expect(fast.phases == ["1 began", "1 stationary", "1 ended"])
        // The second finger of a two-finger tap, seen once while the first is down or its
        // lift is still held back.
        var pair = FilterRun()
        pair.frame(0.00, [(1, .began, 40, 30, 40)])
        pair.frame(0.040, [(1, .ended, 40, 30, 40), (2, .began, 60, 30, 40)])
        pair.frame(0.056, [(2, .ended, 60, 30, 40)])
        pair.frame(0.15, [])
        #expect(pair.phases == ["1 began", "2 began", "1 ended", "2 ended"])
        // Off: the brief touch taps.
        var off = FilterRun(TouchFilterSettings.changing { $0.minimumLoneTapDuration = 0 })
        off.frame(0.00, [(1, .began, 50, 30, 40)])
        off.frame(0.016, [(1, .ended, 50, 30, 40)])
        off.frame(0.10, [])
        #expect(off.phases == ["1 began", "1 ended"])
    }

    @Test("a short touch during or just after a scroll is no tap (afterScroll); one later ends as a tap")
    func noTapAroundScroll() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 40, 20, 20), (2, .began, 60, 20, 20)])
        run.frame(0.10, [(1, .moved, 40, 25, 20), (2, .moved, 60, 25, 20)])
        run.frame(0.20, [(1, .moved, 40, 30, 20), (2, .moved, 60, 30, 20), (3, .began, 50, 45, 20)])
        run.frame(0.28, [(1, .moved, 40, 35, 20), (2, .moved, 60, 35, 20), (3, .ended, 50, 45, 20)])
        run.frame(0.30, [(1, .ended, 40, 35, 20), (2, .ended, 60, 35, 20)])
        run.frame(0.45, [(4, .began, 50, 30, 20)])
        run.frame(0.52, [(4, .ended, 50, 30, 20)])
        run.frame(1.00, [(5, .began, 50, 30, 20)])
        run.frame(1.07, [(5, .ended, 50, 30, 20)])
        run.frame(1.50, [])
        let ends = run.phases.filter { $0.contains(" ended") || $0.contains(" cancelled") }
        #expect(ends == ["1 ended", "2 ended", "3 ended noTap(.afterScroll)", "4 ended noTap(.afterScroll)", "5 ended"])
    }

    @Test("a touch too light to tap (a hovering thumb brushing the pad) is no tap (tooLight); a finger tap ends")
    func tooLightToTap() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 4)])
        run.frame(0.05, [(1, .moved, 50, 30, 8)])
        run.frame(0.08, [(1, .ended, 50, 30, 8)])
        run.frame(0.50, [(2, .began, 50, 30, 10)])
        run.frame(0.55, [(2, .moved, 50, 30, 27)])
        run.frame(0.58, [(2, .ended, 50, 30, 27)])
        run.frame(1.00, [])
        #expect(run.phases == ["1 began", "1 stationary", "1 ended noTap(.tooLight)", "2 began", "2 stationary", "2 ended"])
        // A pad that declares pressure but never sends it (every contact at the kernel's
        // initial 0) is not judged: its taps end.
        var silent = FilterRun()
        silent.frame(0.00, [(1, .began, 50, 30, 0)])
        silent.frame(0.05, [(1, .moved, 50, 30, 0)])
        silent.frame(0.08, [(1, .ended, 50, 30, 0)])
        silent.frame(0.50, [])
        #expect(silent.phases == ["1 began", "1 stationary", "1 ended"])
        // A contact whose slot never sent a pressure (nil) pressed the kernel's initial 0, once
        // the pad's pressure channel is known to work: no tap (delivered here with the
        // unknown-pressure hold off; with it on, such a contact is not delivered at all).
        var unsent = FilterRun(TouchFilterSettings.changing { $0.holdsUnknownPressure = false })
        unsent.frame(0.00, [(1, .began, 50, 30, 40)])
        unsent.frame(0.05, [(1, .ended, 50, 30, 40)])
        unsent.frame(0.50, [(2, .began, 20, 30, nil)])
        unsent.frame(0.55, [(2, .stationary, 20, 30, nil)])
        unsent.frame(0.58, [(2, .ended, 20, 30, nil)])
        unsent.frame(1.00, [])
        #expect(unsent.phases == ["1 began", "1 ended", "2 began", "2 stationary", "2 ended noTap(.tooLight)"])
    }

    @Test("a contact down only while the pad said nothing touches (BTN_TOUCH up) is hovering: no tap")
    func hoveringContactDoesNotTap() {
        // A tap with BTN_TOUCH down, then a contact the pad reports with BTN_TOUCH and every
        // BTN_TOOL_* up (finger count 0), as samus does after a tap-click: no second tap.
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 40)], count: 1)
        run.frame(0.05, [(1, .ended, 50, 30, 40)], count: 0)
        run.frame(0.11, [(2, .began, 51, 30, 40)], count: 0)
        run.frame(0.15, [(2, .moved, 51.5, 30, 40)], count: 0)
        run.frame(0.19, [(2, .ended, 51.5, 30, 40)], count: 0)
        run.frame(0.50, [])
        let ends = run.phases.filter { $0.contains(" ended") || $0.contains(" cancelled") }
        #expect(ends == ["1 ended", "2 ended noTap(.hovering)"])
        // The same contact touching in one of its frames (the key came a frame late) taps, and
        // a device that reports no finger count is not judged.
        var late = FilterRun()
        late.frame(0.00, [(1, .began, 50, 30, 40)], count: 0)
        late.frame(0.03, [(1, .stationary, 50, 30, 40)], count: 1)
        late.frame(0.08, [(1, .ended, 50, 30, 40)], count: 0)
        late.frame(0.50, [])
        #expect(late.phases.last == "1 ended")
        var silent = FilterRun()
        silent.frame(0.00, [(1, .began, 50, 30, 40)])
        silent.frame(0.08, [(1, .ended, 50, 30, 40)])
        silent.frame(0.50, [])
        #expect(silent.phases.last == "1 ended")
    }

    @Test("a contact split off a thumb (landing as the thumb loses half its pressure, 10 mm away) makes no tap")
    func splitFragmentDoesNotTap() {
        // A thumb dragged along at pressure 130; the sensor reports a second contact 10 mm
        // below it for two frames, the thumb dropping to 63 meanwhile.
        func drag(second: Int32, thumbAfter: Int32) -> FilterRun {
            var run = FilterRun()
            run.frame(0.00, [(1, .began, 20, 34, 40)])
            for (i, x) in [22.0, 24, 26, 28, 30].enumerated() { run.frame(0.05 + Double(i) * 0.05, [(1, .moved, x, 34, 130)]) }
            run.frame(0.30, [(1, .moved, 31, 34, thumbAfter), (2, .began, 31, 44, second)])
            run.frame(0.31, [(1, .moved, 32, 34, thumbAfter), (2, .stationary, 31, 44, second)])
            run.frame(0.33, [(1, .moved, 33, 34, 130), (2, .ended, 31, 44, second)])
            run.frame(0.50, [(1, .moved, 40, 34, 130)])
            run.frame(0.60, [(1, .ended, 40, 34, 130)])
            run.frame(1.00, [])
            return run
        }
        let split = drag(second: 60, thumbAfter: 63)
        #expect(split.phases.contains("2 ended noTap(.split)"))
        #expect(!split.phases.contains("2 ended"))
        // A finger tapping beside the thumb takes no pressure from it: its tap ends.
        let tap = drag(second: 60, thumbAfter: 128)
        #expect(tap.phases.contains("2 ended"))
        // Off (a drop of 0): the fragment taps.
        var off = FilterRun(TouchFilterSettings.changing { $0.splitPressureDrop = 0 })
        off.frame(0.00, [(1, .began, 20, 34, 40)])
        off.frame(0.20, [(1, .moved, 30, 34, 130)])
        off.frame(0.30, [(1, .moved, 31, 34, 63), (2, .began, 31, 44, 60)])
        off.frame(0.33, [(1, .moved, 33, 34, 130), (2, .ended, 31, 44, 60)])
        off.frame(0.60, [(1, .ended, 40, 34, 130)])
        off.frame(1.00, [])
        #expect(off.phases.contains("2 ended"))
    }

    @Test("a contact gone while the pad's finger count does not drop was lost by the tracking: no tap")
    func lostContactDoesNotTap() {
        // A two-slot pad: a finger rests (1); a second finger (2) is tracked for 60 ms, then
        // the pad follows a third one it cannot place and counts three: 2 did not lift.
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 60, 30, 40)], count: 1)
        run.frame(0.50, [(1, .stationary, 60, 30, 40), (2, .began, 30, 30, 40)], count: 2)
        run.frame(0.53, [(1, .stationary, 60, 30, 40), (2, .stationary, 30, 30, 40)], count: 2)
        run.frame(0.56, [(1, .stationary, 60, 30, 40), (2, .ended, 30, 30, 40)], count: 3)
        run.frame(1.00, [(1, .ended, 60, 30, 40)], count: 0)
        run.frame(1.50, [])
        #expect(run.phases.contains("2 ended noTap(.trackingLost)"))
        #expect(!run.phases.contains("2 ended"))
        // The same touch lifting, the count dropping to one: a tap.
        var lifted = FilterRun()
        lifted.frame(0.00, [(1, .began, 60, 30, 40)], count: 1)
        lifted.frame(0.50, [(1, .stationary, 60, 30, 40), (2, .began, 30, 30, 40)], count: 2)
        lifted.frame(0.53, [(1, .stationary, 60, 30, 40), (2, .stationary, 30, 30, 40)], count: 2)
        lifted.frame(0.56, [(1, .stationary, 60, 30, 40), (2, .ended, 30, 30, 40)], count: 1)
        lifted.frame(1.00, [(1, .ended, 60, 30, 40)], count: 0)
        lifted.frame(1.50, [])
        #expect(lifted.phases.contains("2 ended"))
        // A single-touch pad keeps BTN_TOOL_FINGER (a count of one) after the lift: its tap
        // still ends.
        var single = FilterRun()
        single.frame(0.00, [(1, .began, 60, 30, 40)], count: 1)
        single.frame(0.05, [(1, .ended, 60, 30, 40)], count: 1)
        single.frame(0.50, [], count: 0)
        #expect(single.phases.last == "1 ended")
    }

    // The stage alone, on steps set up by hand.

    @Test("alone: a contact seen once, alone, lifting within 25 ms is a glitch; one accompanied is not")
    func aloneGlitch() {
        let stage = TapGuardStage(settings: TouchFilterSettings(), facts: FilterDeviceFacts(device: pad, pressureIsPressure: true))
        var frame = StageBench.frame(0.01)
        var lone = StageBench.step(StageBench.touch(1, .ended, 50, 30), StageBench.contact(at: 50, 30))
        stage.process(&lone, in: &frame)
        #expect(lone.contact.noTap == .glitch)
        var company = StageBench.contact(at: 50, 30)
        company.accompanied = true
        var accompanied = StageBench.step(StageBench.touch(2, .ended, 50, 30), company)
        stage.process(&accompanied, in: &frame)
        #expect(accompanied.contact.noTap == nil)
    }

    @Test("alone: a finger lifting while a contact that landed with it is still held in the edge band is a hand landing")
    func aloneHandLanding() {
        let stage = TapGuardStage(settings: TouchFilterSettings(), facts: FilterDeviceFacts(device: pad, pressureIsPressure: true))
        var table = ContactTable()
        table[TouchID(2)] = StageBench.contact(.edgeCandidate, at: 2, 30)
        var frame = StageBench.frame(0.1, table: table)
        var contact = StageBench.contact(at: 50, 30)
        contact.reports = 3
        var end = StageBench.step(StageBench.touch(1, .ended, 50, 30), contact)
        stage.process(&end, in: &frame)
        #expect(end.contact.noTap == .handLanding)
    }
}
