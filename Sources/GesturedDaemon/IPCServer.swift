public import GesturedLogging
import GesturedProtocol
public import GesturedSystem

/// Limits and permissions of the client side (from `[Daemon]` in gestured.conf).
public struct IPCSettings: Sendable {
    public var maxClients = 512
    public var outboxSoftLimit = 256
    public var outboxHardLimit = 2048
    /// Group whose members (and root) may subscribe to raw touches; nil = nobody but root.
    public var rawTouchGroup: UInt32?
    /// `AllowInputForActiveSession=`: `send_keys` and `click` may be carried out.
    public var allowInput = false
    public var daemonVersion = "0.1.0"

    public init() {}
}

/// The socket server (STYLE.md B8): owns the listener and every client session. It runs on
/// an ``EventLoop`` — in the daemon the same one as the input hub, so a frame's gestures are
/// written to the clients by the thread that read the frame, with no hand-off (DESIGN.md "Daemon, event loop and socket protocol" ›
/// "One event loop"). Nothing a client does can delay input: sockets are non-blocking, each
/// client has a bounded outbox, and a client's requests are read a few chunks per wake-up.
public actor IPCServer: EventPublisher {
    let loop: EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    private let listener: UnixListener
    private var acceptWatch: FileWatch?
    var clients: [Int: ClientSession] = [:]
    private var nextClientID = 1
    var settings: IPCSettings
    let logger: Logger
    let state: DaemonState
    private let encoder = MessageEncoder()
    private let reloadHandler: @Sendable () async -> String?
    private var isShuttingDown = false
    private var subscribersWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// Clients subscribed to raw touches (``wantsTouches``). Loop-confined like everything
    /// here: the input hub asks from the same loop thread, so no atomic is needed.
    /// `nonisolated(unsafe)`: written only by the server (isolated, on the loop) and read by
    /// ``wantsTouches`` only after checking that it runs on the loop thread.
    private nonisolated(unsafe) var touchSubscribers = 0
    /// Who sits at each seat (logind), for the input policy.
    let sessions: any SeatSessionLookup
    /// The virtual keyboard and pointer; nil until the first input request when not given.
    var inputSink: (any VirtualInputSink)?
    /// How the injector waits between transitions; nil: the loop's timers.
    let inputScheduler: InputScheduler?
    /// Plays `send_keys` and `click`; made on the first one.
    var injector: InputInjector?

    /// - Parameters:
    ///   - loop: the event loop the server runs on (the daemon shares one with the input hub).
    ///   - reloadHandler: reloads the configuration; returns nil on success or the error text.
    ///   - sessions: who sits at each seat (input policy); the daemon state's logind model
    ///     (``DaemonState/seatSessions``) by default.
    ///   - inputSink: where `send_keys` and `click` go; the daemon's uinput devices by default.
    ///   - inputScheduler: the injector's timer; the loop's by default (tests pass a manual one).
    public init(
        loop: EventLoop,
        listener: UnixListener,
        settings: IPCSettings,
        state: DaemonState,
        logger: Logger,
        reloadHandler: @escaping @Sendable () async -> String?,
        sessions: (any SeatSessionLookup)? = nil,
        inputSink: (any VirtualInputSink)? = nil,
        inputScheduler: InputScheduler? = nil
    ) {
        self.sessions = sessions ?? state.seatSessions
        self.inputSink = inputSink
        self.inputScheduler = inputScheduler
        self.loop = loop
        self.listener = listener
        self.settings = settings
        self.state = state
        self.logger = logger
        self.reloadHandler = reloadHandler
    }

    /// Starts accepting clients.
    public func start() {
        // A wake-up's publishes go out together, once its handlers have run.
        loop.setBeforeSleep { [weak self] in
            guard let self else { return }
            onLoop(self, self.loop, ()) { server, _ in server.fanOutPending() }
        }
        do {
            let loop = self.loop
            acceptWatch = try loop.watch(listener.fileDescriptor) { [weak self] in
                guard let self else { return }
                onLoop(self, loop, ()) { server, _ in server.acceptPending() }
            }
        } catch {
            logger.critical("Failed to watch the listening socket, no client can connect", [("error", error.description)])
        }
    }

    public func update(settings: IPCSettings) { self.settings = settings }

    public var clientCount: Int { clients.count }

    // MARK: Publishing (called from the input hub)

    /// Asked by the input hub on the shared loop thread; elsewhere (never in the daemon)
    /// the safe answer is yes, which only costs mapping touches nobody may want.
    public nonisolated var wantsTouches: Bool {
        guard loop.isCurrent else { return true }
        // Read on the loop thread, which alone writes it: no isolation hop (whose closure
        // box was two allocations per publish).
        return touchSubscribers > 0
    }

    /// Whether a client subscribed to raw touches now (what ``wantsTouches`` answers on the loop).
    public var hasTouchSubscribers: Bool { touchSubscribers > 0 }

    private func countTouchSubscribers() {
        touchSubscribers = clients.values.count { !$0.isClosing && $0.subscription?.wantsRawTouches == true }
    }

    /// Fans `batch` out to the subscribers: at once when called on the server's loop thread
    /// (the daemon's input hub shares it), else after the work already queued on the loop.
    ///
    /// On the loop thread the batch waits for the end of the wake-up (``fanOutPending()``), so
    /// that the frames of every device and timer a wake-up handled reach each client in one
    /// write: under load, when the loop falls behind and finds several frames ready at once,
    /// that is fewer `send(2)`s exactly when the CPU is short; a quiet loop hands each frame
    /// out as soon as its handler returns, as before. Anything the server does for a client
    /// (a request read, a reply, a close) hands out what waits first, so replies and events
    /// keep their order.
    public nonisolated func publish(_ batch: EncodedBatch) {
        guard !batch.isEmpty else { return }
        if loop.isCurrent {
            onLoop(self, loop, batch) { server, batch in server.pendingBatches.append(batch) }
        } else {
            loop.execute { [self] in self.assumeIsolated { $0.pendingBatches.append(batch) } }
        }
    }

    /// Published on this wake-up, not yet fanned out.
    private var pendingBatches: [EncodedBatch] = {
        var batches: [EncodedBatch] = []
        batches.reserveCapacity(64)
        return batches
    }()
    /// What ``fanOutPending()`` hands out (swapped with ``pendingBatches``, so neither array
    /// is copied or regrown).
    private var fanningBatches: [EncodedBatch] = {
        var batches: [EncodedBatch] = []
        batches.reserveCapacity(64)
        return batches
    }()
    /// The batches that merge a wake-up's publishes, kept for reuse (``BatchPool``).
    private var mergedBatches = BatchPool(initial: 4, limit: 1024)

    /// Fans out every batch published since the last call: one batch as it is, several merged
    /// into one (their bytes copied once), so a client that keeps up gets one write.
    func fanOutPending() {
        guard !pendingBatches.isEmpty else { return }
        swap(&pendingBatches, &fanningBatches)
        defer { fanningBatches.removeAll(keepingCapacity: true) }
        if fanningBatches.count == 1 {
            fanOut(fanningBatches[0])
            return
        }
        let merged = mergedBatches.take()
        for batch in fanningBatches { merged.append(contentsOf: batch) }
        fanningBatches.removeAll(keepingCapacity: true)
        fanOut(merged)
    }

    /// One client's lines of a batch when it takes only some of them, reused so a frame
    /// costs no allocation here.
    private var scratch: [UInt8] = []
    /// What `flush` gathers of an outbox for one write, reused likewise.
    private var flushBuffer: [UInt8] = []

    /// Every line was encoded once by the input side; each client gets the same bytes
    /// (DESIGN.md "Daemon, event loop and socket protocol" › "The wire").
    private func fanOut(_ batch: EncodedBatch) {
        for (id, client) in clients {
            let mode = client.machine.fanOutMode
            if mode == .none { continue }
            if client.outbox.isEmpty {
                writeDirectly(id, client, batch, takesEveryUnrestrictedLine: mode == .everyLine)
            } else {
                enqueueBatch(id, client, batch)
            }
        }
    }

    /// The common case, a client that keeps up: its lines of a frame's batch go out in one
    /// write without touching the outbox — the batch's own bytes when it takes every line,
    /// else its lines gathered — and only what the socket did not take is queued, by
    /// reference. Big batches (a whole recording replayed at once) take the outbox path,
    /// which writes as it queues so a reading client keeps up.
    private func writeDirectly(_ id: Int, _ client: ClientSession, _ batch: EncodedBatch, takesEveryUnrestrictedLine: Bool) {
        guard batch.events.count <= max(1, client.outbox.softLimit / 2) else {
            enqueueBatch(id, client, batch)
            return
        }
        var takesAll = true
        var takesAny = false
        if !batch.restricted && takesEveryUnrestrictedLine {
            // No filter and no line for one audience only: no question per line.
            takesAny = true
        } else {
            for event in batch.events {
                if client.wants(event) { takesAny = true } else { takesAll = false }
            }
        }
        guard takesAny else { return }
        if !takesAll {
            scratch.removeAll(keepingCapacity: true)
            for event in batch.events where client.wants(event) { scratch += batch.line(event) }
        }
        let total = takesAll ? batch.bytes.count : scratch.count
        var written: Int
        do {
            switch try (takesAll ? client.connection.write(batch.bytes) : client.connection.write(scratch)) {
            case .processed(let n): written = n
            case .wouldBlock: written = 0
            }
        } catch {
            close(id, reason: "write failed: \(error)")
            return
        }
        guard written < total else { return }
        // Queue what is left: the partly written line first (marked as such, so it is never
        // coalesced away), then the others as usual.
        for event in batch.events where client.wants(event) {
            if written >= event.range.count {
                written -= event.range.count
                continue
            }
            let result = client.outbox.enqueue(EncodedLine(batch, event.range), coalesceKey: event.coalesceKey)
            if written > 0 {
                client.outbox.consume(written)
                written = 0
            }
            if result == .overflow {
                overflow(id)
                return
            }
        }
        flush(id)
    }

    /// Queues the client's lines of the batch (coalescing `changed` over the soft limit),
    /// writing as it goes so a big batch never reaches the soft limit on its own: coalescing
    /// is for slow readers, not bursts.
    private func enqueueBatch(_ id: Int, _ client: ClientSession, _ batch: EncodedBatch) {
        for event in batch.events where client.wants(event) {
            switch client.outbox.enqueue(EncodedLine(batch, event.range), coalesceKey: event.coalesceKey) {
            case .queued, .coalesced:
                if client.outbox.count >= client.outbox.softLimit / 2 {
                    flush(id)
                    if clients[id] == nil || client.isClosing { return }
                }
            case .overflow:
                overflow(id)
                return
            }
        }
        flush(id)
    }

    // MARK: Clients

    private func acceptPending() {
        fanOutPending()
        while true {
            let outcome: IOResult<UnixConnection>
            do {
                outcome = try listener.accept()
            } catch {
                logger.warning("Failed to accept a client, ignoring", [("error", error.description)])
                return
            }
            guard case .processed(let connection) = outcome else { return }
            if clients.count >= settings.maxClients || isShuttingDown {
                let reply = ErrorReply(code: .notPermitted, message: "too many clients (MaxClients=\(settings.maxClients))")
                if let bytes = try? encoder.encode(.error(reply)) { _ = try? connection.write(bytes) }
                connection.close()
                logger.warning("Refused a client: too many clients", [("clients.max", "\(settings.maxClients)")])
                continue
            }
            let id = nextClientID
            nextClientID += 1
            let session = ClientSession(
                connection: connection,
                machine: ClientSessionMachine(
                    id: id, credentials: connection.credentials, outboxSoftLimit: settings.outboxSoftLimit,
                    outboxHardLimit: settings.outboxHardLimit))
            do {
                let loop = self.loop
                session.watch = try loop.watch(connection.fileDescriptor) { [weak self] in
                    guard let self else { return }
                    onLoop(self, loop, id) { server, id in server.readable(id) }
                }
            } catch {
                connection.close()
                logger.warning("Failed to watch a client's socket, closing it", [("client.id", "\(id)"), ("error", error.description)])
                continue
            }
            clients[id] = session
            let cred = connection.credentials
            // Debug, not notice: every `gesturectl` call (each Tab of a shell completion) is a
            // connection; the journal keeps what changes the daemon, not each client.
            logger.debug(
                "Client connected",
                [("client.id", "\(id)"), ("client.pid", "\(cred?.pid ?? -1)"), ("client.uid", "\(cred?.uid ?? 0)"), ("client.gid", "\(cred?.gid ?? 0)")]
            )
        }
    }

    /// Reads a few chunks and answers the requests they complete, one at a time.
    private func readable(_ id: Int) {
        fanOutPending()
        guard let client = clients[id] else { return }
        // Read at most a few chunks per wake-up so one chatty client cannot starve the others.
        for _ in 0..<4 {
            let outcome: ReadOutcome
            do {
                outcome = try client.connection.read()
            } catch {
                perform(client.machine.readFailed("\(error)"), for: id)
                return
            }
            switch outcome {
            case .wouldBlock:
                return
            case .endOfFile:
                perform(client.machine.endOfFile(), for: id)
                return
            case .bytes(let bytes):
                client.machine.received(bytes)
                while clients[id] != nil, let actions = client.machine.nextRequest() {
                    perform(actions, for: id)
                }
                if client.machine.isClosing { return }
            }
        }
    }

    /// Carries out a session's actions on its socket, in order.
    func perform(_ actions: [ClientSessionMachine.Action], for id: Int) {
        if !actions.isEmpty { fanOutPending() }
        for action in actions {
            guard let client = clients[id] else { return }
            switch action {
            case .flush:
                flush(id)
            case .serve(let request, let requestID):
                serve(request, requestID: requestID, from: id)
            case .subscriptionChanged:
                countTouchSubscribers()
                resumeSubscriberWaiters()
            case .stopReading:
                client.watch?.setReadableHandler(nil)
                countTouchSubscribers()
            case .watchWritable(let on):
                client.watch?.setWritableHandler(on ? writableHandler(for: client) : nil)
            case .close(let reason):
                close(id, reason: reason)
            case .wakeUp(let delay):
                loop.run(afterMicroseconds: delay) { [weak self] in
                    self?.assumeIsolated { server in
                        guard let client = server.clients[id] else { return }
                        server.perform(client.machine.deadlinePassed(), for: id)
                    }
                }
            case .log(.badRequest(let text)):
                logger.info("Client sent a bad request", [("client.id", "\(id)"), ("client.name", client.name), ("error", text)])
            case .log(.hello(let name)):
                logger.info("Client said hello", [("client.id", "\(id)"), ("client.name", name)])
            case .log(.tooSlow(let queued)):
                logger.warning("Client too slow, disconnecting", [("client.id", "\(id)"), ("client.name", client.name), ("queued", "\(queued)")])
            }
        }
    }

    /// The handler that flushes a client when its socket has room, made once per client: a
    /// slow reader's socket fills and drains again and again, and each time a new closure
    /// (and `assumeIsolated`'s box) was an allocation.
    private func writableHandler(for client: ClientSession) -> () -> Void {
        if let handler = client.writableHandler { return handler }
        let id = client.id
        let loop = self.loop
        let handler: () -> Void = { [weak self] in
            guard let self else { return }
            onLoop(self, loop, id) { server, id in server.flush(id) }
        }
        client.writableHandler = handler
        return handler
    }

    /// Answers what the session cannot: requests that need the devices, the seats, the
    /// configuration or the virtual input devices.
    private func serve(_ request: ClientRequest, requestID: Int?, from id: Int) {
        guard let client = clients[id] else { return }
        switch request {
        case .hello:
            var capabilities = [Capability.gestures, Capability.hotplug, Capability.reload]
            if mayReceiveRawTouches(client) { capabilities.append(Capability.rawTouches) }
            if mayInject(client) { capabilities.append(Capability.input) }
            let seats = seatStatus()
            send(
                .hello(
                    HelloReply(
                        id: requestID, daemonVersion: settings.daemonVersion, capabilities: capabilities.sorted(), logind: seats.logind,
                        seats: seats.seats)),
                to: id)
        case .subscribe(let subscription):
            if let problem = SubscribeValidation.problem(in: subscription, configuredGestures: state.gestureNames) {
                send(.error(ErrorReply(id: requestID, code: .badRequest, message: "client \(id): \(problem)")), to: id)
                return
            }
            guard !subscription.wantsRawTouches || mayReceiveRawTouches(client) else {
                send(
                    .error(
                        ErrorReply(
                            id: requestID, code: .notPermitted,
                            message: "client \(id): raw touches are not allowed for this client's user (see AllowRawTouchesForGroup= in gestured.conf(5))")),
                    to: id)
                return
            }
            perform(client.machine.subscribe(subscription, requestID: requestID), for: id)
        case .listDevices:
            send(.devices(DevicesReply(id: requestID, devices: state.devices)), to: id)
        case .status:
            let seats = seatStatus()
            let reply = StatusReply(
                id: requestID,
                daemonVersion: settings.daemonVersion,
                uptimeUS: MonotonicClock.nowMicroseconds() - state.startedAtMicroseconds,
                clients: clients.count,
                devices: state.devices.count,
                gesturesEmitted: state.gesturesEmitted,
                configPath: state.configPath,
                gestures: state.gestureCount,
                logind: seats.logind,
                seats: seats.seats
            )
            send(.status(reply), to: id)
        case .reload:
            let handler = reloadHandler
            // Isolated to this actor, so on its loop (no libdispatch worker: DESIGN.md "Daemon, event loop and socket protocol" ›
            // "One event loop").
            Task {
                let failure = await handler()
                if let failure {
                    self.send(.error(ErrorReply(id: requestID, code: .badRequest, message: "reload failed, keeping the old configuration: \(failure)")), to: id)
                } else {
                    self.send(.ok(OkReply(id: requestID, request: "reload")), to: id)
                }
            }
        case .sendKeys, .click:
            handleInput(request, requestID: requestID, from: id)
        case .unsubscribe, .ping:
            // The session answers these itself.
            break
        }
    }

    /// The seats for `status` and `hello`: every seat with an active session, and seat0 or
    /// a device's seat without one (unlocked).
    private func seatStatus() -> (logind: String, seats: [SeatStatus]) {
        let sessions = state.seatSessions
        var seats = sessions.activeSessions.map {
            SeatStatus(seat: $0.seat, session: $0.sessionID, uid: $0.uid, user: $0.userName, locked: $0.locked)
        }
        let known = Set(seats.map(\.seat))
        let deviceSeats = Set(state.devices.compactMap(\.seat)).union([SeatSessions.defaultSeat])
        for seat in deviceSeats.subtracting(known) {
            seats.append(SeatStatus(seat: seat, session: nil, uid: nil, user: nil, locked: false))
        }
        return (sessions.availability.rawValue, seats.sorted { $0.seat < $1.seat })
    }

    private func mayReceiveRawTouches(_ client: ClientSession) -> Bool {
        guard let cred = client.connection.credentials else { return false }
        if cred.uid == 0 { return true }
        guard let group = settings.rawTouchGroup else { return false }
        return groupIDs(ofUser: cred.uid, primaryGroup: cred.gid).contains(group)
    }

    /// Queues a reply for a client (a served request's answer, possibly later than the
    /// request: reload, send_keys) and writes what the socket takes.
    func send(_ message: DaemonMessage, to id: Int) {
        guard let client = clients[id] else { return }
        perform(client.machine.reply(message), for: id)
    }

    /// Writes what the client's outbox holds until the socket would block.
    private func flush(_ id: Int) {
        guard let client = clients[id] else { return }
        while client.machine.nextWrite(into: &flushBuffer) {
            let result: IOResult<Int>
            do {
                result = try client.connection.write(flushBuffer)
            } catch {
                perform(client.machine.writeFailed("\(error)"), for: id)
                return
            }
            switch result {
            case .processed(let n):
                client.machine.wrote(n)
            case .wouldBlock:
                perform(client.machine.writeWouldBlock(), for: id)
                return
            }
        }
        perform(client.machine.drained(), for: id)
    }

    /// The client's outbox refused a line (the fan-out found it full).
    private func overflow(_ id: Int) {
        guard let client = clients[id] else { return }
        perform(client.machine.overflow(), for: id)
    }

    private func close(_ id: Int, reason: String) {
        guard let client = clients.removeValue(forKey: id) else { return }
        client.watch?.cancel()
        client.watch = nil
        client.connection.close()
        countTouchSubscribers()
        injector?.clientGone(id)
        if clients.isEmpty, isShuttingDown { resumeDrainedWaiter() }
        logger.debug("Client disconnected", [("client.id", "\(id)"), ("client.name", client.name), ("reason", reason)])
    }

    /// Number of clients with a subscription.
    public var subscriberCount: Int { clients.values.count { $0.subscription != nil } }

    /// Returns once at least `count` clients have subscribed (replays that must not start
    /// before their audience is listening: tests and demos).
    public func waitForSubscribers(_ count: Int) async {
        if subscriberCount >= count { return }
        await withCheckedContinuation { continuation in
            subscribersWaiters.append((count, continuation))
        }
    }

    private func resumeSubscriberWaiters() {
        let current = subscriberCount
        subscribersWaiters.removeAll { waiter in
            guard current >= waiter.count else { return false }
            waiter.continuation.resume()
            return true
        }
    }

    /// Returns once every event published before this call has been fanned out: actor jobs
    /// and ``publish(_:)`` blocks share the loop's one FIFO queue, and what waits for the end
    /// of the wake-up is handed out here.
    public func flushPublished() { fanOutPending() }

    /// Tells every client the daemon stops and lets each read what is queued for it, for at
    /// most `deadlineSeconds`; then closes every connection and the listener (which removes
    /// the socket file when the daemon bound it).
    public func shutdown(reason: String, deadlineSeconds: Double = 2) async {
        fanOutPending()
        isShuttingDown = true
        acceptWatch?.cancel()
        acceptWatch = nil
        for id in clients.keys.sorted() {
            guard let client = clients[id] else { continue }
            perform(client.machine.shutdown(reason: reason), for: id)
        }
        if !clients.isEmpty {
            await withCheckedContinuation { continuation in
                drainedWaiter = continuation
                loop.run(afterMicroseconds: Int64(deadlineSeconds * 1_000_000)) { [weak self] in
                    self?.assumeIsolated { $0.resumeDrainedWaiter() }
                }
            }
        }
        for id in clients.keys.sorted() {
            guard let client = clients[id] else { continue }
            perform(client.machine.deadlinePassed(), for: id)
            // A session not closing (none should be) is closed all the same.
            close(id, reason: "daemon shutting down (deadline)")
        }
        listener.close()
    }

    private var drainedWaiter: CheckedContinuation<Void, Never>?

    private func resumeDrainedWaiter() {
        drainedWaiter?.resume()
        drainedWaiter = nil
    }
}

/// One connected client: its socket and its protocol state (``ClientSessionMachine``, which
/// decides; the server performs). Confined to the IPC actor.
final class ClientSession {
    let connection: UnixConnection
    var machine: ClientSessionMachine
    /// Its allowance of `send_keys` and `click` requests.
    var inputRate = InputRateLimit()
    /// The socket on the loop: readable while the client may send requests, writable too
    /// while its outbox waits for room.
    var watch: FileWatch?
    /// What the loop calls while the socket is writable (made on first use, then kept).
    var writableHandler: (() -> Void)?

    init(connection: UnixConnection, machine: ClientSessionMachine) {
        self.connection = connection
        self.machine = machine
    }

    var id: Int { machine.id }
    var name: String { machine.name }
    /// The machine's outbox, in place (the fan-out queues into it without a copy).
    var outbox: Outbox {
        // Borrowed, not copied: the fan-out asks every client's outbox per batch.
        _read { yield machine.outbox }
        _modify { yield &machine.outbox }
    }
    var isClosing: Bool { machine.isClosing }
    var subscription: SubscribeRequest? { machine.subscription }
    /// The peer's uid is 0 (SO_PEERCRED): it receives gestures of locked seats.
    var isRoot: Bool { machine.isRoot }

    func wants(_ event: PublishedEvent) -> Bool { machine.wants(event) }
}
