import Testing

@testable import GestureEngine

@Suite("Units")
struct TimestampTests {
    @Test("a timestamp prints as evemu sec.usec")
    func timestampPrintsLikeEvemu() {
        #expect(Timestamp(microseconds: 1_500_020).description == "1.500020")
        #expect(Timestamp(seconds: 0.35).microseconds == 350_000)
    }

    @Test("device units convert to millimetres through the axis resolution")
    func deviceUnitsConvert() {
        let device = DeviceDescription(
            name: "pad",
            axes: [EventUsage.absMTPositionX.code: AxisInfo(minimum: 100, maximum: 4100, resolution: 40),
                   EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 2600, resolution: 0)]
        )
        let p = device.physicalPoint(DevicePoint(x: 500, y: 63))
        #expect(p.x == 10)
        #expect(abs(p.y - 10) < 1e-9)
        #expect(device.hasResolution == false)
        #expect(device.widthMillimeters == 100)
    }

    @Test("without a resolution 6.3 units/mm, but no axis longer than 600 mm (HID's 0…32767)")
    func fallbackSizeIsCapped() {
        let screen = DeviceDescription(
            name: "hid touchscreen", properties: [.direct],
            axes: [EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 32767),
                   EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 2520)]
        )
        #expect(abs(screen.widthMillimeters - 600) < 1e-9)
        #expect(abs(screen.heightMillimeters - 400) < 1e-9)  // 2520 / 6.3: under the cap
        #expect(abs(screen.physicalPoint(DevicePoint(x: 16, y: 0)).x - 16 * 600 / 32767) < 1e-9)
    }

    @Test("a touchpad without a resolution is taken as 69 × 50 mm, unless its ranges were inferred from a recording")
    func touchpadFallbackSize() {
        var pad = DeviceDescription(
            name: "old touchpad", properties: [.pointer],
            axes: [EventUsage.absMTPositionX.code: AxisInfo(minimum: 1472, maximum: 5472),
                   EventUsage.absMTPositionY.code: AxisInfo(minimum: 1408, maximum: 4448)]
        )
        #expect(abs(pad.widthMillimeters - 69) < 1e-9)
        #expect(abs(pad.heightMillimeters - 50) < 1e-9)
        pad.rangesAreInferred = true
        #expect(abs(pad.widthMillimeters - 600) < 1e-9)  // 4000 / 6.3 = 635 mm: capped
        #expect(abs(pad.heightMillimeters - 3040 / 6.3) < 1e-9)
        // A resolution, where there is one, wins.
        let sized = DeviceDescription(
            name: "pad", properties: [.pointer],
            axes: [EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
                   EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10)]
        )
        #expect(sized.widthMillimeters == 100)
        let inferred = RecordingParser.inferDescription(from: [], name: "x")
        #expect(inferred.rangesAreInferred)
    }
}
