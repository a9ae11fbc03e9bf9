import Foundation
import Testing

@testable import GestureEngine

@Suite("Gesture synthesizer")
struct SynthesizerTests {
    /// Synthesize → EvemuWriter → RecordingParser → FrameAssembler.
    static func roundTrip(
        _ script: GestureScript,
        device: DeviceDescription,
        synthesizer: GestureSynthesizer? = nil
    ) throws -> (events: [RawEvent], frames: [Frame]) {
        var synthesizer = synthesizer ?? GestureSynthesizer(device: device)
        let events = synthesizer.events(for: script, startingAt: Timestamp(seconds: 1))
        let text = EvemuWriter.recording(device: device, events: events, comments: ["made by a test"])
        let recording = try RecordingParser.parse(text, fileName: "synth.evemu")
        // The parser adds the EV_SYN codes every evdev device has.
        #expect(recording.device?.codes.isSuperset(of: device.codes) == true)
        #expect(recording.device?.axes == device.axes)
        #expect(recording.device?.properties == device.properties)
        #expect(recording.events == events)
        #expect(recording.warnings.isEmpty)
        var assembler = FrameAssembler(device: try #require(recording.device))
        return (events, assembler.frames(recording.events))
    }

    static func close(_ a: PhysicalPoint, _ b: PhysicalPoint, within tolerance: Double = 0.1) -> Bool {
        a.distance(to: b) <= tolerance
    }

    @Test("a three-finger swipe left survives the evemu round trip and moves the fingers 40 mm left")
    func swipeRoundTrip() throws {
        let device = GestureSynthesizer.demoTouchscreen
        let synthesizer = GestureSynthesizer(device: device)
        let script = synthesizer.swipe(fingers: 3, direction: .left, distance: 40, duration: 0.25)
        let (_, frames) = try Self.roundTrip(script, device: device)
        let first = try #require(frames.first)
        #expect(first.touches.map(\.phase) == [.began, .began, .began])
        // Fingers side by side in a row along x, as a hand lies, 15 mm apart, centred on the
        // swipe: they follow one another along the motion.
        let starts = first.touches.map(\.position)
        #expect(Self.close(PhysicalPoint.centroid(of: starts), PhysicalPoint(x: 128 + 20, y: 72)))
        #expect(Set(starts.map { ($0.y * 16).rounded() / 16 }).count == 1)
        let xs = starts.map(\.x).sorted()
        #expect(Self.close(PhysicalPoint(x: xs[1] - xs[0], y: xs[2] - xs[1]), PhysicalPoint(x: 15, y: 15)))
        let last = try #require(frames.last)
        #expect(last.touches.map(\.phase) == [.ended, .ended, .ended])
        for touch in last.touches {
            #expect(Self.close(touch.position - touch.startPosition, PhysicalPoint(x: -40, y: 0)))
        }
        // Frames on a 10 ms grid; the 20 ms settle before moving sends no frame.
        let times = frames.map(\.timestamp.microseconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 && ($1 - $0) % 10_000 == 0 })
        #expect(times.count == 26)  // down, 24 moving frames, move-and-lift
        #expect(
            frames.allSatisfy {
                $0.fingerCount == $0.touches.count { $0.phase != .ended }
                    || $0.touches.allSatisfy { $0.phase == .ended }
            }
        )
    }

    @Test("a tap is one frame down and one frame up at the requested point")
    func tap() throws {
        let device = GestureSynthesizer.demoTouchscreen
        let synthesizer = GestureSynthesizer(device: device)
        let (_, frames) = try Self.roundTrip(
            synthesizer.tap(at: .millimeters(x: 30, y: 40), duration: 0.05),
            device: device
        )
        #expect(frames.map(\.sequence) == [["1:began"], ["1:ended"]])
        #expect(frames[0].touches[0].position == PhysicalPoint(x: 30, y: 40))
        #expect(frames[1].timestamp - frames[0].timestamp == 0.05)
    }

    @Test("a double tap is two touches with the interval between lift and touch-down")
    func doubleTap() throws {
        let device = GestureSynthesizer.demoTouchscreen
        let synthesizer = GestureSynthesizer(device: device)
        let (_, frames) = try Self.roundTrip(synthesizer.doubleTap(interval: 0.15), device: device)
        #expect(frames.map(\.sequence) == [["1:began"], ["1:ended"], ["2:began"], ["2:ended"]])
        #expect((frames[2].timestamp - frames[1].timestamp - 0.15).magnitude < 1e-9)
    }

    @Test("a long press holds still for its duration and sends no frames in between")
    func longPress() throws {
        let device = GestureSynthesizer.demoTouchscreen
        let synthesizer = GestureSynthesizer(device: device)
        let (_, frames) = try Self.roundTrip(synthesizer.longPress(duration: 0.8), device: device)
        #expect(frames.count == 2)
        #expect((frames[1].timestamp - frames[0].timestamp - 0.8).magnitude < 1e-9)
    }

    @Test("a pinch out by 2.5 spreads two fingers from 30 mm to 75 mm apart")
    func pinch() throws {
        let device = GestureSynthesizer.demoTouchscreen
        let synthesizer = GestureSynthesizer(device: device)
        let (_, frames) = try Self.roundTrip(synthesizer.pinch(scale: 2.5, span: 30, duration: 0.5), device: device)
        let first = try #require(frames.first?.touches)
        let last = try #require(frames.last?.touches)
        #expect((first[0].position.distance(to: first[1].position) - 30).magnitude < 0.2)
        #expect((last[0].position.distance(to: last[1].position) - 75).magnitude < 0.2)
    }

    @Test("a rotation by 90° clockwise turns the line between two fingers by 90°")
    func rotation() throws {
        let device = GestureSynthesizer.demoTouchscreen
        let synthesizer = GestureSynthesizer(device: device)
        let (_, frames) = try Self.roundTrip(synthesizer.rotation(angle: Double.pi / 2, span: 50), device: device)
        let first = try #require(frames.first?.touches)
        let last = try #require(frames.last?.touches)
        let before = first[1].position - first[0].position  // left finger → right finger
        let after = last[1].position - last[0].position
        #expect(Self.close(before, PhysicalPoint(x: 50, y: 0), within: 0.2))
        // Clockwise on a y-down surface: +x turns into +y.
        #expect(Self.close(after, PhysicalPoint(x: 0, y: 50), within: 0.2))
    }

    @Test("an edge swipe starts half a millimetre inside the edge", arguments: Edge.allCases)
    func edgeSwipe(edge: Edge) throws {
        let device = GestureSynthesizer.demoTouchscreen
        let synthesizer = GestureSynthesizer(device: device)
        let (_, frames) = try Self.roundTrip(synthesizer.edgeSwipe(from: edge, distance: 30), device: device)
        let start = try #require(frames.first?.touches.first?.position)
        let end = try #require(frames.last?.touches.first?.position)
        let distanceFromEdge: Double
        switch edge {
        case .left: distanceFromEdge = start.x
        case .right: distanceFromEdge = synthesizer.width - start.x
        case .top: distanceFromEdge = start.y
        case .bottom: distanceFromEdge = synthesizer.height - start.y
        }
        #expect((distanceFromEdge - 0.5).magnitude <= 1.0 / 16)
        #expect((start.distance(to: end) - 30).magnitude < 0.2)
    }

    @Test("more fingers than slots: two touches, and BTN_TOOL_TRIPLETAP counts three")
    func moreFingersThanSlots() throws {
        let synthesizer = GestureSynthesizer(device: TestDevices.clickpad)
        let (events, frames) = try Self.roundTrip(
            synthesizer.swipe(fingers: 3, direction: .up, distance: 20),
            device: TestDevices.clickpad
        )
        #expect(events.contains(RawEvent(time: Timestamp(seconds: 1), usage: .btnToolTripleTap, value: 1)))
        #expect(frames[0].touches.count == 2)
        #expect(frames[0].fingerCount == 3)
        #expect(frames.last?.fingerCount == 0)
    }

    @Test("staggered fingers land and lift one after another, each joining its path where it is then")
    func staggeredLandingAndLifting() throws {
        let device = TestDevices.touchscreen
        let synthesizer = GestureSynthesizer(device: device)
        let swipe = synthesizer.swipe(fingers: 3, direction: .up, distance: 30, duration: 0.3)
        let script = swipe.staggered(landing: 0.02, lifting: 0.01)
        #expect(script.strokes.map(\.down) == [0, 0.02, 0.04])
        #expect(zip(script.strokes, swipe.strokes).map { (($0.up - $1.up) * 1000).rounded() } == [0, 10, 20])
        // The late finger lands where the unstaggered finger is at that moment, and ends
        // where it ends.
        #expect(Self.close(script.strokes[2].keyframes[0].position, swipe.strokes[2].position(at: 0.04), within: 1e-9))
        #expect(script.strokes[2].keyframes.last?.position == swipe.strokes[2].keyframes.last?.position)
        let (_, frames) = try Self.roundTrip(script, device: device)
        // Frames at 0, 20 (second finger), 30 (the first two move), 40 ms (third finger): the
        // frame at 10 ms, where nothing changed, is not sent.
        #expect(frames.prefix(4).map { $0.touches.count { $0.phase == .began } } == [1, 1, 0, 1])
        #expect(frames.prefix(4).map { $0.timestamp.microseconds } == [1_000_000, 1_020_000, 1_030_000, 1_040_000])
        // A landing later than the stroke lasts is held to 10 ms before its lift.
        let tap = synthesizer.tap(fingers: 2, duration: 0.03).staggered(landing: 0.05, lifting: 0)
        #expect((tap.strokes[1].down - 0.02).magnitude < 1e-9)
    }

    @Test("a pressure profile rises from its landing pressure to its level, in the axis's units")
    func pressureProfile() throws {
        let device = TestDevices.touchscreen  // ABS_MT_PRESSURE 0…255
        let synthesizer = GestureSynthesizer(device: device)
        let profile = PressureProfile(level: 0.4, landing: 0.05, rise: 0.03)
        #expect(profile.fraction(after: 0) == 0.05)
        #expect((profile.fraction(after: 0.015) - 0.225).magnitude < 1e-9)
        #expect(profile.fraction(after: 0.5) == 0.4)
        let (events, _) = try Self.roundTrip(synthesizer.longPress(duration: 0.1).pressing(profile), device: device)
        let pressures = events.filter { $0.usage == .absMTPressure }.map(\.value)
        // 0.05 × 255, then every 10 ms towards 0.4 × 255 = 102, then held (sent once).
        #expect(pressures == [12, 42, 72, 102])
        // The default is the middle of the range, sent once at touch-down.
        let (plain, _) = try Self.roundTrip(synthesizer.longPress(duration: 0.1), device: device)
        #expect(plain.filter { $0.usage == .absMTPressure }.map(\.value) == [127])
    }

    @Test("while more fingers are counted than slots, the slotted contacts press at least an eighth of the range")
    func countedContactPressure() {
        let profile = PressureProfile(level: 0.4, landing: 0.05, rise: 0.03)
        var three = GestureSynthesizer(device: twoSlotPad)  // two slots, ABS_MT_PRESSURE 0…255
        let events = three.events(for: three.tap(fingers: 3, duration: 0.05).pressing(profile))
        #expect(events.contains { $0.usage == .btnToolTripleTap && $0.value == 1 })
        // max(0.05, 0.125) × 255 = 31 at the landing, then the profile (42, 72, 102).
        #expect(events.filter { $0.usage == .absMTPressure }.map(\.value) == [31, 31, 42, 42, 72, 72, 102, 102])
        // Two fingers on the same pad, each in a slot, keep the profile's light landing.
        var two = GestureSynthesizer(device: twoSlotPad)
        let pressures = two.events(for: two.tap(fingers: 2, duration: 0.05).pressing(profile)).filter { $0.usage == .absMTPressure }
        #expect(pressures.map(\.value).prefix(2) == [12, 12])
    }

    @Test("a firm finger is firm on every pressure scale, never a palm by the default threshold; a palm is")
    func firmPressure() throws {
        // 0…255 (the Synaptics Z scale): 111 units, under the palm threshold both readers apply
        // by default (130); 0.65 of the range would be 165, a palm to both.
        var synaptics = GestureSynthesizer(device: twoSlotPad)
        let axis = try #require(twoSlotPad.axis(.absMTPressure))
        let firm = synaptics.events(for: synaptics.tap(fingers: 2, duration: 0.05).pressing(.firm(on: axis)))
            .filter { $0.usage == .absMTPressure }.map(\.value)
        #expect(firm == [111, 111])
        #expect(firm.allSatisfy { Double($0) < TouchFilterSettings().palmPressure! })
        // The same on a 0…1023 axis: the threshold is absolute, so is a firm finger.
        #expect(PressureProfile.firm(on: AxisInfo(minimum: 0, maximum: 1023)).level * 1023 < 112)
        // 0…50 (contact area on the HID pads): no finger reaches 130; firm is 0.65 of the range.
        #expect(PressureProfile.firm(on: AxisInfo(minimum: 0, maximum: 50)).level == 0.65)
        // A palm presses the whole range, over the threshold on 0…255.
        var palm = GestureSynthesizer(device: twoSlotPad)
        let pressed = palm.events(for: palm.tap(fingers: 1, duration: 0.05).pressing(.palm)).filter { $0.usage == .absMTPressure }
        #expect(pressed.map(\.value).max() == 255)
    }

    @Test("a stroke's touch major is sent in mm of the axis's resolution, 8 mm unless set")
    func touchMajor() {
        var device = TestDevices.clickpad
        device.axes[EventUsage.absMTTouchMajor.code] = AxisInfo(minimum: 0, maximum: 2000, resolution: 10)
        let p = PhysicalPoint(x: 20, y: 20)
        let palm = GestureScript.Stroke(keyframes: [.init(time: 0, position: p), .init(time: 0.1, position: p)], touchMajorMillimeters: 30)
        let finger = GestureScript.Stroke(keyframes: [.init(time: 0, position: p), .init(time: 0.1, position: p)])
        var a = GestureSynthesizer(device: device)
        var b = GestureSynthesizer(device: device)
        #expect(a.events(for: GestureScript(strokes: [palm])).filter { $0.usage == .absMTTouchMajor }.map(\.value) == [300])
        #expect(b.events(for: GestureScript(strokes: [finger])).filter { $0.usage == .absMTTouchMajor }.map(\.value) == [80])
    }

    @Test("jitter is reproducible from its seed and differs between seeds")
    func jitter() {
        let device = GestureSynthesizer.demoTouchscreen
        let script = GestureSynthesizer(device: device).longPress(duration: 0.3)
        var a = GestureSynthesizer(device: device, jitterMillimeters: 0.5, seed: 7)
        var b = GestureSynthesizer(device: device, jitterMillimeters: 0.5, seed: 7)
        var c = GestureSynthesizer(device: device, jitterMillimeters: 0.5, seed: 8)
        let eventsA = a.events(for: script)
        #expect(eventsA == b.events(for: script))
        #expect(eventsA != c.events(for: script))
        // Noise makes a held finger move, within ±0.5 mm (8 units at 16 units/mm).
        let xs = eventsA.filter { $0.usage == .absMTPositionX }.map(\.value)
        #expect(xs.count > 10)
        #expect((xs.max()! - xs.min()!) <= 16)
    }

    @Test("the demo recording parses and plays through the assembler without warnings")
    func demoRecording() throws {
        let text = GestureSynthesizer.demoTouchscreenRecording()
        #expect(text.hasPrefix("# gestured demo recording, synthesized"))
        let recording = try RecordingParser.parse(text, fileName: "demo-touchscreen.evemu")
        #expect(recording.warnings.isEmpty)
        #expect(recording.device == GestureSynthesizer.demoTouchscreen)
        var assembler = FrameAssembler(device: GestureSynthesizer.demoTouchscreen)
        let frames = assembler.frames(recording.events)
        let began = frames.flatMap { $0.touches(in: .began) }.count
        // tap 1 + double tap 2 + long press 1 + pan 2 + swipe 3 + pinch 2 + pinch 2 + rotation 2 + edge 1
        #expect(began == 16)
        #expect(frames.flatMap { $0.touches(in: .ended) }.count == 16)
        let diagnostics = assembler.drainDiagnostics()
        #expect(diagnostics.isEmpty)
    }
}

/// The synthesized fixtures under `Fixtures/`: each file must be exactly what the synthesizer
/// makes today. `GESTURED_RECORD_FIXTURES=1 swift test` rewrites them (and fails, so that a
/// rewrite is never silent).
@Suite("Synthesized fixtures")
struct SynthesizedFixtureTests {
    struct Fixture: Sendable, CustomTestStringConvertible {
        var path: String
        var device: DeviceDescription
        var how: String
        var make: @Sendable (GestureSynthesizer) -> GestureScript
        var testDescription: String { path }
    }

    static let fixtures: [Fixture] = [
        Fixture(
            path: "gestured-demo-touchscreen/tap.evemu",
            device: GestureSynthesizer.demoTouchscreen,
            how: "tap(at: .center)"
        ) {
            $0.tap(at: .center)
        },
        Fixture(
            path: "gestured-demo-touchscreen/double-tap.evemu",
            device: GestureSynthesizer.demoTouchscreen,
            how: "doubleTap(at: .center, interval: 0.15)"
        ) {
            $0.doubleTap(at: .center, interval: 0.15)
        },
        Fixture(
            path: "gestured-demo-touchscreen/long-press.evemu",
            device: GestureSynthesizer.demoTouchscreen,
            how: "longPress(at: .center, duration: 0.8)"
        ) {
            $0.longPress(at: .center, duration: 0.8)
        },
        Fixture(
            path: "gestured-demo-touchscreen/pinch-out.evemu",
            device: GestureSynthesizer.demoTouchscreen,
            how: "pinch(scale: 2.5, span: 30, duration: 0.5)"
        ) {
            $0.pinch(scale: 2.5, span: 30, duration: 0.5)
        },
        Fixture(
            path: "gestured-demo-touchscreen/rotate-clockwise.evemu",
            device: GestureSynthesizer.demoTouchscreen,
            how: "rotation(angle: .pi / 2, span: 50, duration: 0.6)"
        ) {
            $0.rotation(angle: Double.pi / 2, span: 50, duration: 0.6)
        },
        Fixture(
            path: "gestured-demo-touchscreen/edge-swipe-left.evemu",
            device: GestureSynthesizer.demoTouchscreen,
            how: "edgeSwipe(from: .left, distance: 40, duration: 0.25)"
        ) {
            $0.edgeSwipe(from: .left, distance: 40, duration: 0.25)
        },
        Fixture(
            path: "gestured-demo-touchscreen/three-finger-swipe-left-staggered.evemu",
            device: GestureSynthesizer.demoTouchscreen,
            how: "swipe(fingers: 3, direction: .left, distance: 50, duration: 0.25).staggered(landing: 0.010, lagging: true)"
        ) {
            $0.swipe(fingers: 3, direction: .left, distance: 50, duration: 0.25).staggered(landing: 0.010, lagging: true)
        },
        Fixture(
            path: "gestured-demo-touchscreen/two-finger-swipe-up-lagging.evemu",
            device: GestureSynthesizer.demoTouchscreen,
            how: "swipe(fingers: 2, direction: .up, distance: 60, duration: 0.15).staggered(landing: 0.012, lagging: true)"
        ) {
            $0.swipe(fingers: 2, direction: .up, distance: 60, duration: 0.15).staggered(landing: 0.012, lagging: true)
        },
        Fixture(
            path: "gestured-demo-clickpad/three-finger-swipe-left.evemu",
            device: GestureSynthesizer.demoClickpad,
            how: "swipe(fingers: 3, direction: .left, distance: 40, duration: 0.25)"
        ) {
            $0.swipe(fingers: 3, direction: .left, distance: 40, duration: 0.25)
        },
        Fixture(
            path: "gestured-demo-clickpad/four-finger-swipe-up.evemu",
            device: GestureSynthesizer.demoClickpad,
            how: "swipe(fingers: 4, direction: .up, distance: 30, duration: 0.25)"
        ) {
            $0.swipe(fingers: 4, direction: .up, distance: 30, duration: 0.25)
        },
    ]

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures"
    )

    static func text(for fixture: Fixture) -> String {
        var synthesizer = GestureSynthesizer(device: fixture.device)
        let events = synthesizer.events(for: fixture.make(synthesizer), startingAt: Timestamp(seconds: 1))
        return EvemuWriter.recording(
            device: fixture.device,
            events: events,
            comments: [
                "Synthesized by gestured (not recorded from hardware):",
                "GestureSynthesizer(device: \(fixture.device.name), frameInterval: 0.010)",
                "  .\(fixture.how), starting at 1.000000 s.",
                "Regenerate: GESTURED_RECORD_FIXTURES=1 swift test --filter SynthesizedFixtureTests",
            ]
        )
    }

    @Test("the committed fixture is what the synthesizer makes", arguments: fixtures)
    func fixtureIsCurrent(_ fixture: Fixture) throws {
        let url = Self.directory.appendingPathComponent(fixture.path)
        let expected = Self.text(for: fixture)
        if ProcessInfo.processInfo.environment["GESTURED_RECORD_FIXTURES"] == "1" {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try expected.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("rewrote \(fixture.path); run again without GESTURED_RECORD_FIXTURES")
            return
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == expected, "\(fixture.path) is out of date")
        let recording = try RecordingParser.parse(committed, fileName: fixture.path)
        #expect(recording.device == fixture.device)
    }
}
