import Testing

@testable import GestureEngine

@Suite("Palm stage: palms by what a contact reports")
struct PalmStageTests {
    @Test("a finger in the middle passes; a palm-pressure contact is never delivered")
    func palmByPressure() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20), (2, .began, 30, 30, 200)])
        run.frame(0.20, [(1, .moved, 55, 30, 30), (2, .moved, 35, 30, 220)])
        run.frame(0.30, [(1, .ended, 55, 30, 30), (2, .ended, 35, 30, 220)])
        run.frame(0.40, [])
        #expect(run.phases == ["1 began", "1 moved", "1 ended"])
    }

    @Test("a finger whose pressure grows to a palm's is cancelled once, then ignored")
    func fingerTurnsPalm() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.20, [(1, .moved, 51, 30, 60)])
        run.frame(0.30, [(1, .moved, 52, 30, 250)])
        run.frame(0.40, [(1, .moved, 53, 30, 250)])
        run.frame(0.50, [(1, .ended, 53, 30, 250)])
        #expect(run.phases == ["1 began", "1 moved", "1 cancelled palm(.pressure)"])
    }

    @Test("the Cypress quirk's attributes make a contact landing at 63 a palm; without the quirk the same pad takes it")
    func cypressQuirk() {
        let settings = TouchFilterSettings().applying(cypressQuirks)
        #expect(settings.palmPressureAtBegin == 63)
        #expect(settings.palmReturnWait == 0.15)
        #expect(settings.sensorJumpStep == 1)
        #expect(settings.boxSize == 1)
        #expect(settings.dropsConfirmedMotion)
        var run = FilterRun(settings, device: cypressPad)
        run.frame(0.00, [(1, .began, 50, 30, 63), (2, .began, 20, 30, 12)])
        #expect(run.phases == ["2 began"])
        #expect(run.filter.table[TouchID(1)]?.palmReason == .landingPressure)
        // The device alone changes nothing: it is never recognized by its ranges.
        var plain = FilterRun(device: cypressPad)
        plain.frame(0.00, [(1, .began, 50, 30, 63), (2, .began, 20, 30, 12)])
        #expect(plain.phases == ["1 began", "2 began"])
    }

    @Test("a HID pad whose pressure spans 0…50 (contact area) has no palm by pressure and no too-light tap; a quirk can say it means pressure")
    func pressureScaleUnknown() {
        var hid = pad
        hid.axes[EventUsage.absMTPressure.code] = AxisInfo(minimum: 0, maximum: 50)
        // Fingers there read 30–40 (0.55 × 50 = 27.5 made every one a palm), and a light 5.
        var run = FilterRun(device: hid)
        run.frame(0.00, [(1, .began, 50, 30, 35), (2, .began, 70, 30, 5)])
        run.frame(0.05, [(1, .moved, 50, 30, 40), (2, .moved, 70, 30, 5)])
        run.frame(0.10, [(1, .ended, 50, 30, 40), (2, .ended, 70, 30, 5)])
        run.frame(0.30, [])
        #expect(run.phases == ["1 began", "2 began", "1 stationary", "2 stationary", "1 ended", "2 ended"])
        #expect(!TouchFilter(device: hid).judgesPressure)
        #expect(TouchFilter(device: pad).judgesPressure)
        var quirks = DeviceQuirks()
        quirks.pressureIsPressure = true
        quirks.palmPressure = 30
        var quirked = FilterRun(TouchFilterSettings().applying(quirks), device: hid)
        quirked.frame(0.00, [(1, .began, 50, 30, 35)])
        #expect(quirked.phases.isEmpty)
        quirks.pressureIsPressure = false
        #expect(!TouchFilter(device: pad, settings: TouchFilterSettings().applying(quirks)).judgesPressure)
    }

    @Test("a described pad without resolution is still judged by pressure (absolute units); inferred ranges are not")
    func pressureWithoutResolution() {
        var described = pad
        for code in [EventUsage.absMTPositionX.code, EventUsage.absMTPositionY.code] { described.axes[code]?.resolution = 0 }
        var run = FilterRun(device: described)
        run.frame(0.00, [(1, .began, 50, 30, 200)])
        #expect(run.phases.isEmpty)
        described.rangesAreInferred = true
        var inferred = FilterRun(device: described)
        inferred.frame(0.00, [(1, .began, 50, 30, 200)])
        #expect(inferred.phases == ["1 began"])
    }

    @Test("without a known resolution only jitter is filtered: no bands, no pressure test")
    func untrustedRanges() {
        var inferred = DeviceDescription(
            name: "inferred", properties: [.pointer], codes: [.btnToolFinger],
            axes: [
                EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 9),
                EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000),
                EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600),
                EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
            ])
        inferred.rangesAreInferred = true
        var run = FilterRun(device: inferred)
        run.frame(0.00, [(1, .began, 0.5, 95, 200)])
        run.frame(0.10, [(1, .moved, 10, 95, 200)])
        #expect(run.phases == ["1 began", "1 moved"])
    }

    // The stage alone, on a table set up by hand.

    @Test("alone: a landing reported as a palm tool is a palm, its reason the tool; a finger landing is left alone")
    func aloneLanding() {
        let stage = PalmStage(settings: TouchFilterSettings(), facts: FilterDeviceFacts(device: pad, pressureIsPressure: true))
        var frame = StageBench.frame(0)
        var palm = StageBench.step(StageBench.touch(1, .began, 50, 30, tool: .palm), StageBench.contact(at: 50, 30))
        stage.process(&palm, in: &frame)
        #expect(palm.contact.role == .palm)
        #expect(palm.contact.palmReason == .tool)
        var finger = StageBench.step(StageBench.touch(2, .began, 20, 30, pressure: 40), StageBench.contact(at: 20, 30))
        stage.process(&finger, in: &frame)
        #expect(finger.contact.role == .finger)
        #expect(frame.table.pressureSeen)
    }

    @Test("alone: a finger pressing like a palm is withdrawn once, cancelled with its reason")
    func aloneWithdrawn() {
        let stage = PalmStage(settings: TouchFilterSettings(), facts: FilterDeviceFacts(device: pad, pressureIsPressure: true))
        var frame = StageBench.frame(0.1)
        var step = StageBench.step(StageBench.touch(1, .moved, 52, 30, pressure: 250), StageBench.contact(at: 50, 30))
        stage.process(&step, in: &frame)
        #expect(step.contact.role == .palm)
        #expect(step.state == .done)
        #expect(frame.out.map(\.phase) == [.cancelled])
        #expect(frame.out.first?.flags.palm == .pressure)
    }

    @Test("alone: a palm lifting is remembered; a contact landing there soon after is a palm; the memory fades")
    func aloneMemory() {
        var settings = TouchFilterSettings()
        settings.palmMemoryTime = 0.5
        let stage = PalmStage(settings: settings, facts: FilterDeviceFacts(device: pad, pressureIsPressure: true))
        var frame = StageBench.frame(1)
        var lift = StageBench.step(StageBench.touch(1, .ended, 50, 30), StageBench.contact(.palm, at: 50, 30))
        stage.process(&lift, in: &frame)
        #expect(frame.table.palmMemory.count == 1)
        var again = StageBench.frame(1.2, table: frame.table)
        var landing = StageBench.step(StageBench.touch(2, .began, 55, 30, pressure: 30), StageBench.contact(at: 55, 30))
        stage.process(&landing, in: &again)
        #expect(landing.contact.palmReason == .palmMemory)
        var later = StageBench.frame(1.6, table: again.table)
        stage.end(&later)
        #expect(later.table.palmMemory.isEmpty)
    }
}
