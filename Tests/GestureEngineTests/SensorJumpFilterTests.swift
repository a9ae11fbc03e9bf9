import Testing

@testable import GestureEngine

@Suite("Sensor jump and box filters")
struct SensorJumpFilterTests {
    private func run(_ filter: inout SensorJumpFilter, _ xs: [Double]) -> [Double] {
        xs.map { filter.update(PhysicalPoint(x: $0, y: 10)).x }
    }

    @Test("a palm's centre jumping back and forth between still frames stays put; y is judged on its own")
    func palmWobble() {
        var filter = SensorJumpFilter(minimumStep: 1)
        // Rests, jumps 2.4 mm, comes back, jumps again: every jump is a turn or a sudden step.
        let out = run(&filter, [50, 50, 50, 52.4, 52.4, 50, 50, 52.4, 50])
        #expect(out.allSatisfy { abs($0 - 50) < 1e-9 })
        #expect(filter.position(for: PhysicalPoint(x: 50, y: 10)).y == 10)
    }

    @Test("steady motion passes; a sudden step from rest loses two frames at most, a leap past 7.5 mm passes")
    func fingerMotion() {
        var steady = SensorJumpFilter(minimumStep: 1)
        let glide = run(&steady, [10, 12, 14, 16, 18, 20])
        #expect(glide == [10, 12, 14, 16, 18, 20])
        var sudden = SensorJumpFilter(minimumStep: 1)
        let start = run(&sudden, [10, 10, 10, 13, 16, 19, 22])
        // The first two steps of 3 mm after rest are taken out, the rest comes through.
        #expect(start == [10, 10, 10, 10, 10, 13, 16])
        var leap = SensorJumpFilter(minimumStep: 1)
        #expect(run(&leap, [10, 10, 10, 20]) == [10, 10, 10, 20])
        // Jitter below the turn tolerance passes both ways.
        var jitter = SensorJumpFilter(minimumStep: 1)
        #expect(run(&jitter, [10, 10.5, 10, 10.5]) == [10, 10.5, 10, 10.5])
        // Off: everything passes.
        var off = SensorJumpFilter(minimumStep: 0)
        #expect(run(&off, [50, 50, 52.4, 50]) == [50, 50, 52.4, 50])
    }

    @Test("a box lets a contact wobble inside it unseen and follows it half a box behind when it moves")
    func box() {
        var box = BoxFilter(size: 1, position: PhysicalPoint(x: 10, y: 10))
        #expect(box.update(PhysicalPoint(x: 10.4, y: 9.6)) == PhysicalPoint(x: 10, y: 10))
        #expect(box.update(PhysicalPoint(x: 9.7, y: 10.3)) == PhysicalPoint(x: 10, y: 10))
        #expect(box.update(PhysicalPoint(x: 12, y: 10)) == PhysicalPoint(x: 11.5, y: 10))
        #expect(box.update(PhysicalPoint(x: 11.2, y: 10)) == PhysicalPoint(x: 11.5, y: 10))
        var none = BoxFilter(size: 0, position: PhysicalPoint(x: 10, y: 10))
        #expect(none.update(PhysicalPoint(x: 10.2, y: 10)) == PhysicalPoint(x: 10.2, y: 10))
    }
}
