import Testing

@testable import GestureEngine

@Suite("Policies: shouldReceive and shouldBegin as data (spec §3.4)")
struct PolicyTests {
    func run(
        _ recognizers: [RecognizerConfiguration],
        device: DeviceDescription = testDevice,
        _ script: (inout Fingers) -> Void
    ) -> Harness {
        var h = Harness(recognizers, device: device)
        var f = Fingers()
        script(&f)
        h.run(f)
        return h
    }

    @Test("touches of other tool types are not offered; a pen policy takes pens")
    func toolTypes() {
        func script(_ f: inout Fingers) {
            let a = f.down(20, 20, at: 0, tool: .pen)
            f.up(a, at: 0.1)
        }
        let fingers = run([recognizer("tap", tap())], script)
        #expect(fingers.gestures.isEmpty)
        #expect(fingers.sinkEvents.map(\.phase) == [.began, .ended])
        let pens = run([recognizer("tap", tap()) { $0.policy.toolTypes = [.pen] }], script)
        #expect(pens.summary == ["tap recognized@0.100"])
    }

    @Test("deviceKinds: a touchpad-only recognizer never begins on a touchscreen")
    func deviceKinds() {
        func script(_ f: inout Fingers) {
            let a = f.down(20, 20, at: 0)
            f.up(a, at: 0.1)
        }
        let screen = run([recognizer("tap", tap()) { $0.policy.deviceKinds = [.touchpad] }], script)
        #expect(screen.gestures.isEmpty)
        var pad = testDevice
        pad.properties = [.pointer]
        let touchpad = run([recognizer("tap", tap()) { $0.policy.deviceKinds = [.touchpad] }], device: pad, script)
        #expect(touchpad.summary == ["tap recognized@0.100"])
    }

    @Test("the finger range of the policy bounds the fingers at begin")
    func fingerRange() {
        let h = run([recognizer("pan", pan()) { $0.policy.maximumFingers = 1 }]) { f in
            let a = f.down(20, 20, at: 0)
            let b = f.down(30, 20, at: 0)
            f.move(a, to: 25, 20, at: 0.1)
            f.move(b, to: 35, 20, at: 0.1)
            f.up(a, at: 0.2)
            f.up(b, at: 0.2)
        }
        #expect(h.gestures.isEmpty)
        let two = run([recognizer("pan", pan()) { $0.policy.minimumFingers = 2 }]) { f in
            let a = f.down(20, 20, at: 0)
            let b = f.down(30, 20, at: 0)
            f.move(a, to: 25, 20, at: 0.1)
            f.move(b, to: 35, 20, at: 0.1)
            f.up(a, at: 0.2)
            f.up(b, at: 0.2)
        }
        #expect(two.summary == ["pan began@0.100", "pan ended@0.200"])
    }

    @Test("a physical click fails recognizers still deciding unless the policy allows it")
    func buttonPress() {
        func script(_ f: inout Fingers) {
            let a = f.down(20, 20, at: 0)
            f.button(true, at: 0.05)
            f.button(false, at: 0.08)
            f.up(a, at: 0.1)
        }
        let fails = run([recognizer("tap", tap())], script)
        #expect(fails.gestures.isEmpty)
        let allowed = run([recognizer("tap", tap()) { $0.policy.failsOnButtonPress = false }], script)
        #expect(allowed.summary == ["tap recognized@0.100"])
    }

    @Test("a touch outside the region is never offered")
    func region() {
        let h = run([
            recognizer("tap", tap()) { $0.region = .rectangle(PhysicalRect(x: 50, y: 0, width: 50, height: 60)) }
        ]) { f in
            let a = f.down(20, 20, at: 0)
            f.up(a, at: 0.1)
            let b = f.down(70, 20, at: 0.5)
            f.up(b, at: 0.6)
        }
        #expect(h.summary == ["tap recognized@0.600"])
    }
}
