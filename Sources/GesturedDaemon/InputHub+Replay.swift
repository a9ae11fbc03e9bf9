public import GestureEngine
import GesturedLogging
import GesturedProtocol
import GesturedSystem

/// How a replayed recording is paced.
public enum ReplayPacing: Sendable, Equatable {
    /// As fast as possible: the recording's timestamps are the only clock (tests, `--replay`).
    case asFastAsPossible
    /// At the recording's own speed, scaled (1 = real time); deadlines fire on time.
    case realtime(speed: Double)
}

/// A recording played through the daemon as if it were a device (the replay input back-end,
/// STYLE.md B13 tier 6): the same pipeline, publisher and clients as a live device.
final class ReplaySession {
    let node: String
    /// Replays play on the default seat.
    let seat = SeatSessions.defaultSeat
    var pipeline: GesturePipeline
    /// The device as its lines name it (its node's kernel name found once, not per frame).
    let wire: WireDevice
    /// Its index in the hub's ``InputHub/replaysBySlot``: a step finds it there, not by node.
    var slot = -1
    let events: [RawEvent]
    var index = 0
    let pacing: ReplayPacing
    /// Monotonic µs at which the recording's first event is played.
    var wallOrigin: Int64 = 0
    var recordingOrigin: Int64 = 0
    let completion: @Sendable () -> Void
    /// Wakes the next step of a real-time replay.
    var timer: LoopTimer?
    /// Reused for every step, so a frame costs no output array.
    var outputs: [EngineOutput] = []

    init(node: String, pipeline: GesturePipeline, events: [RawEvent], pacing: ReplayPacing, completion: @escaping @Sendable () -> Void) {
        self.node = node
        self.pipeline = pipeline
        self.wire = WireDevice(node: node, device: pipeline.device)
        self.events = events
        self.pacing = pacing
        self.completion = completion
    }
}

extension GesturePipeline {
    /// The device setup and pipeline `gestured --replay` plays a recording through: the
    /// configuration's setup for the device (none: the engine defaults), then a pipeline on
    /// it. gestured-eval's stress set builds its replays here too, so that what it measures
    /// is what a user's replay runs.
    public static func forReplay(node: String, device: DeviceDescription, kind: DeviceKind, configurator: DeviceConfigurator)
        -> (setup: DeviceSetup, pipeline: GesturePipeline)
    {
        let setup = configurator(device, kind, [:]) ?? DeviceSetup(configuration: EngineConfiguration(), device: device)
        return (
            setup,
            GesturePipeline(node: node, device: setup.device, configuration: setup.configuration, filterSettings: setup.filterSettings)
        )
    }
}

extension InputHub {
    /// Plays `events` as device `node` (a name like `replay:demo.evemu`), publishing
    /// `device_added`, the gestures, and `device_removed` at the end.
    /// - Parameter completion: called on the input loop when the replay has finished.
    public func addReplay(
        node: String,
        device: DeviceDescription,
        kind: DeviceKind,
        events: [RawEvent],
        pacing: ReplayPacing,
        completion: @escaping @Sendable () -> Void = {}
    ) {
        let made = GesturePipeline.forReplay(node: node, device: device, kind: kind, configurator: configurator)
        let setup = made.setup
        var pipeline = made.pipeline
        let configuration = setup.configuration
        // Transitions are logged at debug only (as for a device).
        pipeline.recordsTransitions = logger.isEnabled(.debug)
        let session = ReplaySession(
            node: node,
            pipeline: pipeline,
            events: events,
            pacing: pacing,
            completion: completion
        )
        replays[node] = session
        session.slot = replaysBySlot.count
        replaysBySlot.append(session)
        let info = WireMapping.deviceInfo(
            node: node, device: setup.device, kind: kind, gestures: configuration.recognizers.map(\.name), seat: session.seat)
        state.setDevice(info)
        publisher.publish(.deviceAdded(info))
        logger.notice("Replay started", [("device.node", node), ("device.name", device.name), ("events", "\(events.count)")])
        switch pacing {
        case .asFastAsPossible:
            var outputs = session.pipeline.feed(events)
            outputs += session.pipeline.finishReplay()
            publishReplay(outputs, session)
            finishReplay(node)
        case .realtime:
            session.wallOrigin = MonotonicClock.nowMicroseconds()
            session.recordingOrigin = events.first?.time.microseconds ?? 0
            stepReplay(slot: session.slot)
        }
    }

    private func publishReplay(_ outputs: [EngineOutput], _ session: ReplaySession) {
        logReplayDecisions(session)
        publishOutputs(outputs, wire: session.wire, seat: session.seat, consuming: nil)
    }

    /// Plays everything due by now (recording time), fires due deadlines, and schedules the
    /// next step for the earlier of the next event and the next deadline.
    /// - Parameter slot: the session's index (``ReplaySession/slot``): looked up by index, not by
    ///   its node (a string's hash every step).
    private func stepReplay(slot: Int) {
        guard slot < replaysBySlot.count, let session = replaysBySlot[slot], case .realtime(let speed) = session.pacing,
            session.index <= session.events.count
        else { return }
        let node = session.node
        // Raw touches followed only while a subscriber reads them (``followTouches(_:)``).
        let wanted = publisher.wantsTouches
        if session.pipeline.deliversTouches != wanted { session.pipeline.deliversTouches = wanted }
        let elapsedWall = MonotonicClock.nowMicroseconds() - session.wallOrigin
        let nowRecording = session.recordingOrigin + Int64(Double(elapsedWall) * speed)
        var outputs = session.outputs
        session.outputs = []
        outputs.removeAll(keepingCapacity: true)
        // Deadlines that fall before the next event fire first, at their own time.
        // `storedDeadline`, not the computed `nextDeadline`: read through the session (a
        // class), the computed property copies the whole pipeline first.
        while let deadline = session.pipeline.storedDeadline, deadline.microseconds <= nowRecording,
            session.index >= session.events.count || deadline < session.events[session.index].time
        {
            session.pipeline.advance(to: deadline, into: &outputs)
        }
        // Every event due by now, in one call, from the recording's own storage.
        var end = session.index
        while end < session.events.count, session.events[end].time.microseconds <= nowRecording { end += 1 }
        if end > session.index {
            session.pipeline.feed(session.events[session.index..<end], into: &outputs)
            session.index = end
        }
        publishReplay(outputs, session)
        session.outputs = outputs
        guard session.index < session.events.count || session.pipeline.storedDeadline != nil else {
            publishReplay(session.pipeline.finishReplay(), session)
            finishReplay(node)
            return
        }
        var next = session.index < session.events.count ? session.events[session.index].time.microseconds : Int64.max
        if let deadline = session.pipeline.storedDeadline { next = min(next, deadline.microseconds) }
        let delay = max(0, Int64(Double(next - nowRecording) / speed))
        if session.timer == nil {
            let loop = self.loop
            let slot = session.slot
            session.timer = loop.makeTimer { [weak self] in
                guard let self else { return }
                onLoop(self, loop, slot) { hub, slot in hub.stepReplay(slot: slot) }
            }
        }
        session.timer?.schedule(atMonotonicMicroseconds: MonotonicClock.nowMicroseconds() + delay)
    }

    /// The touch filter's decisions with their reasons (`--verbose`, or `--touches`, which
    /// prints them beside the touches they concern) and the state transitions (`--verbose`).
    private func logReplayDecisions(_ session: ReplaySession) {
        guard session.pipeline.hasDiagnostics else { return }
        for diagnostic in session.pipeline.drainDiagnostics() {
            switch diagnostic {
            case .touchFilter(let decision):
                let fields = [
                    ("device.node", session.node), ("time_us", String(decision.timestamp.microseconds)),
                    ("decision", decision.description),
                ]
                if publisher.wantsTouches {
                    logger.notice("Touch filter decision", fields)
                } else {
                    logger.debug("Touch filter decision", fields)
                }
            case .transition:
                logger.debug("Gesture state transition", [("device.node", session.node), ("transition", diagnostic.description)])
            case .kernelBug, .engineBug, .configuration:
                logger.warning("Device or engine problem, ignoring", [("device.node", session.node), ("problem", diagnostic.description)])
            }
        }
    }

    /// Stops every replay: gestures in flight are cancelled, as for an unplugged device.
    func cancelReplays(reason: String) {
        let now = Timestamp(microseconds: MonotonicClock.nowMicroseconds())
        for node in replays.keys.sorted() {
            guard let session = replays[node] else { continue }
            // Replay time is the recording's clock: cancel at the last time it reached.
            publishReplay(session.pipeline.cancelAll(at: session.pipeline.now ?? now), session)
            session.index = session.events.count
            finishReplay(node)
        }
    }

    private func finishReplay(_ node: String) {
        guard let session = replays.removeValue(forKey: node) else { return }
        if session.slot >= 0, session.slot < replaysBySlot.count { replaysBySlot[session.slot] = nil }
        session.timer?.cancel()
        session.timer = nil
        state.removeDevice(node: node)
        publisher.publish(.deviceRemoved(DeviceRemovedEvent(device: node, name: session.pipeline.device.name)))
        logger.notice("Replay finished", [("device.node", node)])
        session.completion()
    }
}
