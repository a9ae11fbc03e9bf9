import Testing

@testable import GestureEngine

/// A 100 × 60 mm clickpad (10 units/mm) with a 0…255 pressure axis.
let pad = DeviceDescription(
    name: "test pad",
    properties: [.pointer, .buttonpad],
    codes: [.btnToolFinger, .btnLeft],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 9),
        EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ]
)

/// The same pad tracking only two slots, counting up to four fingers (a Cr-48-class pad).
let twoSlotPad = DeviceDescription(
    name: "two-slot pad",
    properties: [.pointer],
    codes: [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 1),
        EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ]
)

/// A two-slot semi-MT pad (`INPUT_PROP_SEMI_MT`: the slots carry the fingers' bounding box),
/// like the ALPS and Cypress PS/2 pads of evemu-devices.
let semiMTPad = DeviceDescription(
    name: "semi-MT pad",
    properties: [.pointer, .semiMT],
    codes: [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 1),
        EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ]
)

/// The Cypress pad of the 2012 Chromebooks as its description reads (1280 × 680, 12/10
/// units/mm, pressure 0…255), named as the kernel names it.
private let cypressPad = DeviceDescription(
    name: "Cypress APA Trackpad (cyapa)", properties: [.pointer],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 14),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1280, resolution: 12),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 680, resolution: 10),
        EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
    ])

/// What config/quirks/50-cypress-cyapa.quirks says about that pad (GesturedConfigTests check
/// the file parses to this).
let cypressQuirks: DeviceQuirks = {
    var quirks = DeviceQuirks()
    quirks.palmPressureAtLanding = 63
    quirks.palmReturnWait = 0.15
    quirks.sensorJumpStep = 1
    quirks.boxSize = 1
    quirks.dropsConfirmedMotion = true
    return quirks
}()

/// Builds assembler-like frames touch by touch (positions in mm, times in s) and runs them
/// through a filter, keeping every delivered touch.
struct FilterRun {
    var filter: TouchFilter
    var positions: [UInt64: PhysicalPoint] = [:]
    var starts: [UInt64: (PhysicalPoint, Timestamp)] = [:]
    /// Delivered touches, frame by frame (nil = frame dropped).
    var delivered: [[Touch]?] = []
    /// Touch major (mm) reported for a touch id from now on.
    var majors: [UInt64: Double] = [:]

    init(_ settings: TouchFilterSettings = TouchFilterSettings(), device: DeviceDescription = pad) {
        filter = TouchFilter(device: device, settings: settings)
    }

    /// One frame: `touches` lists (id, phase, x, y, pressure).
    mutating func frame(_ t: Double, _ touches: [(UInt64, TouchPhase, Double, Double, Int32?)], button: Bool = false, count: Int? = nil) {
        let time = Timestamp(seconds: t)
        var list: [Touch] = []
        for (id, phase, x, y, pressure) in touches {
            let position = PhysicalPoint(x: x, y: y)
            if phase == .began { starts[id] = (position, time) }
            let start = starts[id] ?? (position, time)
            list.append(
                Touch(
                    id: TouchID(id), phase: phase, position: position, previousPosition: positions[id] ?? position,
                    startPosition: start.0, startTime: start.1, pressure: pressure, touchMajorMillimeters: majors[id]))
            positions[id] = position
        }
        let frame = Frame(timestamp: time, touches: list, fingerCount: count, isButtonPressed: button)
        if let lifts = filter.flush(before: frame) { delivered.append(lifts.touches) }
        delivered.append(filter.filter(frame)?.touches)
    }

    /// Every delivered (id, phase, flags) in order: `1 ended noTap(.afterScroll)`.
    var phases: [String] {
        delivered.compactMap { $0 }.flatMap { $0 }.map { touch in
            let flags = touch.flags.isEmpty ? "" : " \(touch.flags)"
            return "\(touch.id.rawValue) \(touch.phase.rawValue)\(flags)"
        }
    }
}

@Suite("Touch filter")
struct FilterTests {
    @Test("semi-MT: the box's leap when the finger count changes is no motion; motion after it is")
    func semiMTCountChange() {
        var settings = TouchFilterSettings()
        settings.palmConfirmTime = 0
        var run = FilterRun(settings, device: semiMTPad)
        run.frame(0.00, [(1, .began, 30, 30, 40)], count: 1)
        run.frame(0.02, [(1, .moved, 24, 30, 40), (2, .began, 60, 40, 40)], count: 2)
        run.frame(0.04, [(1, .moved, 22, 30, 40), (2, .moved, 60, 40, 40)], count: 2)
        // The second finger lifts: the corner leaps back; then both lift.
        run.frame(0.06, [(1, .moved, 29, 31, 40), (2, .ended, 60, 40, 40)], count: 1)
        run.frame(0.08, [(1, .ended, 29, 31, 40)], count: 0)
        run.frame(0.30, [], count: 0)
        let first = run.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id == TouchID(1) }.map(\.position.x)
        #expect(first == [30, 30, 28, 28, 28], "\(first)")
        // Not semi-MT: the same steps are motion.
        var plain = FilterRun(settings, device: twoSlotPad)
        plain.frame(0.00, [(1, .began, 30, 30, 40)], count: 1)
        plain.frame(0.02, [(1, .moved, 24, 30, 40), (2, .began, 60, 40, 40)], count: 2)
        let moved = plain.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id == TouchID(1) }.map(\.position.x)
        #expect(moved == [30, 24], "\(moved)")
    }

    @Test("position hysteresis holds a wobbling contact still, passes a moving one through, rests again")
    func hysteresis() {
        var h = PositionHysteresis(radius: 0.5, position: PhysicalPoint(x: 10, y: 10))
        #expect(h.update(PhysicalPoint(x: 10.3, y: 10.2)) == PhysicalPoint(x: 10, y: 10))
        #expect(h.update(PhysicalPoint(x: 9.8, y: 9.7)) == PhysicalPoint(x: 10, y: 10))
        #expect(h.update(PhysicalPoint(x: 12, y: 10)) == PhysicalPoint(x: 12, y: 10))
        #expect(h.isMoving)
        #expect(h.update(PhysicalPoint(x: 12.2, y: 10)) == PhysicalPoint(x: 12.2, y: 10))
        #expect(h.update(PhysicalPoint(x: 12.21, y: 10)) == PhysicalPoint(x: 12.21, y: 10))
        #expect(!h.isMoving)
        #expect(h.update(PhysicalPoint(x: 12.5, y: 10)) == PhysicalPoint(x: 12.21, y: 10))
    }

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

    @Test("with dropsConfirmedMotion a contact confirmed moves on from where it landed, alone or joined by a second finger")
    func confirmedMotionDropped() {
        let settings = TouchFilterSettings.changing { $0.dropsConfirmedMotion = true }
        var run = FilterRun(settings)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.10, [(1, .moved, 55, 30, 20)])
        run.frame(0.20, [(1, .moved, 56, 30, 20)])
        run.frame(0.25, [(1, .moved, 60, 30, 20)])
        let positions = run.delivered.compactMap { $0 }.flatMap { $0 }.map(\.position.x)
        // Held at 50 until 0.15 s; the 6 mm moved by then are dropped, the 4 mm after come.
        #expect(positions == [50, 50, 50, 54])
        // A second finger landing ends the confirmation early: the first drops what it moved
        // while held back too, and moves on with the second.
        var pair = FilterRun(settings)
        pair.frame(0.00, [(1, .began, 50, 30, 20)])
        pair.frame(0.10, [(1, .moved, 55, 30, 20), (2, .began, 30, 30, 20)])
        pair.frame(0.12, [(1, .moved, 56, 30, 20), (2, .moved, 31, 30, 20)])
        pair.frame(0.14, [(1, .moved, 60, 30, 20), (2, .moved, 35, 30, 20)])
        let first = pair.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id == TouchID(1) }.map(\.position.x)
        #expect(first == [50, 50, 50, 54])
        // Without the setting the held motion comes through at once.
        var keep = FilterRun()
        keep.frame(0.00, [(1, .began, 50, 30, 20)])
        keep.frame(0.10, [(1, .moved, 55, 30, 20), (2, .began, 30, 30, 20)])
        keep.frame(0.12, [(1, .moved, 56, 30, 20), (2, .moved, 31, 30, 20)])
        let kept = keep.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id == TouchID(1) }.map(\.position.x)
        #expect(kept.last == 56)
    }

    @Test("a new contact's motion waits palmConfirmTime (pressure range known): a palm moves nothing")
    func palmConfirmation() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.05, [(1, .moved, 54, 30, 90)])
        run.frame(0.10, [(1, .moved, 58, 30, 250)])
        let positions = run.delivered.compactMap { $0 }.flatMap { $0 }.map(\.position.x)
        #expect(positions == [50, 50, 50])
        #expect(run.phases == ["1 began", "1 stationary", "1 cancelled palm(.pressure)"])
    }

    @Test("an edge-band contact is held back: leaving the band in time makes a finger, staying makes a palm")
    func edgeBand() {
        var run = FilterRun()
        // Bands: 8 % of 100 mm = 8 mm on each side.
        run.frame(0.00, [(1, .began, 3, 30, 20), (2, .began, 97, 10, 20)])
        run.frame(0.10, [(1, .moved, 12, 30, 20), (2, .moved, 96, 10, 20)])
        run.frame(0.35, [(1, .moved, 20, 30, 20), (2, .moved, 80, 10, 20)])
        run.frame(0.50, [(1, .ended, 20, 30, 20), (2, .ended, 80, 10, 20)])
        run.frame(0.60, [])
        #expect(run.phases == ["1 began", "1 moved", "1 ended"])
    }

    @Test("on a pad measuring contact size, a finger-sized contact resting in the edge band is a finger when it leaves")
    func edgeFingerBySize() {
        var run = FilterRun()
        run.majors = [1: 12, 2: 20]
        // Both rest 0.5 s in the bands, then move toward the middle: 1 measures 12 mm (a
        // fingertip), 2 measures 20 mm (a palm edge, below the 25 mm palm size).
        run.frame(0.00, [(1, .began, 3, 30, 20), (2, .began, 97, 30, 20)])
        run.frame(0.50, [(1, .moved, 4, 30, 20), (2, .moved, 96, 30, 20)])
        run.frame(0.60, [(1, .moved, 20, 30, 20), (2, .moved, 80, 30, 20)])
        #expect(run.phases == ["1 began"])
        // Without a size (a pad that reports none), the release time alone decides.
        var unsized = FilterRun()
        unsized.frame(0.00, [(1, .began, 3, 30, 20)])
        unsized.frame(0.50, [(1, .moved, 4, 30, 20)])
        unsized.frame(0.60, [(1, .moved, 20, 30, 20)])
        #expect(unsized.phases.isEmpty)
    }

    @Test("two contacts landing together in one edge band are two fingers (a scroll from the edge)")
    func edgePair() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 97, 20, 20), (2, .began, 97, 40, 20)])
        run.frame(0.50, [(1, .moved, 96, 20, 20), (2, .moved, 96, 40, 20)])
        #expect(run.phases == ["1 began", "2 began"])
    }

    @Test("a hand landing — a quick touch in the middle with a contact landing in the edge band 40 mm away — is no tap")
    func handLandingIsNoTap() {
        // 2 lands 20 ms after 1, in the right band, 40 mm away (beyond the 35 mm of a pair):
        // held back; 1 lifts after 100 ms while 2 is still held: cancelled, not a tap.
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 57, 30, 20)])
        run.frame(0.02, [(1, .stationary, 57, 30, 30), (2, .began, 96, 38, 10)])
        run.frame(0.10, [(1, .ended, 57, 30, 30), (2, .moved, 96, 39, 20)])
        run.frame(0.30, [(2, .moved, 96, 40, 20)])
        run.frame(0.40, [(2, .ended, 96, 40, 20)])
        run.frame(1.00, [])
        #expect(run.phases.last == "1 ended noTap(.handLanding)")
        #expect(!run.phases.contains("2 began"))
        // The same tap with the edge contact landing 0.3 s later (a resting palm is no part of
        // the tap's landing): the tap ends.
        var later = FilterRun()
        later.frame(0.00, [(2, .began, 96, 38, 10)])
        later.frame(0.30, [(1, .began, 57, 30, 20), (2, .moved, 96, 39, 20)])
        later.frame(0.40, [(1, .ended, 57, 30, 30), (2, .moved, 96, 40, 20)])
        later.frame(1.00, [])
        #expect(later.phases.last == "1 ended")
        // 30 mm apart they are a pair: both fingers.
        var pair = FilterRun()
        pair.frame(0.00, [(1, .began, 66, 30, 20)])
        pair.frame(0.02, [(1, .stationary, 66, 30, 30), (2, .began, 96, 30, 10)])
        pair.frame(0.10, [(1, .stationary, 66, 30, 30), (2, .stationary, 96, 30, 20)])
        #expect(pair.phases.contains("2 began"))
    }

    @Test("a contact landing in the top band is held back: along the edge it stays a palm, down out of it in time it is a finger")
    func topEdgeBand() {
        // Top band: 5 % of 60 mm = 3 mm (the pad is taller than 55 mm).
        var run = FilterRun()
        // 1 slides along the top edge (a ghost beside a palm on a Cypress pad); 2 lands in
        // the band and comes down into the pad within 0.2 s.
        run.frame(0.00, [(1, .began, 20, 1, 20)])
        run.frame(0.10, [(1, .moved, 40, 1.5, 20)])
        run.frame(0.30, [(1, .moved, 60, 1, 20)])
        run.frame(0.40, [(1, .ended, 60, 1, 20)])
        run.frame(1.50, [(2, .began, 50, 1, 20)])
        run.frame(1.60, [(2, .moved, 50, 10, 20)])
        run.frame(1.70, [(2, .ended, 50, 20, 20)])
        run.frame(1.80, [])
        #expect(run.phases == ["2 began", "2 ended"])
        // A band 0 long (off), or a pad 55 mm high or less, holds nothing back there.
        var off = FilterRun(TouchFilterSettings.changing { $0.topEdgeBandFraction = 0 })
        off.frame(0.00, [(1, .began, 20, 1, 20)])
        off.frame(0.40, [(1, .moved, 60, 1, 20)])
        #expect(off.phases == ["1 began", "1 moved"])
        var low = FilterRun(TouchFilterSettings.changing { $0.topEdgeMinimumHeight = 60 })
        low.frame(0.00, [(1, .began, 20, 1, 20)])
        #expect(low.phases == ["1 began"])
    }

    @Test("a finger landing in the top band beside another finger landing is a finger (a scroll down from the edge)")
    func topEdgePair() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 0.5, 20)])
        run.frame(0.02, [(1, .stationary, 50, 0.5, 20), (2, .began, 50, 20, 20)])
        run.frame(0.30, [(1, .moved, 50, 2, 20), (2, .moved, 50, 22, 20)])
        #expect(run.phases.prefix(2) == ["2 began", "1 began"])
        // Far apart (a ghost at the top edge beside a palm) they are not a pair.
        var far = FilterRun()
        far.frame(0.00, [(1, .began, 80, 40, 20)])
        far.frame(0.04, [(1, .stationary, 80, 40, 20), (2, .began, 30, 0.5, 20)])
        far.frame(0.30, [(1, .stationary, 80, 40, 20), (2, .moved, 35, 1, 20)])
        #expect(!far.phases.contains("2 began"))
    }

    @Test("a contact seen once and down less than 25 ms alone is no tap; beside another finger, longer, or seen again, it taps")
    func briefLoneContact() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 40)])
        run.frame(0.016, [(1, .ended, 50, 30, 40)])
        run.frame(0.10, [])
        #expect(run.phases == ["1 began", "1 ended noTap(.glitch)"])
        // 30 ms: a (very short) tap.
        var longer = FilterRun()
        longer.frame(0.00, [(1, .began, 50, 30, 40)])
        longer.frame(0.030, [(1, .ended, 50, 30, 40)])
        longer.frame(0.10, [])
        #expect(longer.phases == ["1 began", "1 ended"])
        // 14 ms but reported in three frames (a fast pad): a tap.
        var fast = FilterRun()
        fast.frame(0.000, [(1, .began, 50, 30, 40)])
        fast.frame(0.007, [(1, .stationary, 50, 30, 40)])
        fast.frame(0.014, [(1, .ended, 50, 30, 40)])
        fast.frame(0.10, [])
        #expect(fast.phases == ["1 began", "1 stationary", "1 ended"])
        // The second finger of a two-finger tap, seen once while the first is down or its
        // lift is still held back.
        var pair = FilterRun()
        pair.frame(0.00, [(1, .began, 40, 30, 40)])
        pair.frame(0.040, [(1, .ended, 40, 30, 40), (2, .began, 60, 30, 40)])
        pair.frame(0.056, [(2, .ended, 60, 30, 40)])
        pair.frame(0.15, [])
        #expect(pair.phases == ["1 began", "2 began", "1 ended", "2 ended"])
        // Off: the brief touch taps.
        var off = FilterRun(TouchFilterSettings.changing { $0.minimumLoneTapDuration = 0 })
        off.frame(0.00, [(1, .began, 50, 30, 40)])
        off.frame(0.016, [(1, .ended, 50, 30, 40)])
        off.frame(0.10, [])
        #expect(off.phases == ["1 began", "1 ended"])
    }

    @Test("a contact in a side band landing with a finger just outside it is a finger; a lone one stays held")
    func edgePartnerOutsideBand() {
        var run = FilterRun()
        // 1 in the right band (x > 92 mm), 2 lands 0.4 mm outside it 30 ms later, 25 mm below.
        run.frame(0.00, [(1, .began, 95, 20, 20)])
        run.frame(0.03, [(1, .stationary, 95, 20, 20), (2, .began, 91.6, 45, 20)])
        run.frame(0.30, [(1, .moved, 94, 20, 20), (2, .moved, 90.6, 45, 20)])
        #expect(run.phases.contains("1 began"))
        var lone = FilterRun()
        lone.frame(0.00, [(1, .began, 95, 20, 20)])
        lone.frame(0.30, [(1, .moved, 94, 20, 20)])
        #expect(!lone.phases.contains("1 began"))
    }

    @Test("a quick touch in a band while a palm is on the pad is no tap")
    func noBandTapBesidePalm() {
        var run = FilterRun()
        // A palm (palm pressure) rests in the middle; a light touch brushes the left band.
        run.frame(0.00, [(1, .began, 50, 30, 200)])
        run.frame(0.50, [(1, .stationary, 50, 30, 200), (2, .began, 3, 30, 20)])
        run.frame(0.56, [(1, .stationary, 50, 30, 200), (2, .ended, 3, 30, 20)])
        run.frame(0.70, [(1, .stationary, 50, 30, 200)])
        #expect(run.phases.isEmpty)
    }

    @Test("a quick still touch in a band is delivered after all, as a tap there")
    func tapInBand() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 3, 30, 20)])
        run.frame(0.08, [(1, .ended, 3.5, 30, 20)])
        // Delivered when its lift comes due (liftDelay), in case it comes back.
        #expect(run.phases.isEmpty)
        run.frame(0.20, [])
        #expect(run.phases == ["1 began", "1 ended"])
        let touches = run.delivered.compactMap { $0 }.flatMap { $0 }
        #expect(touches.first?.startTime == Timestamp(seconds: 0))
    }

    @Test("a thumb resting in the bottom band is never seen while a finger works; leaving upward it is")
    func thumbBand() {
        var run = FilterRun()
        // Band: 15 % of 60 mm = 9 mm at the bottom (y > 51 mm).
        run.frame(0.00, [(1, .began, 40, 56, 20)])
        run.frame(0.50, [(1, .moved, 60, 57, 20), (2, .began, 50, 20, 20)])
        run.frame(0.80, [(1, .moved, 62, 57, 20), (2, .moved, 50, 30, 20)])
        run.frame(1.00, [(1, .moved, 62, 45, 20), (2, .moved, 50, 35, 20)])
        #expect(run.phases == ["2 began", "2 moved", "1 began", "2 moved"])
    }

    @Test("a thumb sliding along the band a little above it stays held back; rising past the exit line it is a finger")
    func thumbExitLine() {
        var run = FilterRun()
        // Band: y > 51 mm (15 %); exit line: y < 48 mm (20 % of 60 mm).
        run.frame(0.00, [(1, .began, 20, 56, 20)])
        run.frame(0.20, [(1, .moved, 30, 52, 20)])
        run.frame(0.40, [(1, .moved, 45, 49, 20)])
        run.frame(0.60, [(1, .moved, 60, 50, 20)])
        #expect(run.phases.isEmpty)
        run.frame(0.80, [(1, .moved, 60, 40, 20)])
        #expect(run.phases == ["1 began"])
    }

    @Test("a finger dropped for a frame continues: no lift, no new touch")
    func reappearingFinger() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.20, [(1, .ended, 50, 30, 20)])
        run.frame(0.22, [(2, .began, 51, 30, 20)])
        run.frame(0.40, [(2, .moved, 55, 30, 20)])
        #expect(run.phases == ["1 began", "1 moved", "1 moved"])
        #expect(run.filter.nextDeadline == nil)
    }

    @Test("a lift is delivered liftDelay later, through nextDeadline and flush")
    func delayedLift() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.20, [(1, .ended, 50, 30, 20)])
        #expect(run.phases == ["1 began"])
        let deadline = run.filter.nextDeadline
        #expect(deadline == Timestamp(seconds: 0.24))
        let lifted = run.filter.flush(upTo: Timestamp(seconds: 0.24))
        #expect(lifted?.timestamp == Timestamp(seconds: 0.24))
        #expect(lifted?.touches.map(\.phase) == [.ended])
        #expect(run.filter.nextDeadline == nil)
    }

    @Test("a contact that keeps vanishing and coming back is a palm, and so is one landing where it was")
    func flickeringPalm() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 30, 30, 20)])
        run.frame(0.03, [(1, .ended, 30, 30, 20)])
        run.frame(0.05, [(2, .began, 30, 30, 20)])
        run.frame(0.08, [(2, .ended, 30, 30, 20)])
        run.frame(0.10, [(3, .began, 30, 31, 20)])
        run.frame(0.12, [(3, .ended, 30, 31, 20)])
        run.frame(0.30, [(4, .began, 31, 30, 20)])
        run.frame(0.35, [(4, .ended, 31, 30, 20)])
        run.frame(0.50, [])
        #expect(run.phases == ["1 began", "1 stationary", "1 cancelled palm(.flicker)"])
    }

    @Test("a pad counting more fingers than its slots gets fake ones following the topmost finger")
    func fakeFingers() throws {
        var run = FilterRun(device: twoSlotPad)
        // A palm (pressure 200) takes slot 0, one scrolling finger slot 1; the pad counts
        // three: the untracked second finger is a fake copy of the tracked one.
        run.frame(0.00, [(1, .began, 30, 20, 200)], count: 1)
        run.frame(0.20, [(1, .moved, 30, 20, 200), (2, .began, 60, 40, 30)], count: 3)
        run.frame(0.25, [(1, .moved, 30, 20, 200), (2, .moved, 60, 35, 30)], count: 3)
        run.frame(0.30, [(1, .moved, 30, 20, 200), (2, .moved, 60, 30, 30)], count: 2)
        // The fake's lift waits liftDelay, like a real finger's.
        run.frame(0.40, [(1, .moved, 30, 20, 200), (2, .moved, 60, 30, 30)], count: 2)
        let touches = run.delivered.compactMap { $0 }.flatMap { $0 }
        let fakes = touches.filter { $0.id.rawValue != 2 }
        #expect(touches.contains { $0.id.rawValue == 2 && $0.phase == .began })
        #expect(fakes.map(\.phase) == [.began, .moved, .ended])
        #expect(fakes.map(\.position) == [PhysicalPoint(x: 60, y: 40), PhysicalPoint(x: 60, y: 35), PhysicalPoint(x: 60, y: 35)])
        // Off: nothing but the tracked finger.
        var off = FilterRun(TouchFilterSettings.changing { $0.synthesizesUntrackedFingers = false }, device: twoSlotPad)
        off.frame(0.00, [(1, .began, 30, 20, 200)], count: 1)
        off.frame(0.20, [(1, .moved, 30, 20, 200), (2, .began, 60, 40, 30)], count: 3)
        #expect(off.phases == ["2 began"])
    }

    @Test("of two fingers at the same height the fake follows the older one, whatever the table's order")
    func fakeFingerTieBreak() {
        // Two slots, both fingers at y = 30, the pad counts three: the fake copies the finger
        // with the lower id. Several id pairs, so that a dictionary's order (fixed within one
        // process) cannot happen to agree with the ids for all of them.
        for (older, newer) in [(2, 3), (5, 9), (4, 17), (8, 6), (11, 30), (12, 7), (21, 22), (40, 13)] {
            let (a, b) = (UInt64(min(older, newer)), UInt64(max(older, newer)))
            var run = FilterRun(device: twoSlotPad)
            run.frame(0.00, [(a, .began, 34, 30, 40), (b, .began, 64, 30, 40)], count: 2)
            run.frame(0.05, [(a, .moved, 34, 30, 40), (b, .moved, 64, 30, 40)], count: 3)
            let fake = run.delivered.compactMap { $0 }.flatMap { $0 }.first { $0.id.rawValue >= FakeFingerStage.idBase }
            #expect(fake?.position == PhysicalPoint(x: 34, y: 30), "ids \(a), \(b)")
        }
    }

    @Test("a single-touch pad counting two fingers (BTN_TOOL_DOUBLETAP) gets the second as a fake")
    func singleTouchFakeFinger() {
        let singleTouch = DeviceDescription(
            name: "single-touch pad", properties: [.pointer], codes: [.btnToolFinger, .btnToolDoubleTap, .btnTouch],
            axes: [
                EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
                EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
                EventUsage.absPressure.code: AxisInfo(minimum: 0, maximum: 255),
            ])
        var run = FilterRun(device: singleTouch)
        run.frame(0.00, [(1, .began, 50, 30, 30)], count: 2)
        run.frame(0.05, [(1, .moved, 50, 25, 30)], count: 2)
        #expect(run.phases == ["1 began", "4611686018427387904 began", "1 moved", "4611686018427387904 moved"])
    }

    @Test("no fake finger while the slots are not all taken, nor without a finger to copy")
    func noFakeFingers() {
        var run = FilterRun(device: twoSlotPad)
        // Counted three, one slot reported (a transition frame): libinput fakes only beyond
        // the slots, and here the only contact is a palm.
        run.frame(0.00, [(1, .began, 30, 20, 200)], count: 3)
        run.frame(0.05, [(1, .moved, 30, 20, 200), (2, .began, 60, 40, 200)], count: 3)
        #expect(run.phases.isEmpty)
    }

    @Test("of two close fingers in the thumb band, the one the sensor keeps losing neither taps nor turns palm")
    func flickeringCandidate() {
        var run = FilterRun()
        // Band: y > 51 mm. Contact 1 rests there; a finger beside it comes and goes each
        // 50 ms; then a finger lands above the band where the flickering one was.
        run.frame(0.00, [(1, .began, 40, 56, 20)])
        run.frame(0.01, [(1, .moved, 40, 56, 20), (2, .began, 55, 56, 20)])
        run.frame(0.06, [(1, .moved, 40, 56, 20), (2, .ended, 55, 56, 20)])
        run.frame(0.08, [(1, .moved, 40, 56, 20), (3, .began, 55, 56.5, 20)])
        run.frame(0.13, [(1, .moved, 40, 56, 20), (3, .ended, 55, 56.5, 20)])
        run.frame(0.15, [(1, .moved, 40, 56, 20), (4, .began, 55, 56, 20)])
        run.frame(0.20, [(1, .moved, 40, 56, 20), (4, .ended, 55, 56, 20)])
        run.frame(0.30, [(1, .moved, 40, 56, 20), (5, .began, 55, 45, 20)])
        run.frame(0.50, [(1, .moved, 40, 56, 20), (5, .moved, 55, 40, 20)])
        #expect(run.phases == ["5 began", "5 moved"])
    }

    @Test("a short touch during or just after a scroll is no tap (afterScroll); one later ends as a tap")
    func noTapAroundScroll() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 40, 20, 20), (2, .began, 60, 20, 20)])
        run.frame(0.10, [(1, .moved, 40, 25, 20), (2, .moved, 60, 25, 20)])
        run.frame(0.20, [(1, .moved, 40, 30, 20), (2, .moved, 60, 30, 20), (3, .began, 50, 45, 20)])
        run.frame(0.28, [(1, .moved, 40, 35, 20), (2, .moved, 60, 35, 20), (3, .ended, 50, 45, 20)])
        run.frame(0.30, [(1, .ended, 40, 35, 20), (2, .ended, 60, 35, 20)])
        run.frame(0.45, [(4, .began, 50, 30, 20)])
        run.frame(0.52, [(4, .ended, 50, 30, 20)])
        run.frame(1.00, [(5, .began, 50, 30, 20)])
        run.frame(1.07, [(5, .ended, 50, 30, 20)])
        run.frame(1.50, [])
        let ends = run.phases.filter { $0.contains(" ended") || $0.contains(" cancelled") }
        #expect(ends == ["1 ended", "2 ended", "3 ended noTap(.afterScroll)", "4 ended noTap(.afterScroll)", "5 ended"])
    }

    @Test("a touch too light to tap (a hovering thumb brushing the pad) is no tap (tooLight); a finger tap ends")
    func tooLightToTap() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 4)])
        run.frame(0.05, [(1, .moved, 50, 30, 8)])
        run.frame(0.08, [(1, .ended, 50, 30, 8)])
        run.frame(0.50, [(2, .began, 50, 30, 10)])
        run.frame(0.55, [(2, .moved, 50, 30, 27)])
        run.frame(0.58, [(2, .ended, 50, 30, 27)])
        run.frame(1.00, [])
        #expect(run.phases == ["1 began", "1 stationary", "1 ended noTap(.tooLight)", "2 began", "2 stationary", "2 ended"])
        // A pad that declares pressure but never sends it (every contact at the kernel's
        // initial 0) is not judged: its taps end.
        var silent = FilterRun()
        silent.frame(0.00, [(1, .began, 50, 30, 0)])
        silent.frame(0.05, [(1, .moved, 50, 30, 0)])
        silent.frame(0.08, [(1, .ended, 50, 30, 0)])
        silent.frame(0.50, [])
        #expect(silent.phases == ["1 began", "1 stationary", "1 ended"])
        // A contact whose slot never sent a pressure (nil) pressed the kernel's initial 0, once
        // the pad's pressure channel is known to work: no tap (delivered here with the
        // unknown-pressure hold off; with it on, such a contact is not delivered at all).
        var unsent = FilterRun(TouchFilterSettings.changing { $0.holdsUnknownPressure = false })
        unsent.frame(0.00, [(1, .began, 50, 30, 40)])
        unsent.frame(0.05, [(1, .ended, 50, 30, 40)])
        unsent.frame(0.50, [(2, .began, 20, 30, nil)])
        unsent.frame(0.55, [(2, .stationary, 20, 30, nil)])
        unsent.frame(0.58, [(2, .ended, 20, 30, nil)])
        unsent.frame(1.00, [])
        #expect(unsent.phases == ["1 began", "1 ended", "2 began", "2 stationary", "2 ended noTap(.tooLight)"])
    }

    @Test("a contact down only while the pad said nothing touches (BTN_TOUCH up) is hovering: no tap")
    func hoveringContactDoesNotTap() {
        // A tap with BTN_TOUCH down, then a contact the pad reports with BTN_TOUCH and every
        // BTN_TOOL_* up (finger count 0), as samus does after a tap-click: no second tap.
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 40)], count: 1)
        run.frame(0.05, [(1, .ended, 50, 30, 40)], count: 0)
        run.frame(0.11, [(2, .began, 51, 30, 40)], count: 0)
        run.frame(0.15, [(2, .moved, 51.5, 30, 40)], count: 0)
        run.frame(0.19, [(2, .ended, 51.5, 30, 40)], count: 0)
        run.frame(0.50, [])
        let ends = run.phases.filter { $0.contains(" ended") || $0.contains(" cancelled") }
        #expect(ends == ["1 ended", "2 ended noTap(.hovering)"])
        // The same contact touching in one of its frames (the key came a frame late) taps, and
        // a device that reports no finger count is not judged.
        var late = FilterRun()
        late.frame(0.00, [(1, .began, 50, 30, 40)], count: 0)
        late.frame(0.03, [(1, .stationary, 50, 30, 40)], count: 1)
        late.frame(0.08, [(1, .ended, 50, 30, 40)], count: 0)
        late.frame(0.50, [])
        #expect(late.phases.last == "1 ended")
        var silent = FilterRun()
        silent.frame(0.00, [(1, .began, 50, 30, 40)])
        silent.frame(0.08, [(1, .ended, 50, 30, 40)])
        silent.frame(0.50, [])
        #expect(silent.phases.last == "1 ended")
    }

    @Test("a contact split off a thumb (landing as the thumb loses half its pressure, 10 mm away) makes no tap")
    func splitFragmentDoesNotTap() {
        // A thumb dragged along at pressure 130; the sensor reports a second contact 10 mm
        // below it for two frames, the thumb dropping to 63 meanwhile.
        func drag(second: Int32, thumbAfter: Int32) -> FilterRun {
            var run = FilterRun()
            run.frame(0.00, [(1, .began, 20, 34, 40)])
            for (i, x) in [22.0, 24, 26, 28, 30].enumerated() { run.frame(0.05 + Double(i) * 0.05, [(1, .moved, x, 34, 130)]) }
            run.frame(0.30, [(1, .moved, 31, 34, thumbAfter), (2, .began, 31, 44, second)])
            run.frame(0.31, [(1, .moved, 32, 34, thumbAfter), (2, .stationary, 31, 44, second)])
            run.frame(0.33, [(1, .moved, 33, 34, 130), (2, .ended, 31, 44, second)])
            run.frame(0.50, [(1, .moved, 40, 34, 130)])
            run.frame(0.60, [(1, .ended, 40, 34, 130)])
            run.frame(1.00, [])
            return run
        }
        let split = drag(second: 60, thumbAfter: 63)
        #expect(split.phases.contains("2 ended noTap(.split)"))
        #expect(!split.phases.contains("2 ended"))
        // A finger tapping beside the thumb takes no pressure from it: its tap ends.
        let tap = drag(second: 60, thumbAfter: 128)
        #expect(tap.phases.contains("2 ended"))
        // Off (a drop of 0): the fragment taps.
        var off = FilterRun(TouchFilterSettings.changing { $0.splitPressureDrop = 0 })
        off.frame(0.00, [(1, .began, 20, 34, 40)])
        off.frame(0.20, [(1, .moved, 30, 34, 130)])
        off.frame(0.30, [(1, .moved, 31, 34, 63), (2, .began, 31, 44, 60)])
        off.frame(0.33, [(1, .moved, 33, 34, 130), (2, .ended, 31, 44, 60)])
        off.frame(0.60, [(1, .ended, 40, 34, 130)])
        off.frame(1.00, [])
        #expect(off.phases.contains("2 ended"))
    }

    @Test("a contact gone while the pad's finger count does not drop was lost by the tracking: no tap")
    func lostContactDoesNotTap() {
        // A two-slot pad: a finger rests (1); a second finger (2) is tracked for 60 ms, then
        // the pad follows a third one it cannot place and counts three: 2 did not lift.
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 60, 30, 40)], count: 1)
        run.frame(0.50, [(1, .stationary, 60, 30, 40), (2, .began, 30, 30, 40)], count: 2)
        run.frame(0.53, [(1, .stationary, 60, 30, 40), (2, .stationary, 30, 30, 40)], count: 2)
        run.frame(0.56, [(1, .stationary, 60, 30, 40), (2, .ended, 30, 30, 40)], count: 3)
        run.frame(1.00, [(1, .ended, 60, 30, 40)], count: 0)
        run.frame(1.50, [])
        #expect(run.phases.contains("2 ended noTap(.trackingLost)"))
        #expect(!run.phases.contains("2 ended"))
        // The same touch lifting, the count dropping to one: a tap.
        var lifted = FilterRun()
        lifted.frame(0.00, [(1, .began, 60, 30, 40)], count: 1)
        lifted.frame(0.50, [(1, .stationary, 60, 30, 40), (2, .began, 30, 30, 40)], count: 2)
        lifted.frame(0.53, [(1, .stationary, 60, 30, 40), (2, .stationary, 30, 30, 40)], count: 2)
        lifted.frame(0.56, [(1, .stationary, 60, 30, 40), (2, .ended, 30, 30, 40)], count: 1)
        lifted.frame(1.00, [(1, .ended, 60, 30, 40)], count: 0)
        lifted.frame(1.50, [])
        #expect(lifted.phases.contains("2 ended"))
        // A single-touch pad keeps BTN_TOOL_FINGER (a count of one) after the lift: its tap
        // still ends.
        var single = FilterRun()
        single.frame(0.00, [(1, .began, 60, 30, 40)], count: 1)
        single.frame(0.05, [(1, .ended, 60, 30, 40)], count: 1)
        single.frame(0.50, [], count: 0)
        #expect(single.phases.last == "1 ended")
    }

    @Test("a contact whose slot sent no pressure yet is held back until it does, then judged by it")
    func unknownPressureHeldBack() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 40)])
        run.frame(0.05, [(1, .ended, 50, 30, 40)])
        // A palm in a fresh slot sliding 20 mm with no pressure, then pressing as a palm.
        run.frame(1.00, [(2, .began, 30, 30, nil)])
        for (i, x) in [35.0, 40, 45, 50].enumerated() { run.frame(1.1 + Double(i) * 0.1, [(2, .moved, x, 30, nil)]) }
        run.frame(1.50, [(2, .moved, 50, 32, 200)])
        run.frame(1.60, [(2, .ended, 50, 32, 200)])
        // A finger in a fresh slot: delivered from where it sent its first pressure.
        run.frame(3.00, [(3, .began, 30, 30, nil)])
        run.frame(3.02, [(3, .moved, 31, 30, 30)])
        run.frame(3.30, [(3, .moved, 41, 30, 40)])
        run.frame(3.40, [(3, .ended, 41, 30, 40)])
        run.frame(4.00, [])
        #expect(!run.phases.contains { $0.hasPrefix("2 ") })
        let three = run.delivered.compactMap { $0 }.flatMap { $0 }.filter { $0.id.rawValue == 3 }
        #expect(three.first?.phase == .began)
        #expect(three.first?.position == PhysicalPoint(x: 31, y: 30))
        #expect(three.last?.phase == .ended)
        // Its first known pressure is judged as a landing one: where a contact landing at
        // 63/255 is a palm (the Cypress quirk), one whose first pressure is 70 is never delivered.
        var landing = FilterRun(TouchFilterSettings.changing { $0.palmPressureAtBegin = 63 })
        landing.frame(0.00, [(1, .began, 50, 30, 40)])
        landing.frame(0.05, [(1, .ended, 50, 30, 40)])
        landing.frame(1.00, [(2, .began, 30, 30, nil)])
        landing.frame(1.05, [(2, .moved, 31, 30, 70)])
        landing.frame(1.30, [(2, .moved, 41, 30, 70)])
        landing.frame(1.40, [(2, .ended, 41, 30, 70)])
        landing.frame(2.00, [])
        #expect(!landing.phases.contains { $0.hasPrefix("2 ") })
        // Off: the palm's slide is delivered as a finger's.
        var off = FilterRun(TouchFilterSettings.changing { $0.holdsUnknownPressure = false })
        off.frame(0.00, [(1, .began, 50, 30, 40)])
        off.frame(0.05, [(1, .ended, 50, 30, 40)])
        off.frame(1.00, [(2, .began, 30, 30, nil)])
        off.frame(1.20, [(2, .moved, 40, 30, nil)])
        off.frame(1.40, [(2, .ended, 40, 30, nil)])
        off.frame(2.00, [])
        #expect(off.phases.contains("2 began"))
    }

    @Test("with the wobble rule on, a lone contact jumping back and forth frame to frame is a palm; a finger turning smoothly is not")
    func wobblingPalm() {
        // The rule is off by default (sixth pass); with two turns, as it shipped until then:
        let two = TouchFilterSettings.changing { $0.palmReversalCount = 2 }
        // A palm's centre jumping 2.5 mm back and forth: cancelled at the second turn back.
        var run = FilterRun(two)
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.20, [(1, .moved, 50, 30, 40)])
        run.frame(0.21, [(1, .moved, 50, 32.5, 40)])
        run.frame(0.22, [(1, .moved, 50, 30, 40)])
        run.frame(0.23, [(1, .moved, 50, 32.5, 40)])
        run.frame(0.24, [(1, .moved, 50, 30, 40)])
        run.frame(0.25, [(1, .ended, 50, 30, 40)])
        run.frame(0.50, [])
        #expect(run.phases.last == "1 cancelled palm(.wobble)")
        #expect(!run.phases.contains("1 ended"))
        // A finger going right and back left slows down before it turns: it stays a finger.
        var finger = FilterRun(two)
        finger.frame(0.00, [(1, .began, 40, 30, 20)])
        for (i, x) in [40.0, 42, 44, 46, 46.5, 46.8, 46.5, 45, 43, 41, 40.5, 40.8, 41, 43, 45].enumerated() {
            finger.frame(0.20 + Double(i) * 0.01, [(1, .moved, x, 30, 40)])
        }
        finger.frame(0.40, [(1, .ended, 45, 30, 40)])
        finger.frame(0.50, [])
        #expect(finger.phases.last == "1 ended")
        #expect(!finger.phases.contains { $0.hasPrefix("1 cancelled") })
        // Beside another finger the rule is off (two close fingers landing make the sensor
        // jump between them), and with palmReversalCount 0 (the default) it is off everywhere.
        var off = FilterRun()
        off.frame(0.00, [(1, .began, 50, 30, 20)])
        for (i, y) in [30.0, 32.5, 30, 32.5, 30].enumerated() { off.frame(0.20 + Double(i) * 0.01, [(1, .moved, 50, y, 40)]) }
        off.frame(0.25, [(1, .ended, 50, 30, 40)])
        off.frame(0.50, [])
        #expect(off.phases.last == "1 ended")
        var pair = FilterRun(two)
        pair.frame(0.00, [(1, .began, 50, 30, 20), (2, .began, 70, 30, 20)])
        for (i, y) in [30.0, 32.5, 30, 32.5, 30].enumerated() {
            pair.frame(0.20 + Double(i) * 0.01, [(1, .moved, 50, y, 40), (2, .stationary, 70, 30, 40)])
        }
        pair.frame(0.25, [(1, .ended, 50, 30, 40), (2, .ended, 70, 30, 40)])
        pair.frame(0.50, [])
        #expect(!pair.phases.contains { $0.hasPrefix("1 cancelled") })
    }

    @Test("a short pressing touch waits for a palm's return: a palm back makes it no tap, a light second tap ends it first")
    func palmReturn() {
        let settings = TouchFilterSettings.changing {
            $0.palmPressureAtBegin = 63
            $0.palmReturnWait = 0.15
        }
        func touchThen(_ second: Int32, settings: TouchFilterSettings) -> FilterRun {
            var run = FilterRun(settings)
            run.frame(0.00, [(1, .began, 50, 30, 20)])
            run.frame(0.03, [(1, .moved, 50, 30, 63)])
            run.frame(0.08, [(1, .ended, 50, 30, 63)])
            run.frame(0.15, [(2, .began, 52, 31, second)])
            run.frame(0.20, [(2, .ended, 52, 31, second)])
            run.frame(1.00, [])
            return run
        }
        // The palm lands at 63 again 70 ms after lifting, 2 mm away: the first touch is no tap.
        #expect(touchThen(63, settings: settings).phases == ["1 began", "1 stationary", "1 ended noTap(.palmReturned)"])
        // A finger's second tap lands light: the first tap ends before it begins.
        #expect(touchThen(30, settings: settings).phases == ["1 began", "1 stationary", "1 ended", "2 began", "2 ended"])
        // Without the wait the first lift is out after the 40 ms lift delay, a tap.
        var off = settings
        off.palmReturnWait = 0
        #expect(touchThen(63, settings: off).phases == ["1 began", "1 stationary", "1 ended"])
        // The wait never pushes a tap past the touchpad tap limit (0.25 s − 20 ms).
        var long = FilterRun(settings)
        long.frame(0.00, [(1, .began, 50, 30, 20)])
        long.frame(0.10, [(1, .moved, 50, 30, 63)])
        long.frame(0.15, [(1, .ended, 50, 30, 63)])
        #expect(long.filter.nextDeadline == Timestamp(seconds: 0.23))
    }

    @Test("a contact lost and found again during its palm confirmation moves nothing either")
    func confirmationSurvivesReturn() {
        var run = FilterRun()
        run.frame(0.00, [(1, .began, 50, 30, 20)])
        run.frame(0.03, [(1, .ended, 50, 30, 40)])
        run.frame(0.06, [(2, .began, 50.5, 35, 40)])
        run.frame(0.09, [(2, .moved, 50.5, 35.2, 40)])
        let positions = run.delivered.compactMap { $0 }.flatMap { $0 }.map(\.position)
        #expect(run.phases == ["1 began", "1 stationary", "1 stationary"])
        #expect(positions.allSatisfy { $0 == PhysicalPoint(x: 50, y: 30) })
    }

    @Test("a contact held in the edge band past the release time is remembered as a palm when it lifts")
    func edgePalmMemory() {
        func restThenTouch(restFor rest: Double) -> [String] {
            var run = FilterRun()
            run.frame(0.00, [(1, .began, 3, 30, 40)])
            run.frame(rest, [(1, .ended, 3, 30, 40)])
            run.frame(rest + 0.06, [(2, .began, 4, 31, 40)])
            run.frame(rest + 0.09, [(2, .ended, 4, 31, 40)])
            run.frame(rest + 1, [])
            return run.phases
        }
        // A palm resting 0.5 s at the edge, re-reported as a 30 ms contact as it lifts: no tap.
        #expect(restThenTouch(restFor: 0.5) == [])
        // A quick tap in the band is no palm: a second tap beside it still counts.
        #expect(restThenTouch(restFor: 0.08) == ["1 began", "1 ended", "2 began", "2 ended"])
    }

    @Test("a thumb resting low, far to the side of two fingers landing, lifts before the third finger begins")
    func diagonalThumb() {
        func run(_ settings: TouchFilterSettings, thirdAt third: (Double, Double)) -> [String] {
            var run = FilterRun(settings)
            run.frame(0.00, [(1, .began, 15, 48, 30)])
            run.frame(0.40, [(1, .stationary, 15, 48, 30), (2, .began, 80, 5, 30)])
            run.frame(0.50, [(1, .stationary, 15, 48, 30), (2, .stationary, 80, 5, 30), (3, .began, third.0, third.1, 30)])
            run.frame(0.60, [(1, .stationary, 15, 48, 30), (2, .moved, 80, 15, 30), (3, .moved, third.0, third.1 + 10, 30)])
            return run.phases
        }
        // The two lowest, the thumb and the third finger, are 40 mm apart across and 36 mm
        // vertically: the thumb ends (it rested 0.5 s) in a frame before the third begins.
        let thumb = run(TouchFilterSettings(), thirdAt: (55, 12))
        #expect(thumb == ["1 began", "1 stationary", "2 began", "1 ended palm(.thumb)", "2 stationary", "3 began", "2 moved", "3 moved"])
        // Three fingers side by side: nobody is a thumb.
        let row = run(TouchFilterSettings(), thirdAt: (30, 45))
        #expect(!row.contains { $0.hasPrefix("1 ended") } && row.contains("1 stationary") && row.last == "3 moved")
        // Off: the thumb stays.
        let off = run(TouchFilterSettings.changing { $0.thumbDiagonalWidth = 0 }, thirdAt: (55, 12))
        #expect(!off.contains { $0.hasPrefix("1 ended") })
    }

    @Test("each decision is kept with its reason: a palm landing, a contact held in the edge band and its end as a palm, a no-tap lift")
    func decisionsCarryReasons() {
        var run = FilterRun()
        run.filter.recordsDecisions = true
        run.frame(0.00, [(1, .began, 50, 30, 200), (2, .began, 2, 30, 20)])
        run.frame(0.30, [(1, .moved, 50, 30, 200), (2, .moved, 2.5, 30, 20)])
        run.frame(0.40, [(1, .ended, 50, 30, 200), (2, .moved, 30, 30, 20)])
        run.frame(0.50, [(2, .ended, 30, 30, 20)])
        run.frame(1.20, [(3, .began, 60, 30, 5)])
        run.frame(1.25, [(3, .moved, 60, 30, 5)])
        run.frame(1.30, [(3, .ended, 60, 30, 5)])
        run.frame(1.60, [])
        let lines = run.filter.drainDecisions().map(\.description)
        #expect(
            lines == [
                "touch #1 began palm(.pressure) not delivered", "touch #2 began held(.edgeBand)",
                "touch #2 moved palm(.edge) not delivered", "touch #3 ended noTap(.tooLight)",
            ])
        #expect(run.filter.drainDecisions().isEmpty)
        var quiet = FilterRun()
        quiet.frame(0.00, [(1, .began, 50, 30, 200)])
        #expect(quiet.filter.drainDecisions().isEmpty)
    }

    @Test("disabled settings pass frames through untouched")
    func disabled() {
        var filter = TouchFilter(device: pad, settings: .disabled)
        let frame = Frame(
            timestamp: Timestamp(seconds: 1),
            touches: [Touch(id: TouchID(1), phase: .began, position: PhysicalPoint(x: 1, y: 1), startTime: Timestamp(seconds: 1), pressure: 255)])
        #expect(filter.filter(frame) == frame)
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

    @Test("a described pad without a resolution gets the bands at libinput's 69 × 50 mm; side bands only from 70 mm wide, at most 8 mm")
    func bandsWithoutResolution() {
        var described = pad
        for code in [EventUsage.absMTPositionX.code, EventUsage.absMTPositionY.code] { described.axes[code]?.resolution = 0 }
        // 69 mm wide: no side band; 50 mm high: the thumb band is the bottom 7.5 mm.
        var run = FilterRun(device: described)
        run.frame(0.00, [(1, .began, 2, 25, 20), (2, .began, 35, 47, 20)])
        run.frame(0.50, [(1, .moved, 2, 26, 20), (2, .moved, 40, 47, 20)])
        #expect(run.phases == ["1 began", "1 moved"])
        // A 120 mm pad: the side band is 8 mm, not 8 % (9.6 mm).
        var wide = pad
        wide.axes[EventUsage.absMTPositionX.code] = AxisInfo(minimum: 0, maximum: 1200, resolution: 10)
        var edge = FilterRun(device: wide)
        edge.frame(0.00, [(1, .began, 9, 5, 20), (2, .began, 7, 45, 20)])
        edge.frame(0.50, [(1, .moved, 9, 6, 20), (2, .moved, 7, 44, 20)])
        #expect(edge.phases == ["1 began", "1 moved"])
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

    @Test("on the Cypress pads a resting palm's jumps and wobble move nothing delivered")
    func cypressPalmWobble() {
        let cypress = cypressPad
        // y jumps 2.4 mm between still frames, x wobbles 0.8 mm: the first pad's delivered
        // position stays within a millimetre; the same path on the test pad moves it.
        let ys: [Double] = [46.5, 46.5, 48.9, 48.9, 46.5, 46.5, 48.9, 46.5, 48.9, 46.5]
        let xs: [Double] = [89.0, 89.0, 89.8, 89.0, 89.8, 89.0, 89.8, 89.0, 89.8, 89.0]
        func travel(_ device: DeviceDescription) -> Double {
            var settings = TouchFilterSettings.changing {
                $0.palmConfirmTime = 0
                $0.palmReversalCount = 0
            }
            if device == cypress { settings = settings.applying(cypressQuirks) }
            var run = FilterRun(settings, device: device)
            run.frame(0.0, [(1, .began, 89, 46.5, 40)])
            for k in ys.indices { run.frame(0.02 * Double(k + 1), [(1, .moved, xs[k], ys[k], 40)]) }
            let delivered = run.delivered.compactMap { $0 }.flatMap { $0 }
            return zip(delivered, delivered.dropFirst()).reduce(0) { $0 + distance($1.0.position, $1.1.position) }
        }
        #expect(travel(cypress) < 1)
        #expect(travel(pad) > 10)
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
}
