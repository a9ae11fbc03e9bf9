import GestureEngine
import Testing

@testable import GesturedConfig

@Suite("Grab= in [Device] rules")
struct GrabKeyTests {
    @Test("Grab=yes applies to the devices its rule matches, and renders back")
    func grabApplies() throws {
        let result = Configuration.parse("[Device screens]\nMatchKind=touchscreen\nGrab=yes\n", fileName: "g.conf")
        #expect(!result.hasErrors)
        let screen = DeviceDescription(name: "screen", properties: [.direct])
        let pad = DeviceDescription(name: "pad", properties: [.pointer, .buttonpad])
        #expect(result.configuration.deviceSettings(for: screen, kind: .touchscreen).grab)
        #expect(!result.configuration.deviceSettings(for: pad, kind: .touchpad).grab)
        #expect(result.configuration.rendered().contains("Grab=yes"))
        #expect(!Configuration.parse("", fileName: "e.conf").configuration.deviceSettings(for: screen, kind: .touchscreen).grab)
    }

    @Test("Grab=yes in a touchpad rule is an error naming the line and the reason")
    func touchpadRuleIsRefused() throws {
        let result = Configuration.parse("[Device pads]\nMatchKind=touchpad\nGrab=yes\n", fileName: "g.conf")
        let error = try #require(result.errors.first)
        #expect(error.rendered.hasPrefix("g.conf:3:"), "\(error.rendered)")
        #expect(error.rendered.contains("touchscreens only"), "\(error.rendered)")
    }
}
