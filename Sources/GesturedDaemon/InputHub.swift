public import GestureEngine
public import GesturedLogging
import GesturedProtocol
public import GesturedSystem

/// Chooses the engine configuration for a device; nil means "not ours" (no rule matched, or
/// the device is disabled). Supplied by the daemon from the loaded configuration.
public typealias DeviceConfigurator = @Sendable (_ device: DeviceDescription, _ kind: DeviceKind, _ udevProperties: [String: String]) -> DeviceSetup?

/// The input domain (STYLE.md B8): every device session, its engine and the single timer live
/// on one ``EventLoop``, so frames are handled in order, on one thread, woken by the device
/// itself. Clients never block it: results go to an ``EventPublisher`` that never waits (the
/// daemon's IPC server writes non-blocking, into bounded outboxes).
public actor InputHub {
    let loop: EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    private var sessions: [String: DeviceSession] = [:]
    /// The open sessions sorted by node (the timer's order), kept on add and remove so that a
    /// frame or a timer never looks a device up by its node string nor sorts.
    private var orderedSessions: [DeviceSession] = []
    /// The open sessions indexed by their device's file descriptor (a small integer).
    private var sessionsByDescriptor: [DeviceSession?] = []
    private var timer: LoopTimer?
    private var armedDeadline: Int64?
    private var monitor: UdevMonitor?
    private var monitorWatch: FileWatch?
    let publisher: any EventPublisher
    let state: DaemonState
    let logger: Logger
    var configurator: DeviceConfigurator
    var replays: [String: ReplaySession] = [:]
    /// The same sessions by ``ReplaySession/slot`` (nil once finished; slots are not reused),
    /// so a replay's timer step finds its session by index, as a device's read does.
    var replaysBySlot: [ReplaySession?] = []
    /// Nodes that failed to open or were not ours, with the reason (for `list_devices` logs).
    private var ignored: [String: String] = [:]
    /// Past every gesture sequence a closed device's engine gave out: a device opened later
    /// (the same node after a replug) starts here, so `gesture_id` stays unique per node while
    /// the daemon runs (gestured-ipc(7)).
    private var sequenceFloor: UInt64 = 1
    /// Who receives gesture events while a seat is locked.
    var lockGate = LockGate()
    /// The batches of the last publishes, reused once no client holds their lines.
    var publishBatches = BatchPool(initial: 4, limit: 1024)

    /// - Parameter loop: the event loop the hub runs on (the daemon shares one with its IPC
    ///   server, so gestures reach clients from the thread that read the frame).
    public init(loop: EventLoop, publisher: any EventPublisher, state: DaemonState, logger: Logger, configurator: @escaping DeviceConfigurator) {
        self.loop = loop
        self.publisher = publisher
        self.state = state
        self.logger = logger
        self.configurator = configurator
    }

    public var deviceNodes: [String] { sessions.keys.sorted() }
    var deviceSessions: Dictionary<String, DeviceSession>.Values { sessions.values }

    // MARK: Hot-plug

    /// Starts the udev monitor first (so nothing is missed), then opens every input device
    /// already present.
    public func startHotplug() {
        do {
            let monitor = try UdevMonitor()
            let loop = self.loop
            self.monitorWatch = try loop.watch(monitor.fileDescriptor) { [weak self] in
                guard let self else { return }
                onLoop(self, loop, ()) { hub, _ in hub.udevReadable() }
            }
            self.monitor = monitor
        } catch {
            logger.warning("Failed to start the udev monitor, continuing without hot-plug", [("error", "\(error)")])
        }
        do {
            for device in try UdevEnumerator.inputDevices() {
                addDevice(node: device.devnode, udevProperties: device.properties)
            }
        } catch {
            logger.warning("Failed to enumerate input devices, continuing with hot-plug only", [("error", "\(error)")])
        }
        updateStatus()
    }

    private func udevReadable() {
        guard let monitor else { return }
        while let event = monitor.receive() {
            switch event.action {
            case "add":
                addDevice(node: event.devnode, udevProperties: event.properties)
            case "remove":
                removeDevice(node: event.devnode, reason: "udev remove")
            default:
                continue
            }
        }
    }

    // MARK: Devices

    /// Opens `node` when it is a touch device the configuration wants.
    public func addDevice(node: String, udevProperties: [String: String] = [:]) {
        guard node.hasPrefix("/dev/input/event"), sessions[node] == nil else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: node)
        } catch {
            // Not every event node is readable or ours; a device we cannot open is logged
            // once and skipped, never fatal.
            ignored[node] = error.description
            logger.warning("Failed to open input device, ignoring", [("device.node", node), ("error", error.userFacingDescription)])
            return
        }
        // A clone of a grabbed device (ours, or another gestured's) is never read: its
        // touches are the ones gestures left to applications.
        if device.isGesturedClone || udevProperties["GESTURED_CLONE"] == "1" || isOwnClone(node) {
            device.close()
            ignored[node] = "a gestured clone"
            logger.debug("A gestured clone, ignoring", [("device.node", node)])
            return
        }
        let description = device.description
        let kind: DeviceKind
        switch DeviceClassifier.classify(description) {
        case .success(let classification): kind = classification.kind
        case .failure(let why):
            ignored[node] = why.description
            // A device that claims touch (multitouch axes, or udev says touchscreen/touchpad)
            // but cannot be used — empty axis ranges, say — is something the user must hear
            // of; keyboards and mice are refused quietly.
            let claimsTouch = description.axis(.absMTPositionX) != nil
                || udevProperties["ID_INPUT_TOUCHSCREEN"] == "1" || udevProperties["ID_INPUT_TOUCHPAD"] == "1"
            logger.log(
                claimsTouch ? .warning : .debug, claimsTouch ? "Touch device cannot be used, ignoring" : "Not a touch device, ignoring",
                [("device.node", node), ("device.name", description.name), ("reason", why.reasons.joined(separator: ", "))])
            return
        }
        guard let setup = configurator(description, kind, udevProperties) else {
            ignored[node] = "no configuration matches"
            logger.info("No configuration matches device, ignoring", [("device.node", node), ("device.name", description.name)])
            return
        }
        let session = DeviceSession(
            node: node,
            kind: kind,
            device: device,
            udevProperties: udevProperties,
            pipeline: GesturePipeline(
                node: node, device: setup.device, configuration: setup.configuration, filterSettings: setup.filterSettings,
                firstSequence: sequenceFloor)
        )
        // Transitions are logged at debug only: below that, none is built.
        session.pipeline.recordsTransitions = logger.isEnabled(.debug)
        let configuration = setup.configuration
        do {
            // Found by its descriptor, an index: a readable device costs no lookup by node.
            let descriptor = device.fileDescriptor
            let loop = self.loop
            session.watch = try loop.watch(descriptor) { [weak self] in
                guard let self else { return }
                onLoop(self, loop, descriptor) { hub, descriptor in hub.readable(descriptor: descriptor) }
            }
        } catch {
            device.close()
            ignored[node] = "cannot watch it: \(error)"
            logger.error("Failed to watch input device, ignoring it", [("device.node", node), ("error", error.description)])
            return
        }
        sessions[node] = session
        orderedSessions.insert(session, at: orderedSessions.firstIndex { $0.node > node } ?? orderedSessions.endIndex)
        let descriptor = Int(device.fileDescriptor)
        if sessionsByDescriptor.count <= descriptor { sessionsByDescriptor += Array(repeating: nil, count: descriptor + 1 - sessionsByDescriptor.count) }
        sessionsByDescriptor[descriptor] = session
        ignored[node] = nil
        let info = WireMapping.deviceInfo(
            node: node, device: setup.device, kind: kind, gestures: configuration.recognizers.map(\.name), seat: session.seat)
        state.setDevice(info)
        publisher.publish(.deviceAdded(info))
        // Every slot's last values first (``SlotSeed``).
        let openedAt = Timestamp(microseconds: MonotonicClock.nowMicroseconds())
        _ = session.pipeline.feed(SlotSeed.events(device.slotValueEvents(at: openedAt), at: openedAt))
        // Fingers already down (the daemon restarted, or the device was opened mid-touch)
        // begin now, where they are, instead of when they first move.
        let initial = device.initialStateEvents(at: openedAt)
        if !initial.isEmpty {
            publish(session.pipeline.feed(initial), from: session)
            logger.info("Touches already down when the device was opened", [("device.node", node)])
            rearmTimer()
        }
        session.wantsGrab = setup.grab
        if setup.grab { updateGrab(session, announce: true) }
        logger.notice(
            "Device added",
            [("device.node", node), ("device.name", description.name), ("device.usage", kind.rawValue),
             ("gestures", "\(configuration.recognizers.count)")]
        )
        if !setup.device.hasResolution {
            let estimate = kind == .touchpad
                ? "as a 69 × 50 mm touchpad"
                : "at \(DeviceDescription.fallbackResolution) units/mm (at most \(Int(DeviceDescription.fallbackMaximumSize)) mm an axis)"
            logger.warning(
                "Device reports no resolution; millimetres are estimated \(estimate), set WidthMM=/HeightMM= in gestured.conf",
                [("device.node", node), ("device.width_mm", "\(setup.device.widthMillimeters)"), ("device.height_mm", "\(setup.device.heightMillimeters)")])
        }
        updateStatus()
    }

    /// Closes a device; its gestures in flight are published as cancelled.
    public func removeDevice(node: String, reason: String) {
        guard let session = sessions.removeValue(forKey: node) else { return }
        orderedSessions.removeAll { $0 === session }
        let descriptor = Int(session.device.fileDescriptor)
        if descriptor < sessionsByDescriptor.count, sessionsByDescriptor[descriptor] === session { sessionsByDescriptor[descriptor] = nil }
        session.isOpen = false
        let now = Timestamp(microseconds: MonotonicClock.nowMicroseconds())
        let outputs = session.pipeline.cancelAll(at: now)
        forwardToClone(outputs, from: session)
        publish(outputs, from: session)
        // The node may come back (a replug, a reload): its next engine numbers on from here.
        sequenceFloor = max(sequenceFloor, session.pipeline.engine.upcomingSequence)
        endGrab(session, reason: reason)
        session.watch?.cancel()
        session.watch = nil
        session.device.close()
        state.removeDevice(node: node)
        publisher.publish(.deviceRemoved(DeviceRemovedEvent(device: node, name: session.pipeline.device.name)))
        logger.notice("Device removed", [("device.node", node), ("device.name", session.pipeline.device.name), ("reason", reason)])
        rearmTimer()
        updateStatus()
    }

    private func readable(descriptor: Int32) {
        let index = Int(descriptor)
        guard index < sessionsByDescriptor.count, let session = sessionsByDescriptor[index] else { return }
        readable(session)
    }

    private func readable(_ session: DeviceSession) {
        guard session.isOpen else { return }
        let outcome: EvdevReadOutcome
        do {
            outcome = try session.device.readAvailable()
        } catch {
            logger.error("Failed to read input device, closing it", [("device.node", session.node), ("error", error.description)])
            removeDevice(node: session.node, reason: "read error")
            return
        }
        switch outcome {
        case .events(let events):
            followTouches(session)
            if let relay = session.relay {
                // Nothing ahead of the clone's pass-through that can wait until after it: the
                // lost events are logged after the feed, the outputs emptied once published
                // (DESIGN.md "Grab and clone").
                if let error = relay.feed(events, pipeline: &session.pipeline, into: &session.outputs) { logClone(error, session) }
                if events.contains(where: { $0.usage == .synDropped }) { logLostEvents(session) }
                noteCloneRead(session)
            } else {
                if events.contains(where: { $0.usage == .synDropped }) { logLostEvents(session) }
                session.pipeline.feed(events, into: &session.outputs)
            }
            publish(session.outputs, from: session)
            session.outputs.removeAll(keepingCapacity: true)
            logDiagnostics(session)
            rearmTimer()
            if session.wantsGrab != (session.relay != nil) { updateGrab(session) }
        case .removed(let events):
            let outputs = session.pipeline.feed(events)
            forwardToClone(outputs, from: session)
            publish(outputs, from: session)
            removeDevice(node: session.node, reason: "device gone (ENODEV)")
        }
    }

    /// Raw touches are followed only while someone reads them: a raw-touch subscriber, or
    /// the grab's clone, which forwards what the sink lets through. Asked before each read
    /// (the subscription can change between two), so nothing is built to be dropped.
    func followTouches(_ session: DeviceSession) {
        let wanted = session.relay != nil || publisher.wantsTouches
        if session.pipeline.deliversTouches != wanted { session.pipeline.deliversTouches = wanted }
    }

    // MARK: Timer

    /// One timer for every engine (STYLE.md B8): armed for the earliest deadline, disarmed when
    /// there is none, so an idle daemon sleeps in the kernel. Deadlines are kernel input
    /// timestamps (CLOCK_MONOTONIC µs), which the loop's timer takes as they are.
    private func rearmTimer() {
        var next: Int64?
        for session in orderedSessions {
            guard let deadline = session.pipeline.storedDeadline?.microseconds else { continue }
            next = min(next ?? deadline, deadline)
        }
        guard next != armedDeadline else { return }
        armedDeadline = next
        guard let next else {
            timer?.disarm()
            return
        }
        if timer == nil {
            let loop = self.loop
            timer = loop.makeTimer { [weak self] in
                guard let self else { return }
                onLoop(self, loop, ()) { hub, _ in hub.timerFired() }
            }
        }
        timer?.schedule(atMonotonicMicroseconds: next)
    }

    private func timerFired() {
        armedDeadline = nil
        let now = Timestamp(microseconds: MonotonicClock.nowMicroseconds())
        // Input the kernel stamped before now and that the loop has not read yet goes first:
        // the engine fires each due deadline at its own time ahead of those frames, in the
        // order a replay of the same events takes. Serviced ahead of an unread frame, the
        // timer made the engine see that frame in its past, and the live gestures differed
        // from the recording's (the 40 ms landing wait of a one-finger pan made it common).
        for session in orderedSessions {
            guard let deadline = session.pipeline.storedDeadline, deadline <= now else { continue }
            readable(session)
        }
        // (readable may have closed a device: iterate a snapshot, skip the closed.)
        for session in orderedSessions {
            guard session.isOpen, let deadline = session.pipeline.storedDeadline, deadline <= now else { continue }
            let outputs = session.pipeline.advance(to: now)
            forwardToClone(outputs, from: session)
            publish(outputs, from: session)
            logDiagnostics(session)
        }
        rearmTimer()
    }

    // MARK: Configuration

    /// Applies a new configuration: every open device gets its new engine configuration
    /// (gestures in flight on changed recognizers are cancelled); devices that no longer match
    /// are closed.
    public func reconfigure(_ configurator: @escaping DeviceConfigurator) {
        self.configurator = configurator
        let now = Timestamp(microseconds: MonotonicClock.nowMicroseconds())
        for node in sessions.keys.sorted() {
            guard let session = sessions[node] else { continue }
            guard let setup = configurator(session.device.description, session.kind, session.udevProperties) else {
                removeDevice(node: node, reason: "no longer matched by the configuration")
                continue
            }
            let outputs = session.pipeline.reconfigure(setup.configuration, at: now)
            forwardToClone(outputs, from: session)
            publish(outputs, from: session)
            session.relay?.consumingGestures = CloneRelay.consumingGestures(setup.configuration)
            session.wantsGrab = setup.grab
            session.grabRefused = false
            updateGrab(session, announce: true)
            state.setDevice(
                WireMapping.deviceInfo(
                    node: node, device: session.pipeline.device, kind: session.kind, gestures: setup.configuration.recognizers.map(\.name),
                    seat: session.seat)
            )
        }
        rearmTimer()
        updateStatus()
    }

    /// The `[Gesture]` names marked `WhenLocked=yes`: their events reach every client while
    /// the seat is locked.
    public func setGesturesWhenLocked(_ names: Set<String>) {
        lockGate.gesturesWhenLocked = names
    }

    /// Cancels every gesture in flight and closes all devices (graceful shutdown).
    public func shutdown() {
        monitorWatch?.cancel()
        monitorWatch = nil
        monitor = nil
        for node in sessions.keys.sorted() { removeDevice(node: node, reason: "daemon stopping") }
        cancelReplays(reason: "daemon stopping")
        timer?.cancel()
        timer = nil
        armedDeadline = nil
    }

    // MARK: Helpers

    func publish(_ outputs: [EngineOutput], from session: DeviceSession) {
        publishOutputs(outputs, wire: session.wire, seat: session.seat, consuming: session.relay?.consumingGestures)
    }

    func logDiagnostics(_ session: DeviceSession) {
        guard session.pipeline.hasDiagnostics else { return }
        for diagnostic in session.pipeline.drainDiagnostics() {
            switch diagnostic {
            case .transition:
                logger.debug("Gesture state transition", [("device.node", session.node), ("transition", diagnostic.description)])
            case .touchFilter(let decision):
                logger.debug(
                    "Touch filter decision",
                    [("device.node", session.node), ("time_us", String(decision.timestamp.microseconds)), ("decision", decision.description)])
            case .kernelBug, .engineBug, .configuration:
                let now = MonotonicClock.nowMicroseconds()
                switch session.diagnosticLimiter.check(now: now) {
                case .pass:
                    logger.warning("Device or engine problem, ignoring", [("device.node", session.node), ("problem", diagnostic.description)])
                case .passAndSuppressFurther:
                    logger.warning("Device or engine problem, ignoring; suppressing further messages for a while", [("device.node", session.node), ("problem", diagnostic.description)])
                case .suppress:
                    continue
                }
            }
        }
    }

    /// A `SYN_DROPPED` in what was read: the kernel's buffer for this reader overflowed (the
    /// daemon was stopped or starved, or the device sent more in one frame than fits). The
    /// assembler cancels the touches in flight and resynchronises; the user should know why.
    func logLostEvents(_ session: DeviceSession) {
        switch session.lostEventsLimiter.check(now: MonotonicClock.nowMicroseconds()) {
        case .pass:
            logger.warning("Events lost (SYN_DROPPED): touches in flight cancelled, device state resynchronised", [("device.node", session.node)])
        case .passAndSuppressFurther:
            logger.warning("Events lost (SYN_DROPPED): touches in flight cancelled, device state resynchronised; suppressing further messages for a while", [("device.node", session.node)])
        case .suppress:
            break
        }
    }

    private func updateStatus() {}
}

/// One open device: its evdev handle, read source and pipeline. Confined to the input actor.
final class DeviceSession {
    let node: String
    let kind: DeviceKind
    let device: EvdevDevice
    let udevProperties: [String: String]
    /// The logind seat (udev `ID_SEAT`, else "seat0").
    let seat: String
    var pipeline: GesturePipeline
    /// The device as its lines name it (its node's kernel name found once, not per frame).
    let wire: WireDevice
    var watch: FileWatch?
    /// Reused for every read, so a frame costs no output array.
    var outputs: [EngineOutput] = []
    /// False once the device is closed (a handler already queued must not read it).
    var isOpen = true
    var diagnosticLimiter = RateLimiter(burst: 5, intervalMicroseconds: 60_000_000)
    /// `Grab=yes` applies (it takes effect when no finger is down).
    var wantsGrab = false
    /// The grab failed or does not apply to this device; not retried until a reload.
    var grabRefused = false
    /// The uinput clone the compositor reads while the device is grabbed.
    var relay: CloneRelay?
    var lostEventsLimiter = RateLimiter(burst: 5, intervalMicroseconds: 60_000_000)

    init(node: String, kind: DeviceKind, device: EvdevDevice, udevProperties: [String: String], pipeline: GesturePipeline) {
        self.node = node
        self.kind = kind
        self.device = device
        self.udevProperties = udevProperties
        self.seat = SeatSessions.seat(udevProperties: udevProperties)
        self.pipeline = pipeline
        self.wire = WireDevice(node: node, device: pipeline.device)
    }
}
