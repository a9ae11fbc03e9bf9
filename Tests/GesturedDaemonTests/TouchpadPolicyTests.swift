import GestureEngine
import Testing

@testable import GesturedDaemon

/// What ``GesturePipeline/devicePolicy(_:device:)`` changes on touchpads, replayed through the
/// pipeline with synthesized kernel events.
@Suite("Touchpad recognizer policy")
struct TouchpadPolicyTests {
    static let tapOnly = EngineConfiguration(recognizers: [RecognizerConfiguration(name: "tap", kind: .tap(TapParameters()))])

    static func taps(on device: DeviceDescription, duration: Double) -> Int {
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(for: synthesizer.tap(at: .center, duration: duration))
        var pipeline = GesturePipeline(node: "test", device: device, configuration: tapOnly)
        let outputs = pipeline.feed(events) + pipeline.finishReplay()
        return outputs.count { output in
            if case .gesture(let event) = output { event.name == "tap" && event.state == .recognized } else { false }
        }
    }

    @Test("a touchpad tap lasts at most 250 ms; a touchscreen keeps the spec's 750 ms")
    func tapDuration() {
        #expect(Self.taps(on: GestureSynthesizer.demoClickpad, duration: 0.1) == 1)
        #expect(Self.taps(on: GestureSynthesizer.demoClickpad, duration: 0.4) == 0)
        #expect(Self.taps(on: GestureSynthesizer.demoTouchscreen, duration: 0.4) == 1)
    }

    static func pinches(on device: DeviceDescription, spanChange: Double) -> Int {
        var synthesizer = GestureSynthesizer(device: device)
        let configuration = EngineConfiguration(recognizers: [RecognizerConfiguration(name: "pinch", kind: .pinch(PinchParameters()))])
        let script = synthesizer.pinch(scale: (20 + spanChange) / 20, span: 20, duration: 0.4)
        let events = synthesizer.events(for: script)
        var pipeline = GesturePipeline(node: "test", device: device, configuration: configuration)
        let outputs = pipeline.feed(events) + pipeline.finishReplay()
        return outputs.count { output in
            if case .gesture(let event) = output { event.name == "pinch" && event.state == .began } else { false }
        }
    }

    @Test("a touchpad pinch needs 4 mm of span change; a touchscreen keeps the spec's 1.247 mm")
    func pinchHysteresis() {
        #expect(Self.pinches(on: GestureSynthesizer.demoClickpad, spanChange: 3) == 0)
        #expect(Self.pinches(on: GestureSynthesizer.demoClickpad, spanChange: 15) == 1)
        #expect(Self.pinches(on: GestureSynthesizer.demoTouchscreen, spanChange: 3) == 1)
    }

    /// Three fingers rest 0.6 s (a hold begins at 0.5 s), then sweep 40 mm left in 0.25 s:
    /// the events of a three-finger hold and a three-finger swipe, as `name state`, in the
    /// order the engine emits them (the commit first, then the exclusion it causes).
    static func holdThenSwipe(on device: DeviceDescription) -> [String] {
        var hold = LongPressParameters()
        hold.numberOfTouchesRequired = 3
        var swipe = SwipeParameters()
        swipe.numberOfTouchesRequired = 3
        swipe.directions = [.left, .right, .up, .down]
        swipe.maximumDuration = 1
        let configuration = EngineConfiguration(recognizers: [
            RecognizerConfiguration(name: "hold", kind: .longPress(hold)),
            RecognizerConfiguration(name: "swipe", kind: .swipe(swipe)),
        ])
        var synthesizer = GestureSynthesizer(device: device)
        let script = synthesizer.drag(fingers: 3, from: .fraction(x: 0.7, y: 0.5), to: .fraction(x: 0.3, y: 0.5), duration: 0.25, hold: 0.6)
        var pipeline = GesturePipeline(node: "test", device: device, configuration: configuration)
        let outputs = pipeline.feed(synthesizer.events(for: script)) + pipeline.finishReplay()
        return outputs.compactMap { output in
            guard case .gesture(let event) = output, event.state != .changed else { return nil }
            return "\(event.name) \(event.state.rawValue)" + (event.direction.map { " \($0.rawValue)" } ?? "")
        }
    }

    @Test("a touchpad hold whose fingers go on to swipe is cancelled by the swipe (libinput); a touchscreen keeps UIKit's hold")
    func holdYieldsToMotion() {
        #expect(Self.holdThenSwipe(on: GestureSynthesizer.demoClickpad) == ["hold began", "swipe recognized left", "hold cancelled"])
        #expect(Self.holdThenSwipe(on: GestureSynthesizer.demoTouchscreen) == ["hold began", "hold ended"])
    }

    @Test("a touchpad hold whose fingers stay still ends when they lift, not cancelled")
    func stillHoldEnds() {
        var hold = LongPressParameters()
        hold.numberOfTouchesRequired = 3
        var swipe = SwipeParameters()
        swipe.numberOfTouchesRequired = 3
        let configuration = EngineConfiguration(recognizers: [
            RecognizerConfiguration(name: "hold", kind: .longPress(hold)),
            RecognizerConfiguration(name: "swipe", kind: .swipe(swipe)),
        ])
        var synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoClickpad)
        var pipeline = GesturePipeline(node: "test", device: GestureSynthesizer.demoClickpad, configuration: configuration)
        let outputs = pipeline.feed(synthesizer.events(for: synthesizer.longPress(fingers: 3, duration: 0.8))) + pipeline.finishReplay()
        let states = outputs.compactMap { output -> String? in
            guard case .gesture(let event) = output, event.state != .changed else { return nil }
            return "\(event.name) \(event.state.rawValue)"
        }
        #expect(states == ["hold began", "hold ended"])
    }
}
