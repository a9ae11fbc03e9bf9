import GestureEngine
import GesturedConfig
import GesturedSystem
import Testing

@testable import GesturedDaemon

@Suite("Seeding a device's slots when it is opened")
struct SlotSeedTests {
    /// A two-finger scroll as the kernel delivers it when the same scroll was played before:
    /// the second slot's X and touch major did not change, so its first frame lacks them.
    static func replayedScroll(_ device: DeviceDescription) -> [RawEvent] {
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(
            for: synthesizer.drag(fingers: 2, from: .fraction(x: 0.5, y: 0.3), to: .fraction(x: 0.5, y: 0.7), duration: 0.8))
        var inSlot1 = false
        var firstFrame = true
        return events.filter { e in
            if e.usage == .absMTSlot { inSlot1 = e.value == 1 }
            defer { if e.usage == .synReport { firstFrame = false } }
            return !(firstFrame && inSlot1 && (e.usage == .absMTPositionX || e.usage == .absMTTouchMajor))
        }
    }

    static func began(_ outputs: [EngineOutput]) -> [(Timestamp, Double)] {
        outputs.compactMap { if case .touch(let t) = $0, t.phase == .began { (t.timestamp, t.position.x) } else { nil } }
    }

    @Test("a finger landing at its slot's unchanged X is placed there, not at x = 0, and is not held back")
    func seededSlotsPlaceTheFinger() throws {
        let device = try CloneFramePlannerTests.touchscreen()
        let engine = Replay.shippedConfiguration.engineConfiguration(for: device, kind: device.kind)
        let events = Self.replayedScroll(device)
        let start = try #require(events.first?.time)

        var unseeded = GesturePipeline(node: "t", device: device, configuration: engine)
        let blind = Self.began(unseeded.feed(events))
        try #require(blind.count == 2)
        #expect(blind[1].1 == 0, "without the seed the assembler cannot know the X: the test shows nothing otherwise")

        var seeded = GesturePipeline(node: "t", device: device, configuration: engine)
        let t0 = Timestamp(seconds: 0)
        var values: [RawEvent] = []
        for slot in 0..<device.slotCount {
            values += [
                RawEvent(time: t0, usage: .absMTSlot, value: Int32(slot)),
                RawEvent(time: t0, usage: .absMTPositionX, value: 1731),
                RawEvent(time: t0, usage: .absMTTouchMajor, value: 8),
            ]
        }
        values.append(RawEvent(time: t0, usage: .synReport, value: 0))
        #expect(seeded.feed(SlotSeed.events(values, at: t0)).isEmpty, "the seed is no frame for the engine")
        let began = Self.began(seeded.feed(events))
        try #require(began.count == 2)
        #expect(abs(began[1].1 - 173.1) < 0.01)
        #expect(began.allSatisfy { $0.0 == start }, "both fingers reach the sink as they land")
    }
}
