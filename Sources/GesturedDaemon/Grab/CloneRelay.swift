import GestureEngine
import GesturedLogging
import GesturedSystem

/// A grabbed device's path to the compositor: source frames in, the engine's sink output
/// planned into clone frames (``CloneFramePlanner``), written to the uinput clone
/// (``UInputClone``). Confined to the input actor, like the ``DeviceSession`` that owns it.
///
/// A read's frames go one at a time: each frame's pass-through reaches the clone before the
/// engine sees the frame, then the step's own decisions, then the next frame; the hub
/// publishes to socket clients only after the whole read (DESIGN.md "Grab and clone").
final class CloneRelay {
    let clone: any CloneDevice
    var planner: CloneFramePlanner
    /// The gestures whose touches applications do not see (they cancel or delay them).
    var consumingGestures: Set<String>
    /// A write failed (the clone is gone); nothing more is written.
    private(set) var hasFailed = false
    private var sinkEvents: [SinkTouchEvent] = []
    /// Reads that contained a `SYN_DROPPED` since ``takeDroppedReads()``.
    private var droppedReads = 0
    /// The events of a frame a read ended inside (before its `SYN_REPORT`), for the next read.
    private var partial: [RawEvent] = []
    /// The clone events of one write, kept between writes (no array per frame); empty
    /// between writes (each emptied after its write, off the pass-through's path).
    private var planned: [RawEvent] = []
    /// Landings written before their step (``landingsAhead(_:pipeline:)``), for the tests and
    /// the debug log.
    private(set) var landingsWrittenAhead = 0
    /// Whether foreseen landings are written before the step (on in the daemon); off, a
    /// landing waits for its step as every frame that changes contacts once did (tests compare
    /// the two).
    var writesLandingsAhead = true

    init(clone: any CloneDevice, device: DeviceDescription, configuration: EngineConfiguration) {
        self.clone = clone
        self.planner = CloneFramePlanner(device: device)
        self.consumingGestures = Self.consumingGestures(configuration)
        planned.reserveCapacity(64)
    }

    /// The gestures that take their touches from applications.
    static func consumingGestures(_ configuration: EngineConfiguration) -> Set<String> {
        Set(configuration.recognizers.filter { $0.cancelsTouchesInView || $0.delaysTouchesBegan }.map(\.name))
    }

    /// Seeds the mirror with the source's slot values at grab time: the kernel sends only
    /// changes, so a new touch that lands where the last one in its slot was would otherwise
    /// start from stale values.
    func seed(_ events: [RawEvent]) {
        planner.observeSource(events)
    }

    /// Feeds a read's events through `pipeline` one source frame at a time; engine outputs go
    /// to `outputs`. For each frame: the pass-through (the values of the touches the clone
    /// has, when the frame only moved contacts) is written first, in one `write(2)`, then the
    /// engine runs, then what its sink decided is written, before the next frame is judged.
    /// A frame is a slice of the read (no copy of its events); one the read ends before its
    /// `SYN_REPORT` waits for the next read.
    func feed(_ events: [RawEvent], pipeline: inout GesturePipeline, into outputs: inout [EngineOutput]) -> SystemError? {
        var failure: SystemError?
        var start = events.startIndex
        for index in events.indices {
            let usage = events[index].usage
            if usage == .synDropped { droppedReads += 1 }
            guard usage == .synReport else { continue }
            let error: SystemError?
            if partial.isEmpty {
                error = step(events[start...index], pipeline: &pipeline, into: &outputs)
            } else {
                partial += events[start...index]
                error = step(partial[...], pipeline: &pipeline, into: &outputs)
                partial.removeAll(keepingCapacity: true)
            }
            if let error { failure = failure ?? error }
            start = index + 1
        }
        if start < events.endIndex { partial += events[start...] }
        return failure
    }

    /// One source frame: its pass-through, then the engine's step, then its sink's decisions.
    /// A frame that begins or ends contacts has no pass-through; its landings that the engine
    /// foresees forwarding at once are written between the filter and the step instead
    /// (``landingsAhead(_:pipeline:)``).
    private func step(_ frame: ArraySlice<RawEvent>, pipeline: inout GesturePipeline, into outputs: inout [EngineOutput]) -> SystemError? {
        var (failure, isMotion) = passThrough(frame)
        planned.removeAll(keepingCapacity: true)
        var start = outputs.count
        if isMotion {
            pipeline.feed(frame, into: &outputs)
        } else if let filtered = pipeline.prepare(frame, into: &outputs) {
            // What came due before the frame (a held lift, a timer) goes out before it.
            if outputs.count > start {
                if let error = plan(outputs[start...]) { failure = failure ?? error }
                start = outputs.count
            }
            if let error = landingsAhead(filtered, pipeline: pipeline) { failure = failure ?? error }
            pipeline.step(filtered, into: &outputs)
        }
        if let error = plan(outputs[start...]) { failure = failure ?? error }
        return failure
    }

    /// The hop proper: the source frame observed and its pass-through written to the clone.
    /// Out of line, so that a profile counts it whole
    /// (`scripts/vm/latency/clone-instructions.sh`).
    @inline(never)
    private func passThrough(_ frame: ArraySlice<RawEvent>) -> (SystemError?, isMotion: Bool) {
        planner.observeSource(frame)
        let isMotion = planner.passThrough(into: &planned)
        return (write(planned), isMotion)
    }

    /// The landing's hop: touch-downs no recognizer can hold back, written before the step
    /// (DESIGN.md "Grab and clone").
    @inline(never)
    private func landingsAhead(_ frame: Frame, pipeline: GesturePipeline) -> SystemError? {
        guard writesLandingsAhead else { return nil }
        let began = pipeline.engine.landingsForwardedAtOnce(in: frame)
        guard !began.isEmpty else { return nil }
        planner.planLandings(began, into: &planned)
        landingsWrittenAhead += began.count
        let error = write(planned)
        planned.removeAll(keepingCapacity: true)
        return error
    }

    /// Plans and writes the sink part of outputs that came from no source frame (timers,
    /// reconfiguration, cancellation).
    @discardableResult
    func forward(_ outputs: some Collection<EngineOutput>) -> SystemError? {
        plan(outputs)
    }

    private func plan(_ outputs: some Collection<EngineOutput>) -> SystemError? {
        sinkEvents.removeAll(keepingCapacity: true)
        for output in outputs { if case .touch(let t) = output { sinkEvents.append(t) } }
        planner.plan(sinkEvents, into: &planned)
        let error = write(planned)
        planned.removeAll(keepingCapacity: true)
        return error
    }

    /// Landings written ahead that a gesture then claimed on their first frame (cancelled in
    /// the clone, ``CloneFramePlanner/unforeseen``), since the last call.
    func takeUnforeseenLandings() -> Int {
        let total = planner.unforeseen
        defer { reportedUnforeseen = total }
        return total - reportedUnforeseen
    }
    private var reportedUnforeseen = 0

    /// The number of reads with lost events since the last call.
    func takeDroppedReads() -> Int {
        defer { droppedReads = 0 }
        return droppedReads
    }

    /// Lifts every touch the clone has, then removes it.
    func close() -> SystemError? {
        let error = write(planner.liftAll())
        clone.destroy()
        return error
    }

    private func write(_ events: [RawEvent]) -> SystemError? {
        guard !events.isEmpty, !hasFailed else { return nil }
        do {
            try clone.write(events)
            return nil
        } catch {
            hasFailed = true
            return error
        }
    }
}

/// Where a ``CloneRelay`` writes: the uinput clone (``UInputClone``), or a test's collector.
protocol CloneDevice: AnyObject {
    /// The clone's node (`/dev/input/eventN`), once udev has made it.
    var devnode: String? { get }
    /// Writes whole frames (each ends with its `SYN_REPORT`), in one system call.
    func write(_ events: [RawEvent]) throws(SystemError)
    /// Removes the clone.
    func destroy()
}

extension UInputClone: CloneDevice {}
