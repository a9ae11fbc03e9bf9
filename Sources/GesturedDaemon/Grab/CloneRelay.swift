import GestureEngine
import GesturedLogging
import GesturedSystem

/// A grabbed device's path to the compositor: source frames in, the engine's sink output
/// planned into clone frames (``CloneFramePlanner``), written to the uinput clone
/// (``UInputClone``). Confined to the input actor, like the ``DeviceSession`` that owns it.
final class CloneRelay {
    let clone: UInputClone
    private(set) var planner: CloneFramePlanner
    /// The gestures whose touches applications do not see (they cancel or delay them).
    var consumingGestures: Set<String>
    /// A write failed (the clone is gone); nothing more is written.
    private(set) var hasFailed = false
    private var sinkEvents: [SinkTouchEvent] = []
    /// Reads that contained a `SYN_DROPPED` since ``takeDroppedReads()``.
    private var droppedReads = 0
    private var frame: [RawEvent] = []

    init(clone: UInputClone, device: DeviceDescription, configuration: EngineConfiguration) {
        self.clone = clone
        self.planner = CloneFramePlanner(device: device)
        self.consumingGestures = Self.consumingGestures(configuration)
        frame.reserveCapacity(64)
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

    /// Feeds a read's events through `pipeline` one source frame at a time, writing each
    /// frame's clone output before the next frame is judged; engine outputs go to `outputs`.
    func feed(_ events: [RawEvent], pipeline: inout GesturePipeline, into outputs: inout [EngineOutput]) -> SystemError? {
        var failure: SystemError?
        for event in events {
            if event.usage == .synDropped { droppedReads += 1 }
            frame.append(event)
            guard event.usage == .synReport else { continue }
            let start = outputs.count
            pipeline.feed(frame, into: &outputs)
            planner.observeSource(frame)
            frame.removeAll(keepingCapacity: true)
            if let error = plan(outputs[start...]) { failure = failure ?? error }
        }
        return failure
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
        let planned = planner.plan(sinkEvents)
        return write(planned)
    }

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
