import Testing

@testable import GestureEngine

/// The bottom band's companion rule (``ThumbStage/landsWithHand``): a contact landing low with
/// the other fingers of a hand is one of them; a thumb resting alone, or landing apart from
/// them, is still held back. `pad` is 100 × 60 mm: the band is y > 51 mm.
@Suite("Thumb band: fingers landing with the hand")
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
}
