import GestureEngine
import GesturedConfig
import Testing

/// `Calibration=` in `[Device]` rules, and udev's `LIBINPUT_CALIBRATION_MATRIX`.
@Suite("Device calibration in the configuration")
struct CalibrationConfigTests {
    static let panel = DeviceDescription(name: "EP0430M09", properties: [.direct])

    @Test("Calibration= of a matching rule reaches the device the engine gets")
    func configured() throws {
        let result = Configuration.parse("[Device upside-down]\nMatchName=EP0430M09\nCalibration=1 0 0 0 -1 1\n", fileName: "g.conf")
        #expect(result.diagnostics.isEmpty)
        let settings = result.configuration.deviceSettings(for: Self.panel)
        #expect(settings.calibration == Calibration([1, 0, 0, 0, -1, 1]))
        #expect(settings.applying(to: Self.panel).calibration == Calibration([1, 0, 0, 0, -1, 1]))
        let other = DeviceDescription(name: "ELAN Touchscreen", properties: [.direct])
        #expect(result.configuration.deviceSettings(for: other).calibration == nil)
        // rendered back, it parses to the same rule
        let rendered = result.configuration.rendered()
        #expect(Configuration.parse(rendered, fileName: "r.conf").configuration.deviceRules == result.configuration.deviceRules)
    }

    @Test("udev's LIBINPUT_CALIBRATION_MATRIX applies unless gestured.conf sets one; a bad one is ignored")
    func udevMatrix() {
        let none = Configuration()
        let udev = ["LIBINPUT_CALIBRATION_MATRIX": "0 1 0 1 0 0"]
        #expect(none.deviceSettings(for: Self.panel, udevProperties: udev).calibration == Calibration([0, 1, 0, 1, 0, 0]))
        #expect(none.deviceSettings(for: Self.panel, udevProperties: ["LIBINPUT_CALIBRATION_MATRIX": "1 0 x"]).calibration == nil)
        let configured = Configuration.parse("[Device d]\nMatchName=EP*\nCalibration=1 0 0 0 -1 1\n", fileName: "g.conf").configuration
        #expect(configured.deviceSettings(for: Self.panel, udevProperties: udev).calibration == Calibration([1, 0, 0, 0, -1, 1]))
    }

    @Test("a malformed Calibration= is an error at its line and column")
    func malformed() {
        let diagnostics = Configuration.parse("[Device d]\nCalibration=1 0 0 0 -1\n", fileName: "g.conf").diagnostics.map(\.rendered)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("g.conf:2:13: error: Calibration=: '1 0 0 0 -1' is not six numbers") == true, "\(diagnostics)")
    }
}
