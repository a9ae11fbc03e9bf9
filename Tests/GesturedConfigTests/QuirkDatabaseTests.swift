import GestureEngine
import Testing

@testable import GesturedConfig

/// The 2012 Chromebooks' Cypress pad as its description reads, unnamed.
private let unnamedCypress = DeviceDescription(
    name: "", properties: [.pointer],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 14),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1280, resolution: 12),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 680, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ])

@Suite("Device quirks (config/quirks)")
struct QuirkDatabaseTests {
    @Test("the shipped cyapa quirk matches the kernel's name on I2C, never the axis ranges alone")
    func shippedCypress() throws {
        let text = try repositoryFile("config/quirks/50-cypress-cyapa.quirks")
        let (database, diagnostics) = QuirkDatabase.parse([("50-cypress-cyapa.quirks", text)])
        #expect(diagnostics.map(\.rendered) == [])
        var named = unnamedCypress
        named.name = "Cypress APA Trackpad (cyapa)"
        named.bustype = 0x18
        let quirks = database.quirks(for: named)
        #expect(quirks.palmPressureAtLanding == 63)
        #expect(quirks.palmReturnWait == 0.15)
        #expect(quirks.sensorJumpStep == 1)
        #expect(quirks.boxSize == 1)
        #expect(quirks.dropsConfirmedMotion == true)
        #expect(quirks.sources.count == 1)
        #expect(database.quirks(for: unnamedCypress) == DeviceQuirks())
        var usb = named
        usb.bustype = 0x03
        #expect(database.quirks(for: usb) == DeviceQuirks())
    }

    @Test("Elantech pads without a resolution read at libinput's 31 units/mm; a reported one is kept")
    func shippedElantech() throws {
        let text = try repositoryFile("config/quirks/30-vendor-elantech.quirks")
        let (database, diagnostics) = QuirkDatabase.parse([("30-vendor-elantech.quirks", text)])
        #expect(diagnostics.map(\.rendered) == [])
        // The Dell Inspiron 7520 of the shared corpus: X 0…2940, Y 0…1400, no resolution.
        let dell = DeviceDescription(
            name: "ETPS/2 Elantech Touchpad", bustype: 0x11, vendor: 2, product: 0x0e, properties: [.pointer],
            axes: [
                EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 2940), EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 1400),
                EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 1),
                EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 2940),
                EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 1400),
            ])
        // Without the quirk: libinput's fallback size, 69 × 50 mm.
        #expect(abs(dell.widthMillimeters - 69) < 0.01)
        let quirks = database.quirks(for: dell)
        #expect(quirks.resolutionHint == ResolutionHint(x: 31, y: 31))
        #expect(quirks.attributeLines == ["AttrResolutionHint=31x31"])
        let hinted = quirks.applyingResolution(to: dell)
        #expect(hinted.hasResolution)
        #expect(hinted.axis(.absX)?.resolution == 31 && hinted.axis(.absMTPositionY)?.resolution == 31)
        #expect(abs(hinted.widthMillimeters - 2940.0 / 31) < 0.01 && abs(hinted.heightMillimeters - 1400.0 / 31) < 0.01)
        // A pad whose kernel reports a resolution keeps it (the N500JK: 31 and 32).
        var n500 = dell
        n500.axes[EventUsage.absMTPositionX.code]?.resolution = 31
        n500.axes[EventUsage.absMTPositionY.code]?.resolution = 32
        n500.axes[EventUsage.absX.code]?.resolution = 31
        n500.axes[EventUsage.absY.code]?.resolution = 32
        #expect(database.quirks(for: n500).applyingResolution(to: n500) == n500)
        // Another maker's pad without a resolution is not matched.
        var other = dell
        other.name = "SynPS/2 Synaptics TouchPad"
        #expect(database.quirks(for: other) == DeviceQuirks())
        // A malformed hint is an error naming the line.
        let (_, bad) = QuirkDatabase.parse([("b.quirks", "[x]\nMatchName=*\nAttrResolutionHint=31\n")])
        #expect(bad.map(\.rendered).first?.contains("b.quirks:3") == true)
    }

    @Test("every condition must hold; later sections win; udev properties match")
    func matching() {
        let text = """
            [all synaptics]
            MatchName=SynPS/2*
            AttrPalmPressureThreshold=150
            [this one]
            MatchName=SynPS/2*
            MatchVendor=0x0002
            MatchProduct=0x0007
            MatchUdevProperty=ID_INPUT_TOUCHPAD=1
            AttrPalmPressureThreshold=120
            AttrPressureIsPressure=0
            """
        let (database, diagnostics) = QuirkDatabase.parse([("t.quirks", text)])
        #expect(diagnostics.isEmpty)
        let device = DeviceDescription(name: "SynPS/2 Synaptics TouchPad", bustype: 0x11, vendor: 2, product: 7, properties: [.pointer], axes: [:])
        #expect(database.quirks(for: device).palmPressure == 150)
        let both = database.quirks(for: device, udevProperties: ["ID_INPUT_TOUCHPAD": "1"])
        #expect(both.palmPressure == 120)
        #expect(both.pressureIsPressure == false)
        #expect(both.sources.count == 2)
        #expect(both.attributeLines == ["AttrPressureIsPressure=0", "AttrPalmPressureThreshold=120"])
    }

    @Test("a bad line is an error naming file:line:column and the section; a section without Match is refused")
    func errors() {
        let text = """
            [pad]
            MatchName=x
            AttrPalmPresureThreshold=1
            AttrBoxFilterSize=1
            [no match]
            AttrBoxFilterSize=1mm
            """
        let (database, diagnostics) = QuirkDatabase.parse([("bad.quirks", text)])
        #expect(
            diagnostics.map(\.rendered) == [
                "bad.quirks:3:1: error: [pad] AttrPalmPresureThreshold=: unknown key (did you mean 'AttrPalmPressureThreshold'?)",
                "bad.quirks:4:1: error: [pad] AttrBoxFilterSize=: length '1' needs a unit (write 1mm)",
                "bad.quirks:5:1: error: [no match] has no Match line (a quirk applies only to the devices it matches)",
            ])
        #expect(database.sections.isEmpty)
    }
}
