import Foundation
import GestureEngine
import GesturedConfig
import GesturedSystem
import GesturedTestSupport
import Testing

@testable import GesturedDaemon

/// What a libinput-like reader of a multitouch protocol-B stream sees: touch down, motion,
/// up, and cancel when a touch's slot turns `MT_TOOL_PALM` (libinput's fallback dispatcher;
/// the lift of a cancelled touch is not reported). A test-side reader, named so: it decodes
/// the planner's output the way the compositor's libinput would, without a kernel.
struct TouchStreamReaderForTests {
    enum Event: Hashable, CustomStringConvertible {
        case down(slot: Int, x: Int32, y: Int32)
        case motion(slot: Int, x: Int32, y: Int32)
        case up(slot: Int)
        case cancel(slot: Int)

        var description: String {
            switch self {
            case .down(let s, let x, let y): "down \(s) \(x) \(y)"
            case .motion(let s, let x, let y): "motion \(s) \(x) \(y)"
            case .up(let s): "up \(s)"
            case .cancel(let s): "cancel \(s)"
            }
        }
    }

    struct Slot {
        var id: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var tool: Int32 = 0
        var began = false
        var ended = false
        var moved = false
        var palmNow = false
        var isPalm = false
        var active = false
    }

    var slots = [Slot](repeating: Slot(), count: 16)
    var slot = 0
    /// Events per frame, frames in order (empty frames left out).
    var frames: [[Event]] = []

    mutating func read(_ events: [RawEvent]) {
        for e in events {
            switch e.usage {
            case .absMTSlot: slot = Int(e.value)
            case .absMTTrackingID:
                if e.value >= 0 {
                    slots[slot].id = e.value
                    slots[slot].began = true
                    slots[slot].isPalm = slots[slot].tool == 2
                } else {
                    slots[slot].ended = true
                }
            case .absMTPositionX:
                slots[slot].x = e.value
                slots[slot].moved = true
            case .absMTPositionY:
                slots[slot].y = e.value
                slots[slot].moved = true
            case .absMTToolType:
                if e.value == 2, !slots[slot].isPalm { slots[slot].palmNow = true }
                slots[slot].tool = e.value
            case .synReport: commit()
            default: break
            }
        }
    }

    private mutating func commit() {
        var frame: [Event] = []
        for i in slots.indices {
            var s = slots[i]
            if s.palmNow {
                if s.active { frame.append(.cancel(slot: i)) }
                s.isPalm = true
                s.active = false
            } else if !s.isPalm {
                if s.began {
                    frame.append(.down(slot: i, x: s.x, y: s.y))
                    s.active = true
                } else if s.moved, s.active {
                    frame.append(.motion(slot: i, x: s.x, y: s.y))
                }
                if s.ended, s.active {
                    frame.append(.up(slot: i))
                    s.active = false
                }
            }
            if s.ended { s.isPalm = false }
            s.began = false
            s.ended = false
            s.moved = false
            s.palmNow = false
            slots[i] = s
        }
        if !frame.isEmpty { frames.append(frame) }
    }

    /// Every event, frames flattened, slots renamed by order of appearance (a clone may put a
    /// touch in another slot than the source).
    var touches: [String] {
        var names: [Int: Int] = [:]
        var next = 0
        var lines: [String] = []
        for frame in frames {
            for event in frame {
                let s: Int
                switch event {
                case .down(let slot, _, _):
                    names[slot] = next
                    next += 1
                    s = slot
                case .motion(let slot, _, _), .up(let slot), .cancel(let slot): s = slot
                }
                let name = names[s] ?? -1
                switch event {
                case .down(_, let x, let y): lines.append("down t\(name) \(x) \(y)")
                case .motion(_, let x, let y): lines.append("motion t\(name) \(x) \(y)")
                case .up: lines.append("up t\(name)")
                case .cancel: lines.append("cancel t\(name)")
                }
            }
        }
        return lines
    }
}

/// A clone that keeps what it is given: each write's events, in order (a fake of the uinput
/// device, named so; the relay's own code runs unchanged in front of it).
final class CollectingCloneForTests: CloneDevice {
    var events: [RawEvent] = []
    /// The events of each write(2) the relay made.
    var writes: [[RawEvent]] = []
    let devnode: String? = nil
    func write(_ events: [RawEvent]) throws(SystemError) {
        self.events += events
        writes.append(events)
    }
    func destroy() {}
}

/// The relay's logic without the kernel: source frames through the real pipeline (shipped
/// configuration) and the real ``CloneRelay`` (pass-through, engine step, plan, one write
/// each); the clone's frames are collected instead of written.
struct ClonePlanRun {
    var pipeline: GesturePipeline
    let relay: CloneRelay
    let device: CollectingCloneForTests
    var gestures: [GestureEvent] = []

    init(device: DeviceDescription, configuration: Configuration = Replay.shippedConfiguration) {
        self.init(device: device, engine: configuration.engineConfiguration(for: device, kind: device.kind))
    }

    init(device: DeviceDescription, engine: EngineConfiguration) {
        pipeline = GesturePipeline(node: "test", device: device, configuration: engine)
        self.device = CollectingCloneForTests()
        relay = CloneRelay(clone: self.device, device: device, configuration: engine)
    }

    var clone: [RawEvent] { device.events }
    var planner: CloneFramePlanner {
        get { relay.planner }
        nonmutating set { relay.planner = newValue }
    }

    /// Feeds events as one read.
    mutating func feed(_ events: [RawEvent]) {
        var outputs: [EngineOutput] = []
        let failure = relay.feed(events, pipeline: &pipeline, into: &outputs)
        precondition(failure == nil)
        take(outputs)
    }

    /// Feeds events one frame a read, as a reader that keeps up with the device does.
    mutating func feedFrames(_ events: [RawEvent]) {
        var frame: [RawEvent] = []
        for event in events {
            frame.append(event)
            guard event.usage == .synReport else { continue }
            feed(frame)
            frame.removeAll()
        }
    }

    mutating func finish() {
        let outputs = pipeline.drainDeadlines()
        relay.forward(outputs)
        take(outputs)
    }

    private mutating func take(_ outputs: [EngineOutput]) {
        for output in outputs {
            if case .gesture(let g) = output { gestures.append(g) }
        }
    }
}

@Suite("Clone frame planner (pure: sink events to clone frames, no kernel)")
struct CloneFramePlannerTests {
    static func touchscreen() throws -> DeviceDescription {
        let url = packageRootDirectory.appendingPathComponent("Tests/EndToEndTests/Devices/elan-touchscreen.desc")
        return try RecordingParser.parseDescription(try String(contentsOf: url, encoding: .utf8), fileName: url.path)
    }

    static func read(_ events: [RawEvent]) -> TouchStreamReaderForTests {
        var reader = TouchStreamReaderForTests()
        reader.read(events)
        return reader
    }

    static func run(_ script: (inout GestureSynthesizer) -> GestureScript) throws -> (source: [RawEvent], run: ClonePlanRun) {
        let device = try touchscreen()
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(for: script(&synthesizer))
        var run = ClonePlanRun(device: device)
        run.feed(events)
        run.finish()
        return (events, run)
    }

    /// Input that reaches the clone as it left the source.
    struct PassThrough: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let script: @Sendable (inout GestureSynthesizer) -> GestureScript
        let fingers: Int
        /// The source has more touch events (downs, motions, ups) than this.
        let moreEventsThan: Int
        /// A gesture the engine recognizes meanwhile.
        var recognized: String? = nil
    }

    static let passThroughs = [
        PassThrough(
            testDescription: "an unclaimed one-finger drag",
            script: { $0.drag(fingers: 1, from: .fraction(x: 0.4, y: 0.3), to: .fraction(x: 0.6, y: 0.7), duration: 0.5) },
            fingers: 1, moreEventsThan: 20),
        PassThrough(
            testDescription: "a two-finger scroll, both touches, every frame",
            script: { $0.drag(fingers: 2, from: .fraction(x: 0.5, y: 0.3), to: .fraction(x: 0.5, y: 0.6), duration: 0.8) },
            fingers: 2, moreEventsThan: 20),
        PassThrough(
            testDescription: "a one-finger tap, at once: its lift not held for the double tap",
            script: { $0.tap(fingers: 1) }, fingers: 1, moreEventsThan: 1, recognized: "tap"),
    ]

    @Test("input no gesture withholds reaches the clone as it left the source: same positions, same frames", arguments: passThroughs)
    func passesThrough(_ c: PassThrough) throws {
        let (source, run) = try Self.run(c.script)
        let expected = Self.read(source)
        #expect(expected.touches.count > c.moreEventsThan)
        #expect(expected.touches.filter { $0.hasPrefix("down") }.count == c.fingers)
        #expect(Self.read(run.clone).frames == expected.frames)
        #expect(!run.planner.hasTouchDown)
        if let name = c.recognized {
            #expect(run.gestures.contains { $0.name == name && $0.state == .recognized })
        }
    }

    @Test(
        "a read that ends inside a frame: the frame waits for the next read, and the clone gets the same events",
        arguments: [2, 5, 7])
    func readsEndingInsideFrames(every size: Int) throws {
        let scripts: [@Sendable (inout GestureSynthesizer) -> GestureScript] = [
            { $0.drag(fingers: 2, from: .fraction(x: 0.5, y: 0.3), to: .fraction(x: 0.5, y: 0.6), duration: 0.8) },
            { $0.swipe(fingers: 3, direction: .right, distance: 60, duration: 0.3) },
        ]
        for script in scripts {
            let (source, whole) = try Self.run(script)
            var cut = ClonePlanRun(device: try Self.touchscreen())
            var start = 0
            while start < source.count {
                let end = min(start + size, source.count)
                cut.feed(Array(source[start..<end]))
                start = end
            }
            cut.finish()
            // Reads of `size` events end inside most frames (a frame here is 4 to 15 events).
            #expect(source.split { $0.usage == .synReport }.contains { $0.count + 1 > size })
            #expect(cut.clone == whole.clone)
            #expect(!cut.clone.isEmpty)
        }
    }

    /// A two-finger drag across the middle of the touchscreen, as its source events.
    static func twoFingerDrag() throws -> (device: DeviceDescription, events: [RawEvent]) {
        let device = try touchscreen()
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(
            for: synthesizer.drag(fingers: 2, from: .fraction(x: 0.4, y: 0.3), to: .fraction(x: 0.6, y: 0.7), duration: 0.5))
        return (device, events)
    }

    @Test("a frame that only moves the clone's touches goes out before the engine's step, which then adds nothing")
    func motionPassesThroughBeforeTheStep() throws {
        let (device, events) = try Self.twoFingerDrag()
        let engine = Replay.shippedConfiguration.engineConfiguration(for: device, kind: device.kind)
        var pipeline = GesturePipeline(node: "test", device: device, configuration: engine)
        var planner = CloneFramePlanner(device: device)
        var clone: [RawEvent] = []
        var early = 0
        var frame: [RawEvent] = []
        for event in events {
            frame.append(event)
            guard event.usage == .synReport else { continue }
            let changesContacts = frame.contains { $0.usage == .absMTTrackingID }
            planner.observeSource(frame)
            var before: [RawEvent] = []
            // Decided with no engine output at all: the engine has not seen the frame yet.
            planner.passThrough(into: &before)
            let sink = pipeline.feed(frame).compactMap { if case .touch(let t) = $0 { t } else { nil } }
            let after = planner.plan(sink)
            if changesContacts {
                #expect(before.isEmpty, "a landing or a lift waits for the sink")
            } else if planner.hasTouchDown {
                #expect(!before.isEmpty, "a motion frame of forwarded touches goes out first")
                #expect(after.isEmpty, "the step adds nothing to an unclaimed motion frame")
                early += 1
            }
            clone += before + after
            frame.removeAll()
        }
        clone += planner.plan(pipeline.drainDeadlines().compactMap { if case .touch(let t) = $0 { t } else { nil } })
        #expect(early > 20)
        #expect(Self.read(clone).frames == Self.read(events).frames)
    }

    @Test("a three-finger swipe: its touches begin in the clone, then all three are cancelled, never lifted")
    func threeFingerSwipeCancels() throws {
        let (_, run) = try Self.run { $0.swipe(fingers: 3, direction: .right, distance: 60, duration: 0.3) }
        #expect(run.gestures.contains { $0.name == "three-finger-swipe" })
        let touches = Self.read(run.clone).touches
        #expect(touches.filter { $0.hasPrefix("down") }.count == 3, "\(touches)")
        #expect(touches.filter { $0.hasPrefix("cancel") }.count == 3, "\(touches)")
        #expect(!touches.contains { $0.hasPrefix("up") }, "\(touches)")
        // Nothing of a cancelled touch after its cancel.
        let lastCancel = try #require(touches.lastIndex { $0.hasPrefix("cancel") })
        #expect(lastCancel == touches.count - 1, "\(touches)")
        #expect(!run.planner.hasTouchDown)
    }

    @Test("a cancellation is a palm then a lift, in two frames; the next touch in that slot is a finger again")
    func cancelThenReuse() throws {
        let (_, first) = try Self.run {
            $0.swipe(fingers: 3, direction: .left, distance: 60, duration: 0.3)
                .followed(by: $0.tap(fingers: 1))
        }
        let clone = first.clone
        let palm = try #require(clone.firstIndex { $0.usage == .absMTToolType && $0.value == 2 })
        let nextReport = try #require(clone[palm...].firstIndex { $0.usage == .synReport })
        let lift = try #require(clone[palm...].firstIndex { $0.usage == .absMTTrackingID && $0.value == -1 })
        #expect(lift > nextReport, "the lift goes in the frame after the palm")
        let touches = Self.read(clone).touches
        #expect(touches.suffix(2).first?.hasPrefix("down") == true, "the tap after the swipe begins: \(touches)")
        #expect(touches.last?.hasPrefix("up") == true, "\(touches)")
    }

    @Test("an edge swipe never reaches the clone")
    func edgeSwipeIsWithheld() throws {
        let (_, run) = try Self.run { $0.edgeSwipe(from: .left, distance: 40) }
        #expect(run.gestures.contains { $0.kind == .edgePan && $0.name == "edge-left" })
        #expect(Self.read(run.clone).touches.isEmpty, "\(Self.read(run.clone).touches)")
    }

    @Test("a tap in the edge band reaches the clone late but complete: down where it began, then up")
    func edgeBandTapIsReplayed() throws {
        let (source, run) = try Self.run { $0.tap(fingers: 1, at: .millimeters(x: 1.5, y: 60), duration: 0.08) }
        let expected = Self.read(source).touches
        let got = Self.read(run.clone).touches
        #expect(got.first == expected.first, "down at the touch's start position: \(got) vs \(expected)")
        #expect(got.last == "up t0", "\(got)")
        #expect(got.filter { $0.hasPrefix("down") }.count == 1)
        // Late: the touch-down reached the clone only when the edge pans had failed.
        let downFrames = run.clone.split { $0.usage == .synReport }
        #expect(downFrames.count >= 2)
    }

    @Test("a slow drag out of the edge band along the edge reaches the clone: start, then where it is, then on")
    func edgeBandDragIsReplayed() throws {
        let (source, run) = try Self.run {
            $0.drag(fingers: 1, from: .millimeters(x: 2, y: 40), to: .millimeters(x: 2, y: 90), duration: 1.0)
        }
        let expected = Self.read(source).touches
        let got = Self.read(run.clone).touches
        #expect(got.first == expected.first, "\(got.prefix(3)) vs \(expected.prefix(3))")
        #expect(got.last == "up t0")
        #expect(got.last { $0.hasPrefix("motion") } == expected.last { $0.hasPrefix("motion") })
        #expect(got.count < expected.count, "the held-back motion is collapsed into one step")
    }

    @Test("liftAll leaves no touch down in the clone")
    func liftAllLiftsEverything() throws {
        let device = try Self.touchscreen()
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(for: synthesizer.drag(fingers: 2, from: .center, to: .fraction(x: 0.5, y: 0.8), duration: 1))
        var run = ClonePlanRun(device: device)
        // Stop half-way, fingers down.
        let half = try #require(events.indices.first { events[$0].time > events[0].time.adding(seconds: 0.5) })
        run.feed(Array(events[..<half]))
        #expect(run.planner.forwardedTouches.count == 2)
        var reader = Self.read(run.clone)
        reader.read(run.planner.liftAll())
        #expect(!run.planner.hasTouchDown)
        #expect(reader.touches.filter { $0.hasPrefix("up") }.count == 2)
        #expect(reader.slots.allSatisfy { !$0.active })
        // BTN_TOUCH was released with the last touch.
        var planner = run.planner
        #expect(planner.liftAll().isEmpty)
    }

    /// A one-finger drag fed half-way, up to a frame's end: the run, the synthesizer that
    /// made it, and the time of the first event not fed.
    static func halfWayDrag() throws -> (run: ClonePlanRun, synthesizer: GestureSynthesizer, time: Timestamp) {
        let device = try Self.touchscreen()
        var synthesizer = GestureSynthesizer(device: device)
        let events = synthesizer.events(for: synthesizer.drag(fingers: 1, from: .center, to: .fraction(x: 0.5, y: 0.8), duration: 1))
        let half = try #require(events.indices.first { events[$0].time > events[0].time.adding(seconds: 0.5) && events[$0 - 1].usage == .synReport })
        var run = ClonePlanRun(device: device)
        run.feed(Array(events[..<half]))
        return (run, synthesizer, events[half].time)
    }

    @Test("a cancelled source touch (SYN_DROPPED resync) is cancelled in the clone")
    func resyncCancels() throws {
        let drag = try Self.halfWayDrag()
        var (run, synthesizer) = (drag.run, drag.synthesizer)
        let t = drag.time
        // The kernel's buffer overflowed; libevdev says the finger lifted meanwhile.
        run.feed([
            RawEvent(time: t, usage: .synDropped, value: 0),
            RawEvent(time: t, usage: .absMTSlot, value: 0), RawEvent(time: t, usage: .absMTTrackingID, value: -1),
            RawEvent(time: t, usage: .btnTouch, value: 0), RawEvent(time: t, usage: .synReport, value: 0),
        ])
        let touches = Self.read(run.clone).touches
        #expect(touches.last == "cancel t0", "\(touches.suffix(3))")
        #expect(!run.planner.hasTouchDown)
        // The next tap, in the same slot, is a finger again and reaches the clone whole.
        let tap = synthesizer.events(for: synthesizer.tap(fingers: 1), startingAt: t.adding(seconds: 1))
        run.feed(tap)
        run.finish()
        let after = Self.read(run.clone).touches
        #expect(Array(after.suffix(2)) == ["down t1 1656 936", "up t1"], "\(after.suffix(4))")
    }

    @Test("a touch that began in a SYN_DROPPED gap and is still down at the resync is stale: the clone never gets it (spec §2.5)")
    func touchFromTheGapIsStale() throws {
        let drag = try Self.halfWayDrag()
        var run = drag.run
        let t = drag.time
        // libevdev's sync: the drag's finger lifted in the gap, a new one (tracking id 77) is down.
        run.feed([
            RawEvent(time: t, usage: .synDropped, value: 0),
            RawEvent(time: t, usage: .absMTSlot, value: 0), RawEvent(time: t, usage: .absMTTrackingID, value: -1),
            RawEvent(time: t, usage: .absMTSlot, value: 1), RawEvent(time: t, usage: .absMTTrackingID, value: 77),
            RawEvent(time: t, usage: .absMTPositionX, value: 900), RawEvent(time: t, usage: .absMTPositionY, value: 500),
            RawEvent(time: t, usage: .synReport, value: 0),
        ])
        // It moves, then lifts, after the resync.
        var later: [RawEvent] = []
        for step in 1...5 {
            let time = t.adding(seconds: 0.01 * Double(step))
            later += [RawEvent(time: time, usage: .absMTPositionX, value: 900 + Int32(step * 10)), RawEvent(time: time, usage: .synReport, value: 0)]
        }
        let lift = t.adding(seconds: 0.1)
        later += [RawEvent(time: lift, usage: .absMTTrackingID, value: -1), RawEvent(time: lift, usage: .synReport, value: 0)]
        run.feedFrames(later)
        run.finish()
        let touches = Self.read(run.clone).touches
        #expect(touches.last == "cancel t0", "only the drag's cancel after the drop: \(touches.suffix(3))")
        #expect(touches.filter { $0.hasPrefix("down") }.count == 1, "\(touches.suffix(3))")
        #expect(!run.planner.hasTouchDown)
    }
}
