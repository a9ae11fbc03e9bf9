import Testing

@testable import GestureEngine

/// The bottom band's companion rule (``ThumbStage/landsWithHand``): a contact landing low with
/// the other fingers of a hand is one of them; a thumb resting alone, or landing apart from
/// them, is still held back. `pad` is 100 × 60 mm: the band is y > 51 mm.
@Suite("Thumb stage: the bottom band, the hand, the diagonal thumb")
struct ThumbStageTests {
    /// The ids that began (were delivered) in a run.
    func began(_ run: FilterRun) -> Set<UInt64> {
        Set(run.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.phase == .began }.map(\.id.rawValue))
    }

    @Test("four fingers stacked 15 mm apart landing together: the lowest, in the band, is a finger")
    func fourFingersTogether() {
        var run = FilterRun()
        // The lowest first (id 1): it is stepped before the others of its frame are in the table.
        run.frame(0.00, [(1, .began, 50, 54, 40), (2, .began, 50, 39, 40), (3, .began, 50, 24, 40), (4, .began, 50, 9, 40)])
        run.frame(0.02, [(1, .moved, 48, 54, 40), (2, .moved, 48, 39, 40), (3, .moved, 48, 24, 40), (4, .moved, 48, 9, 40)])
        #expect(began(run) == [1, 2, 3, 4])
    }

    @Test("the lowest landing first, the others 8 ms apart after it: it joins the hand once they land")
    func staggeredLowestFirst() {
        var run = FilterRun()
        run.frame(0.000, [(1, .began, 50, 54, 40)])
        run.frame(0.008, [(1, .stationary, 50, 54, 40), (2, .began, 50, 39, 40)])
        run.frame(0.016, [(1, .stationary, 50, 54, 40), (2, .stationary, 50, 39, 40), (3, .began, 50, 24, 40)])
        #expect(!began(run).contains(1))
        run.frame(0.024, [(1, .moved, 49, 54, 40), (2, .moved, 49, 39, 40), (3, .moved, 49, 24, 40), (4, .began, 49, 9, 40)])
        #expect(began(run) == [1, 2, 3, 4])
    }

    @Test("a two-slot pad counting four: the tracked low finger is one of the hand the count says")
    func twoSlotCount() {
        var run = FilterRun(device: twoSlotPad)
        run.frame(0.00, [(1, .began, 50, 54, 40), (2, .began, 50, 39, 40)], count: 4)
        run.frame(0.02, [(1, .moved, 48, 54, 40), (2, .moved, 48, 39, 40)], count: 4)
        #expect(began(run).contains(1))
        // Counting two, the same pair is two contacts landing low: still held (a thumb and a finger).
        var pair = FilterRun(device: twoSlotPad)
        pair.frame(0.00, [(1, .began, 50, 54, 40), (2, .began, 50, 39, 40)], count: 2)
        pair.frame(0.02, [(1, .moved, 48, 54, 40), (2, .moved, 48, 39, 40)], count: 2)
        #expect(!began(pair).contains(1))
    }

    @Test("a thumb resting before the fingers land, or far from them, stays a thumb")
    func restingThumbStays() {
        // Resting 0.5 s, then three fingers land close above it: too late to be one landing.
        var late = FilterRun()
        late.frame(0.00, [(1, .began, 50, 55, 40)])
        late.frame(0.50, [(1, .stationary, 50, 55, 40), (2, .began, 50, 40, 40), (3, .began, 35, 38, 40), (4, .began, 65, 38, 40)])
        late.frame(0.52, [(1, .moved, 50, 55, 40), (2, .moved, 48, 40, 40), (3, .moved, 33, 38, 40), (4, .moved, 63, 38, 40)])
        #expect(began(late) == [2, 3, 4])
        // Landing with three fingers, but 40 mm to the side of the nearest: a thumb.
        var far = FilterRun()
        far.frame(0.00, [(1, .began, 10, 55, 40), (2, .began, 55, 25, 40), (3, .began, 70, 20, 40), (4, .began, 85, 25, 40)])
        far.frame(0.02, [(1, .moved, 10, 55, 40), (2, .moved, 53, 25, 40), (3, .moved, 68, 20, 40), (4, .moved, 83, 25, 40)])
        #expect(began(far) == [2, 3, 4])
    }
}

extension ThumbStageTests {
    @Test("two contacts landing low together are not yet a hand: the band one is held (each counted once)")
    func twoLandingTogether() {
        var run = FilterRun()
        // Id 1 is stepped first and is in the table when id 2 (in the band) lands beside it.
        run.frame(0.00, [(1, .began, 40, 40, 40), (2, .began, 50, 55, 40)])
        run.frame(0.02, [(1, .moved, 40, 42, 40), (2, .moved, 50, 55, 40)])
        #expect(began(run) == [1])
    }

    @Test("a thumb resting in the bottom band is never seen while a finger works; leaving upward it is")
    func thumbBand() {
        var run = FilterRun()
        // Band: 15 % of 60 mm = 9 mm at the bottom (y > 51 mm).
        run.frame(0.00, [(1, .began, 40, 56, 20)])
        run.frame(0.50, [(1, .moved, 60, 57, 20), (2, .began, 50, 20, 20)])
        run.frame(0.80, [(1, .moved, 62, 57, 20), (2, .moved, 50, 30, 20)])
        run.frame(1.00, [(1, .moved, 62, 45, 20), (2, .moved, 50, 35, 20)])
        #expect(run.phases == ["2 began", "2 moved", "1 began", "2 moved"])
    }

    @Test("a thumb sliding along the band a little above it stays held back; rising past the exit line it is a finger")
    func thumbExitLine() {
        var run = FilterRun()
        // Band: y > 51 mm (15 %); exit line: y < 48 mm (20 % of 60 mm).
        run.frame(0.00, [(1, .began, 20, 56, 20)])
        run.frame(0.20, [(1, .moved, 30, 52, 20)])
        run.frame(0.40, [(1, .moved, 45, 49, 20)])
        run.frame(0.60, [(1, .moved, 60, 50, 20)])
        #expect(run.phases.isEmpty)
        run.frame(0.80, [(1, .moved, 60, 40, 20)])
        #expect(run.phases == ["1 began"])
    }

    @Test("of two close fingers in the thumb band, the one the sensor keeps losing neither taps nor turns palm")
    func flickeringCandidate() {
        var run = FilterRun()
        // Band: y > 51 mm. Contact 1 rests there; a finger beside it comes and goes each
        // 50 ms; then a finger lands above the band where the flickering one was.
        run.frame(0.00, [(1, .began, 40, 56, 20)])
        run.frame(0.01, [(1, .moved, 40, 56, 20), (2, .began, 55, 56, 20)])
        run.frame(0.06, [(1, .moved, 40, 56, 20), (2, .ended, 55, 56, 20)])
        run.frame(0.08, [(1, .moved, 40, 56, 20), (3, .began, 55, 56.5, 20)])
        run.frame(0.13, [(1, .moved, 40, 56, 20), (3, .ended, 55, 56.5, 20)])
        run.frame(0.15, [(1, .moved, 40, 56, 20), (4, .began, 55, 56, 20)])
        run.frame(0.20, [(1, .moved, 40, 56, 20), (4, .ended, 55, 56, 20)])
        run.frame(0.30, [(1, .moved, 40, 56, 20), (5, .began, 55, 45, 20)])
        run.frame(0.50, [(1, .moved, 40, 56, 20), (5, .moved, 55, 40, 20)])
        #expect(run.phases == ["5 began", "5 moved"])
    }

    @Test("a thumb resting low, far to the side of two fingers landing, lifts before the third finger begins")
    func diagonalThumb() {
        func run(_ settings: TouchFilterSettings, thirdAt third: (Double, Double)) -> [String] {
            var run = FilterRun(settings)
            run.frame(0.00, [(1, .began, 15, 48, 30)])
            run.frame(0.40, [(1, .stationary, 15, 48, 30), (2, .began, 80, 5, 30)])
            run.frame(0.50, [(1, .stationary, 15, 48, 30), (2, .stationary, 80, 5, 30), (3, .began, third.0, third.1, 30)])
            run.frame(0.60, [(1, .stationary, 15, 48, 30), (2, .moved, 80, 15, 30), (3, .moved, third.0, third.1 + 10, 30)])
            return run.phases
        }
        // The two lowest, the thumb and the third finger, are 40 mm apart across and 36 mm
        // vertically: the thumb ends (it rested 0.5 s) in a frame before the third begins.
        let thumb = run(TouchFilterSettings(), thirdAt: (55, 12))
        #expect(thumb == ["1 began", "1 stationary", "2 began", "1 ended palm(.thumb)", "2 stationary", "3 began", "2 moved", "3 moved"])
        // Three fingers side by side: nobody is a thumb.
        let row = run(TouchFilterSettings(), thirdAt: (30, 45))
        #expect(!row.contains { $0.hasPrefix("1 ended") } && row.contains("1 stationary") && row.last == "3 moved")
        // Off: the thumb stays.
        let off = run(TouchFilterSettings.changing { $0.thumbDiagonalWidth = 0 }, thirdAt: (55, 12))
        #expect(!off.contains { $0.hasPrefix("1 ended") })
    }
}
