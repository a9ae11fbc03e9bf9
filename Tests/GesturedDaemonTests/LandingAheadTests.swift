import Foundation
import GestureEngine
import GesturedTestSupport
import Testing

@testable import GesturedDaemon
@testable import gestured_eval

/// Landings written to the grab clone before the engine's step (DESIGN.md "Grab and clone"): the engine's forecast (``GestureEngine/landingsForwardedAtOnce(in:)``) checked
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
        let (device, events) = try CloneFramePlannerTests.twoFingerDrag()
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

    @Test("a landing a gesture claims on its very first frame, after it was written ahead, is cancelled in the clone: down, then cancel")
    func unforeseenClaimIsCancelled() throws {
        let device = try Self.touchscreen()
        var engine = EngineConfiguration()
        // Cancels its touches (the spec's default) and begins as its second finger lands: the
        // landing is claimed in its own step, which the forecast does not try to foresee.
        engine.recognizers = [RecognizerConfiguration(name: "pair", kind: .custom(AnyCustomRecognizer(BeginsOnSecondFingerForTests())))]
        var synthesizer = GestureSynthesizer(device: device)
        let first = synthesizer.tap(at: .fraction(x: 0.3, y: 0.5), duration: 0.4)
        let second = synthesizer.tap(at: .fraction(x: 0.6, y: 0.5), duration: 0.2)
        let events = synthesizer.events(for: first.combined(with: GestureScript(strokes: second.strokes.map { $0.shifted(by: 0.1) })))
        var ahead = ClonePlanRun(device: device, engine: engine)
        ahead.feedFrames(events)
        ahead.finish()
        var after = ClonePlanRun(device: device, engine: engine)
        after.relay.writesLandingsAhead = false
        after.feedFrames(events)
        after.finish()
        #expect(ahead.gestures.contains { $0.name == "pair" && $0.state == .began })
        #expect(ahead.planner.unforeseen == 1)
        #expect(!ahead.planner.hasTouchDown)
        let touches = CloneFramePlannerTests.read(ahead.clone).touches.filter { !$0.hasPrefix("motion") }
        #expect(touches == ["down t0 994 936", "down t1 1987 936", "cancel t0", "cancel t1"], "\(touches)")
        // Without landings ahead the claimed touch never reaches the clone at all.
        let late = CloneFramePlannerTests.read(after.clone).touches.filter { !$0.hasPrefix("motion") }
        #expect(late == ["down t0 994 936", "cancel t0"], "\(late)")
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

/// A custom recognizer for the tests (named so): continuous, it begins the moment a second
/// finger lands beside the first, and ends when they lift.
struct BeginsOnSecondFingerForTests: CustomRecognizer {
    var held = 0
    var kind: GestureKind { .custom("pair") }
    var isDiscrete: Bool { false }
    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        held += touches.count
        if held >= 2, context.state == .possible { context.request(.began) }
    }
    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {}
    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        context.request(context.state == .possible ? .failed : .ended)
    }
    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        context.request(context.state == .possible ? .failed : .cancelled)
    }
    mutating func timerFired(_ token: Int, context: inout RecognizerContext) {}
    mutating func reset() { held = 0 }
    func values(at now: Timestamp) -> GestureValues { GestureValues(fingers: held, location: .zero) }
}
