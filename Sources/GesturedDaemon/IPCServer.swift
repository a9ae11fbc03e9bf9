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
/// written to the clients by the thread that read the frame, with no hand-off (DESIGN.md,
/// "one event loop"). Nothing a client does can delay input: sockets are non-blocking, each
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
    private let decoder = MessageDecoder()
    private let reloadHandler: @Sendable () async -> String?
    private var isShuttingDown = false
    private var subscribersWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// Clients subscribed to raw touches (``wantsTouches``). Loop-confined like everything
    /// here: the input hub asks from the same loop thread, so no atomic is needed.
    private var touchSubscribers = 0
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
        do {
            acceptWatch = try loop.watch(listener.fileDescriptor) { [weak self] in self?.assumeIsolated { $0.acceptPending() } }
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
        return assumeIsolated { $0.hasTouchSubscribers }
    }

    /// Whether a client subscribed to raw touches now (what ``wantsTouches`` answers on the loop).
    public var hasTouchSubscribers: Bool { touchSubscribers > 0 }

    private func countTouchSubscribers() {
        touchSubscribers = clients.values.count { !$0.isClosing && $0.subscription?.wantsRawTouches == true }
    }

    /// Fans `batch` out to the subscribers: at once when called on the server's loop thread
    /// (the daemon's input hub shares it), else after the work already queued on the loop.
    public nonisolated func publish(_ batch: EncodedBatch) {
        guard !batch.isEmpty else { return }
        if loop.isCurrent {
            onLoop(self, loop, batch) { server, batch in server.fanOut(batch) }
        } else {
            loop.execute { [self] in self.assumeIsolated { $0.fanOut(batch) } }
        }
    }

    /// One client's lines of a batch when it takes only some of them, reused so a frame
    /// costs no allocation here.
    private var scratch: [UInt8] = []
    /// What `flush` gathers of an outbox for one write, reused likewise.
    private var flushBuffer: [UInt8] = []

    /// Every line was encoded once by the input side; each client gets the same bytes
    /// (DESIGN.md, "One wire model").
    private func fanOut(_ batch: EncodedBatch) {
        for (id, client) in clients where client.subscription != nil && !client.isClosing {
            if client.outbox.isEmpty {
                writeDirectly(id, client, batch)
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
    private func writeDirectly(_ id: Int, _ client: ClientSession, _ batch: EncodedBatch) {
        guard batch.events.count <= max(1, client.outbox.softLimit / 2) else {
            enqueueBatch(id, client, batch)
            return
        }
        var takesAll = true
        var takesAny = false
        for event in batch.events {
            if client.wants(event) { takesAny = true } else { takesAll = false }
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
            let session = ClientSession(id: id, connection: connection, outboxSoft: settings.outboxSoftLimit, outboxHard: settings.outboxHardLimit)
            do {
                session.watch = try loop.watch(connection.fileDescriptor) { [weak self] in self?.assumeIsolated { $0.readable(id) } }
            } catch {
                connection.close()
                logger.warning("Failed to watch a client's socket, closing it", [("client.id", "\(id)"), ("error", error.description)])
                continue
            }
            clients[id] = session
            let cred = connection.credentials
            logger.notice(
                "Client connected",
                [("client.id", "\(id)"), ("client.pid", "\(cred?.pid ?? -1)"), ("client.uid", "\(cred?.uid ?? 0)"), ("client.gid", "\(cred?.gid ?? 0)")]
            )
        }
    }

    private func readable(_ id: Int) {
        guard let client = clients[id] else { return }
        // Read at most a few chunks per wake-up so one chatty client cannot starve the others.
        for _ in 0..<4 {
            let outcome: ReadOutcome
            do {
                outcome = try client.connection.read()
            } catch {
                close(id, reason: "read failed: \(error)")
                return
            }
            switch outcome {
            case .wouldBlock:
                return
            case .endOfFile:
                close(id, reason: "client closed the connection")
                return
            case .bytes(let bytes):
                for event in client.framer.append(bytes) {
                    switch event {
                    case .line(let line):
                        handle(line: line, from: id)
                    case .tooLong(let length):
                        send(.error(ErrorReply(code: .lineTooLong, message: "request line longer than \(client.framer.maximumLineLength) bytes (\(length) seen); closing")), to: id)
                        closeAfterFlush(id, reason: "line too long")
                        return
                    }
                    if clients[id]?.isClosing ?? true { return }
                }
            }
        }
    }

    private func handle(line: [UInt8], from id: Int) {
        guard let client = clients[id] else { return }
        let message: ClientMessage
        do {
            message = try decoder.decodeRequest(line)
        } catch {
            logger.info("Client sent a bad request", [("client.id", "\(id)"), ("error", error.description)])
            send(error.reply, to: id)
            return
        }
        let requestID = message.id
        switch message.request {
        case .hello(let hello):
            client.name = hello.clientName
            guard hello.protocolVersion == ProtocolVersion.major else {
                send(.error(ErrorReply(id: requestID, code: .versionMismatch, message: "protocol version \(hello.protocolVersion) is not supported; this daemon speaks \(ProtocolVersion.major).\(ProtocolVersion.minor)")), to: id)
                closeAfterFlush(id, reason: "version mismatch")
                return
            }
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
            logger.info("Client said hello", [("client.id", "\(id)"), ("client.name", hello.clientName)])
        case .subscribe(let subscription):
            if subscription.wantsRawTouches && !mayReceiveRawTouches(client) {
                send(.error(ErrorReply(id: requestID, code: .notPermitted, message: "raw touches are not allowed for this client's user (see AllowRawTouchesForGroup= in gestured.conf(5))")), to: id)
                return
            }
            client.subscription = subscription
            countTouchSubscribers()
            send(.ok(OkReply(id: requestID, request: "subscribe")), to: id)
            resumeSubscriberWaiters()
        case .unsubscribe:
            client.subscription = nil
            countTouchSubscribers()
            send(.ok(OkReply(id: requestID, request: "unsubscribe")), to: id)
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
            Task {
                let failure = await handler()
                if let failure {
                    self.send(.error(ErrorReply(id: requestID, code: .badRequest, message: "reload failed, keeping the old configuration: \(failure)")), to: id)
                } else {
                    self.send(.ok(OkReply(id: requestID, request: "reload")), to: id)
                }
            }
        case .ping:
            send(.ok(OkReply(id: requestID, request: "ping")), to: id)
        case .sendKeys, .click:
            handleInput(message.request, requestID: requestID, from: id)
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

    func send(_ message: DaemonMessage, to id: Int) {
        guard let client = clients[id], let bytes = try? encoder.encode(message) else { return }
        // Replies are never dropped for being over the soft limit; a client that does not
        // read its replies eventually overflows like any other.
        if client.outbox.enqueue(bytes) == .overflow {
            overflow(id)
            return
        }
        flush(id)
    }

    private func flush(_ id: Int) {
        guard let client = clients[id] else { return }
        while !client.outbox.isEmpty {
            client.outbox.gatherPending(into: &flushBuffer)
            let result: IOResult<Int>
            do {
                result = try client.connection.write(flushBuffer)
            } catch {
                close(id, reason: "write failed: \(error)")
                return
            }
            switch result {
            case .processed(let n):
                client.outbox.consume(n)
            case .wouldBlock:
                if client.watch?.watchesWritable == false {
                    client.watch?.setWritableHandler { [weak self] in self?.assumeIsolated { $0.flush(id) } }
                }
                return
            }
        }
        client.watch?.setWritableHandler(nil)
        if client.isClosing { close(id, reason: client.closeReason) }
    }

    private func overflow(_ id: Int) {
        guard let client = clients[id], !client.isClosing else { return }
        let queued = client.outbox.count
        logger.warning("Client too slow, disconnecting", [("client.id", "\(id)"), ("client.name", client.name), ("queued", "\(queued)")])
        // Drop what it has not started to receive, so the overflow notice is the next thing it
        // reads after what the kernel already buffered; then stop reading from it and close
        // once the notice is written, or after a grace period if it never reads again.
        client.outbox.discardPending()
        if let bytes = try? encoder.encode(.overflow(OverflowEvent(queued: queued, message: "client did not read fast enough; disconnecting"))) {
            client.outbox.enqueueFinal(bytes)
        }
        closeAfterFlush(id, reason: "overflow")
        let generation = client.generation
        loop.run(afterMicroseconds: Int64(Self.overflowGraceSeconds) * 1_000_000) { [weak self] in
            self?.assumeIsolated { server in
                if let stale = server.clients[id], stale.generation == generation { server.close(id, reason: "overflow (never read the notice)") }
            }
        }
    }

    /// How long an overflowed client has to read its overflow notice before it is closed.
    static let overflowGraceSeconds = 5

    private func closeAfterFlush(_ id: Int, reason: String) {
        guard let client = clients[id] else { return }
        client.isClosing = true
        client.closeReason = reason
        countTouchSubscribers()
        client.watch?.setReadableHandler(nil)
        flush(id)
    }

    private func close(_ id: Int, reason: String) {
        guard let client = clients.removeValue(forKey: id) else { return }
        client.watch?.cancel()
        client.watch = nil
        client.connection.close()
        countTouchSubscribers()
        injector?.clientGone(id)
        if clients.isEmpty, isShuttingDown { resumeDrainedWaiter() }
        logger.notice("Client disconnected", [("client.id", "\(id)"), ("client.name", client.name), ("reason", reason)])
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
    /// and ``publish(_:)`` blocks share the loop's one FIFO queue, so this no-op is a barrier.
    public func flushPublished() {}

    /// Tells every client the daemon stops and lets each read what is queued for it, for at
    /// most `deadlineSeconds`; then closes every connection and the listener (which removes
    /// the socket file when the daemon bound it).
    public func shutdown(reason: String, deadlineSeconds: Double = 2) async {
        isShuttingDown = true
        acceptWatch?.cancel()
        acceptWatch = nil
        for id in clients.keys.sorted() {
            guard let client = clients[id] else { continue }
            if !client.isClosing, let bytes = try? encoder.encode(.shutdown(ShutdownEvent(reason: reason))) {
                client.outbox.enqueueFinal(bytes)
            }
            closeAfterFlush(id, reason: "daemon shutting down")
        }
        if !clients.isEmpty {
            await withCheckedContinuation { continuation in
                drainedWaiter = continuation
                loop.run(afterMicroseconds: Int64(deadlineSeconds * 1_000_000)) { [weak self] in
                    self?.assumeIsolated { $0.resumeDrainedWaiter() }
                }
            }
        }
        for id in clients.keys.sorted() { close(id, reason: "daemon shutting down (deadline)") }
        listener.close()
    }

    private var drainedWaiter: CheckedContinuation<Void, Never>?

    private func resumeDrainedWaiter() {
        drainedWaiter?.resume()
        drainedWaiter = nil
    }
}

/// One connected client; confined to the IPC actor.
final class ClientSession {
    let id: Int
    let connection: UnixConnection
    var name = "unnamed"
    var framer = LineFramer()
    var outbox: Outbox
    var subscription: SubscribeRequest?
    /// Its allowance of `send_keys` and `click` requests.
    var inputRate = InputRateLimit()
    /// The socket on the loop: readable while the client may send requests, writable too
    /// while its outbox waits for room.
    var watch: FileWatch?
    var isClosing = false
    var closeReason = ""
    /// The peer's uid is 0 (SO_PEERCRED): it receives gestures of locked seats.
    let isRoot: Bool
    /// Distinguishes this session from a later one that reuses the id (ids are not reused,
    /// but a stale timer must never close the wrong client).
    let generation = UInt64.random(in: 0...UInt64.max)

    init(id: Int, connection: UnixConnection, outboxSoft: Int, outboxHard: Int) {
        self.id = id
        self.connection = connection
        self.isRoot = connection.credentials?.uid == 0
        self.outbox = Outbox(softLimit: outboxSoft, hardLimit: outboxHard)
    }

    func wants(_ event: PublishedEvent) -> Bool {
        guard let subscription, !isClosing else { return false }
        return event.isWanted(by: subscription, root: isRoot)
    }
}
