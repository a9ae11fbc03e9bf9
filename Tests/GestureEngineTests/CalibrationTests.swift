import Testing

@testable import GestureEngine

/// Spec §2.1 step 5: calibration in device units, before the conversion to millimetres.
@Suite("Calibration")
struct CalibrationTests {
    static func firstPosition(_ calibration: Calibration?) throws -> PhysicalPoint {
        var device = TestDevices.touchscreen  // 0…1000 × 0…600 units, 10 units/mm
        device.calibration = calibration
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 200)
        script.syn()
        var assembler = FrameAssembler(device: device)
        let frames = assembler.frames(script.events)
        return try #require(frames.first?.touches.first?.position)
    }

    @Test("no calibration and the identity leave positions as reported")
    func identity() throws {
        #expect(try Self.firstPosition(nil) == PhysicalPoint(x: 10, y: 20))
        #expect(try Self.firstPosition(Calibration([1, 0, 0, 0, 1, 0])) == PhysicalPoint(x: 10, y: 20))
    }

    @Test("1 0 0 0 -1 1 inverts Y over the axis range; the device's own conversion agrees")
    func invertY() throws {
        let invert = try #require(Calibration([1, 0, 0, 0, -1, 1]))
        // y = 200 of 0…600 is one third down; inverted it is two thirds: 400 units = 40 mm
        let assembled = try Self.firstPosition(invert)
        #expect(abs(assembled.x - 10) < 1e-9 && abs(assembled.y - 40) < 1e-9, "\(assembled)")
        var device = TestDevices.touchscreen
        device.calibration = invert
        let converted = device.physicalPoint(DevicePoint(x: 100, y: 200))
        #expect(abs(converted.x - 10) < 1e-9 && abs(converted.y - 40) < 1e-9, "\(converted)")
    }

    @Test("a matrix that is not six finite numbers is refused")
    func malformed() {
        #expect(Calibration([1, 0, 0, 0, 1]) == nil)
        #expect(Calibration([1, 0, 0, 0, 1, .nan]) == nil)
    }
}
