import Foundation
import GestureEngine
import GesturedTestSupport
import Testing

@testable import GesturedDaemon
@testable import gestured_eval

/// Landings written to the grab clone before the engine's step (DESIGN.md, "Landings ahead of
/// the step"): the engine's forecast (``GestureEngine/landingsForwardedAtOnce(in:)``) checked
/// against its own step, on input the project synthesizes on real corpus descriptions.
@Suite("Landings ahead of the step (grab clone)")
struct LandingAheadTests {
    static func touchscreen() throws -> DeviceDescription { try CloneFramePlannerTests.touchscreen() }

    /// Runs `events` through the relay one frame a read, with landings written ahead or not.
    static func run(_ events: [RawEvent], device: DeviceDescription, ahead: Bool) -> ClonePlanRun {
        var run = ClonePlanRun(device: device)
        run.relay.writesLandingsAhead = ahead
        run.feedFrames(events)
        run.finish()
        return run
    }

    @Test("a landing in the middle goes out in a write of its own before the step; the clone's stream is unchanged")
    func middleLandingGoesFirst() throws {
        let device = try Self.touchscreen()
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(
            for: synthesizer.drag(fingers: 2, from: .fraction(x: 0.4, y: 0.3), to: .fraction(x: 0.6, y: 0.7), duration: 0.5))
        let ahead = Self.run(events, device: device, ahead: true)
        let after = Self.run(events, device: device, ahead: false)
        #expect(ahead.relay.landingsWrittenAhead == 2)
        #expect(after.relay.landingsWrittenAhead == 0)
        #expect(ahead.planner.unforeseen == 0)
        let reader = CloneFramePlannerTests.read(ahead.clone)
        #expect(reader.frames == CloneFramePlannerTests.read(after.clone).frames)
        #expect(reader.frames == CloneFramePlannerTests.read(events).frames)
        // The first write is the landing: both touch-downs, before the engine has seen the frame.
        let first = try #require(ahead.device.writes.first)
        #expect(first.filter { $0.usage == .absMTTrackingID && $0.value >= 0 }.count == 2)
    }

    @Test("a landing in an edge band is not written ahead: the edge swipe never reaches the clone")
    func edgeLandingWaits() throws {
        let device = try Self.touchscreen()
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(for: synthesizer.edgeSwipe(from: .left))
        let run = Self.run(events, device: device, ahead: true)
        #expect(run.gestures.contains { $0.name == "edge-left" })
        #expect(run.relay.landingsWrittenAhead == 0)
        #expect(run.clone.allSatisfy { $0.usage != .absMTTrackingID })
    }

    @Test("a landing while an edge swipe is still deciding waits for it, and then for its end")
    func landingBesideADecidingEdgeSwipeWaits() throws {
        let device = try Self.touchscreen()
        var synthesizer = GestureSynthesizer(device: device)
        // The first finger rests in the left band (the edge pan keeps deciding); a second
        // lands in the middle while it does, so the edge pan holds it too.
        let resting = synthesizer.longPress(at: .fraction(x: 0.002, y: 0.5), duration: 0.4)
        let middle = synthesizer.tap(at: .fraction(x: 0.5, y: 0.5), duration: 0.1)
        let script = resting.combined(with: GestureScript(strokes: middle.strokes.map { $0.shifted(by: 0.1) }))
        let events = synthesizer.events(for: script)
        let ahead = Self.run(events, device: device, ahead: true)
        let after = Self.run(events, device: device, ahead: false)
        #expect(ahead.relay.landingsWrittenAhead == 0)
        #expect(ahead.planner.unforeseen == 0)
        #expect(CloneFramePlannerTests.read(ahead.clone).frames == CloneFramePlannerTests.read(after.clone).frames)
    }

    /// The stress set's touchscreen scenarios (every gesture of the shipped file, edge swipes
    /// included) under every variant (staggered and lagging fingers, 60–240 Hz, pressure
    /// scales, resting palms), on the stress set's real touchscreen descriptions: the clone's
    /// stream is the same with landings written ahead as without, and no landing written ahead
    /// is claimed after all.
    @Test(
        "on synthesized input over real touchscreens, writing landings ahead changes nothing the clone's reader sees",
        .enabled(if: SharedCorpus.isPresent, SharedCorpus.absentReason),
        arguments: StressSet.descriptions.prefix(4)
    )
    func stressSetUnchanged(_ description: StressSet.Description) throws {
        let stress = try StressSetTests.stressSet()
        let base = try stress.load(description)
        var replays = 0
        var landings = 0
        var ahead = 0
        var differing: [String] = []
        for scenario in StressScenario.touchscreen {
            for variant in StressVariant.all where variant.applies(toFingers: scenario.fingers) {
                let device = StressSet.device(base, variant)
                let script = StressScript.script(scenario, variant, device: device, kind: .touchscreen, index: 0)
                var synthesizer = GestureSynthesizer(
                    device: device, frameInterval: 1 / variant.rate, jitterMillimeters: variant.jitter, seed: variant.seed)
                let events = synthesizer.events(for: script)
                let early = Self.run(events, device: device, ahead: true)
                let late = Self.run(events, device: device, ahead: false)
                replays += 1
                ahead += early.relay.landingsWrittenAhead
                landings += CloneFramePlannerTests.read(late.clone).touches.filter { $0.hasPrefix("down") }.count
                let same = CloneFramePlannerTests.read(early.clone).frames == CloneFramePlannerTests.read(late.clone).frames
                if !same || early.planner.unforeseen != 0 {
                    differing.append("\(scenario.name), \(variant.name): unforeseen \(early.planner.unforeseen)")
                }
            }
        }
        print("landings ahead \(description.name): \(ahead) of \(landings) touch-downs the clone got, in \(replays) replays")
        #expect(replays > 300)
        #expect(differing.isEmpty, "\(differing.count) replays differ:\n\(differing.prefix(20).joined(separator: "\n"))")
        // Most touch-downs an application gets are foreseen (edge-band landings are not).
        #expect(ahead * 2 > landings)
    }
}
