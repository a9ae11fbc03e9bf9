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
}
