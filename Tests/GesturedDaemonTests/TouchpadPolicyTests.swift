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
}
