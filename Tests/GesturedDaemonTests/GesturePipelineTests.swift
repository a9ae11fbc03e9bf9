import Foundation
import GestureEngine
import GesturedConfig
import GesturedTestSupport
import Testing

@testable import GesturedDaemon

/// The daemon's per-device pipeline (assembler → touch filter → engine) at its edges: what
/// happens to gestures in flight when the device goes away.
@Suite("Gesture pipeline")
struct GesturePipelineTests {
    static func clickpad() throws -> DeviceDescription {
        let url = packageRootDirectory.appendingPathComponent("Tests/EndToEndTests/Devices/logitech-t650.desc")
        let device = try RecordingParser.parseDescription(try String(contentsOf: url, encoding: .utf8), fileName: url.path)
        try #require(device.kind == .touchpad, "the T650 is a clickpad: the filter holds its lifts back")
        return device
    }

    static func pinchStates(_ outputs: [EngineOutput]) -> [GestureState] {
        outputs.compactMap { output in
            guard case .gesture(let event) = output, event.kind == .pinch else { return nil }
            return event.state
        }
    }

    @Test("a pinch whose fingers lifted just before the unplug ends; one still down is cancelled")
    func unplugAfterLift() throws {
        let device = try Self.clickpad()
        let configuration = Replay.shippedConfiguration.engineConfiguration(for: device, kind: .touchpad)
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(for: synthesizer.pinch(scale: 2))
        let lastTime = try #require(events.last?.time)

        // Unplugged 5 ms after the lift: sooner than the filter's hold-back of a lift.
        var lifted = GesturePipeline(node: "test", device: device, configuration: configuration)
        var outputs = lifted.feed(events)
        #expect(Self.pinchStates(outputs).last == .changed, "the lift is still held back")
        outputs += lifted.cancelAll(at: lastTime.adding(seconds: 0.005))
        let states = Self.pinchStates(outputs)
        #expect(states.first == .began)
        #expect(states.last == .ended, "\(states)")
        #expect(ConsistencyChecker.check(outputs, requireClosed: true).isEmpty)

        // Unplugged with the fingers still down (the lift frame never came): cancelled.
        let liftFrameStart = try #require(events.lastIndex { $0.time < lastTime })
        var down = GesturePipeline(node: "test", device: device, configuration: configuration)
        var downOutputs = down.feed(events[...liftFrameStart])
        downOutputs += down.cancelAll(at: lastTime)
        #expect(Self.pinchStates(downOutputs).last == .cancelled)
        #expect(ConsistencyChecker.check(downOutputs, requireClosed: true).isEmpty)
    }

    /// Found by the pipeline fuzz target (`Fuzz/Regressions/pipeline/pressure-drop-overflow`):
    /// a touchpad contact whose pressure jumps from `Int32.max` to `Int32.min` as another
    /// lands trapped the touch filter's split check (`before - now` in `Int32`).
    @Test("a pressure drop across the whole Int32 range as a contact lands is a drop, not a trap")
    func pressureDropAcrossInt32() throws {
        let device = try Self.clickpad()
        let configuration = Replay.shippedConfiguration.engineConfiguration(for: device, kind: .touchpad)
        var pipeline = GesturePipeline(node: "test", device: device, configuration: configuration)
        var events: [RawEvent] = []
        var time = Timestamp(microseconds: 1_000_000)
        func add(_ usage: EventUsage, _ value: Int32) { events.append(RawEvent(time: time, usage: usage, value: value)) }
        func syn() {
            add(.synReport, 0)
            time = time.adding(seconds: 0.01)
        }
        add(.absMTSlot, 0); add(.absMTTrackingID, 1); add(.absMTPositionX, 1000); add(.absMTPositionY, 1000)
        add(.absMTPressure, .max); add(.btnTouch, 1); add(.btnToolFinger, 1); syn()
        add(.absMTPressure, .max - 1); syn()
        add(.absMTPressure, .min); add(.absMTSlot, 1); add(.absMTTrackingID, 2); add(.absMTPositionX, 1500)
        add(.absMTPositionY, 1000); add(.absMTPressure, 30); add(.btnToolFinger, 0); add(.btnToolDoubleTap, 1); syn()
        add(.absMTSlot, 0); add(.absMTTrackingID, -1); add(.absMTSlot, 1); add(.absMTTrackingID, -1)
        add(.btnTouch, 0); add(.btnToolDoubleTap, 0); syn()
        let outputs = pipeline.feed(events) + pipeline.finishReplay()
        #expect(ConsistencyChecker.check(outputs, requireClosed: true).isEmpty)
    }

    /// Three fingers on the clickpad that rest `rest` seconds, then sweep 30 mm left in 1 s
    /// (a slow start: 3 mm by 0.5 s after landing, below the swipe's minimum movement then).
    static func restingSwipe(rest: Double, device: DeviceDescription) -> [RawEvent] {
        var synthesizer = GestureSynthesizer(device: device)
        let strokes = [30.0, 50.0, 70.0].map { x in
            GestureScript.Stroke(keyframes: [
                .init(time: 0, position: PhysicalPoint(x: x, y: 40)),
                .init(time: rest, position: PhysicalPoint(x: x, y: 40)),
                .init(time: rest + 1, position: PhysicalPoint(x: x - 30, y: 40)),
            ])
        }
        return synthesizer.events(for: GestureScript(strokes: strokes))
    }

    @Test("a two-finger tap on the clickpad taps; the same contacts with BTN_TOUCH and BTN_TOOL_* up are hovering: nothing")
    func hoveringTwoFingerTap() throws {
        let device = try Self.clickpad()
        let configuration = Replay.shippedConfiguration.engineConfiguration(for: device, kind: .touchpad)
        var synthesizer = GestureSynthesizer(device: device)
        let touching = synthesizer.events(for: synthesizer.tap(fingers: 2, duration: 0.08))
        // The kernel's view of fingers above the pad: slots with positions, but no key says a
        // finger touches.
        let keys: Set<EventUsage> = [.btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap]
        let hovering = touching.filter { !keys.contains($0.usage) }
        try #require(hovering.count < touching.count, "the synthesized tap sends the touch keys")
        func taps(_ events: [RawEvent]) -> [String] {
            var pipeline = GesturePipeline(node: "test", device: device, configuration: configuration)
            var outputs = pipeline.feed(events)
            outputs += pipeline.finishReplay()
            return outputs.compactMap { output in
                guard case .gesture(let event) = output, event.kind == .tap else { return nil }
                return "\(event.name) \(event.state.rawValue)"
            }
        }
        #expect(taps(touching) == ["touchpad-two-finger-tap recognized"])
        #expect(taps(hovering).isEmpty)
    }

    @Test("the shipped touchpad three-finger swipe takes fingers that settle 0.4 s and start slowly, within 1 s")
    func settledSwipe() throws {
        let device = try Self.clickpad()
        let configuration = Replay.shippedConfiguration.engineConfiguration(for: device, kind: .touchpad)
        func swipes(rest: Double) -> [String] {
            var pipeline = GesturePipeline(node: "test", device: device, configuration: configuration)
            var outputs = pipeline.feed(Self.restingSwipe(rest: rest, device: device))
            outputs += pipeline.finishReplay()
            return outputs.compactMap { output in
                guard case .gesture(let event) = output, event.kind == .swipe else { return nil }
                return "\(event.name) \(event.state.rawValue)"
            }
        }
        #expect(swipes(rest: 0.4) == ["touchpad-three-finger-swipe recognized"])
        #expect(swipes(rest: 1.2).isEmpty)
    }
}
