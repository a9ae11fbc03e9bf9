import GesturedProtocol
import GesturedSystem

/// The protocol side of one client connection as a value: bytes and events go in, actions come
/// out, and nothing here touches a socket, a clock or a log (STYLE.md B16; swift-nio's
/// `ProtocolNegotiationHandlerStateMachine` and `EmbeddedChannel` are the model). The
/// ``IPCServer`` is the executor that reads and writes the real socket and performs the actions;
/// the tests drive the machine directly (`ClientSessionMachineTests`).
///
/// What it decides: how the byte stream is cut into requests, which requests it answers itself
/// (`ping`, `unsubscribe`, `subscribe` without raw touches, every malformed line, a `hello` of
/// the wrong version) and which the daemon must answer (``Action/serve(_:requestID:)``), the
/// outbox's flow control (when to flush, when to wait for the socket to become writable), the
/// slow-client policy (overflow notice, then close, or close at a deadline), half-close and the
/// shutdown drain.
///
/// Requests are taken one line at a time (``received(_:)`` frames, ``nextRequest()`` handles one
/// line), so every reply is queued in request order even when the daemon answers some of them.
///
/// States:
///
/// | state | reads requests | takes events | leaves when |
/// |---|---|---|---|
/// | open | yes | once subscribed | a fatal request error, EOF, overflow, shutdown → closing; a read or write error → closed |
/// | closing | no | no | the outbox is drained, a write fails, or its deadline passes → closed |
/// | closed | no | no | — |
struct ClientSessionMachine {
    /// What the executor must do, in order.
    enum Action: Equatable, Sendable {
        /// Bytes are queued: write ``nextWrite(into:)`` and report each result until it is nil, the
        /// socket would block, or the write fails.
        case flush
        /// A request only the daemon can answer (it needs the devices, the seats, the
        /// configuration or the virtual input devices): answer it with ``reply(_:)``, or for a
        /// `subscribe` with raw touches with ``subscribe(_:requestID:)`` once allowed. Answers
        /// may come later (`reload`, `send_keys`) and then follow later requests' replies.
        case serve(ClientRequest, requestID: Int?)
        /// The subscription changed (the raw-touch audience, waiters for subscribers).
        case subscriptionChanged
        /// Stop reading from the socket: the session is closing (no more requests, no more
        /// events; what is queued is still written).
        case stopReading
        /// Wait for the socket to become writable (true) and flush then, or stop waiting.
        case watchWritable(Bool)
        /// Close the connection now; the session is over.
        case close(reason: String)
        /// Call ``deadlinePassed()`` this long from now: an overflowed client's grace period
        /// for reading its notice.
        case wakeUp(afterMicroseconds: Int64)
        /// Something the daemon should log for this client.
        case log(Log)
    }

    /// What the executor logs (the machine itself does not log: STYLE.md B1.1's rule for pure
    /// code, applied here).
    enum Log: Equatable, Sendable {
        /// A request line the daemon could not take; the text names the client and the line.
        case badRequest(String)
        /// The client said hello with this name.
        case hello(clientName: String)
        /// The client fell behind: this many lines were queued when it overflowed.
        case tooSlow(queued: Int)
    }

    private enum Phase: Equatable {
        case open
        case closing(reason: String)
        case closed
    }

    /// The connection's number (logs and error messages: "client 3").
    let id: Int
    /// The peer's credentials (SO_PEERCRED) when the kernel gave them.
    let credentials: PeerCredentials?
    /// Its `hello`'s client name ("unnamed" before one).
    private(set) var name = "unnamed"
    private(set) var subscription: SubscribeRequest?
    /// The lines waiting for the socket.
    var outbox: Outbox
    private var framer: LineFramer
    /// Framed but not yet handled (handled one at a time by ``nextRequest()``).
    private var waiting: [LineFramer.Event] = []
    private var waitingHead = 0
    /// Request lines seen so far (error messages name the line: "client 3, request 2").
    private(set) var requestCount = 0
    private var phase = Phase.open
    private var isWatchingWritable = false
    private var sawEndOfFile = false
    /// The close reason when the deadline passes before a closing session drains (overflow,
    /// shutdown); nil: no deadline.
    private var closeDeadlineReason: String?

    /// How long an overflowed client has to read its overflow notice before it is closed.
    static let overflowGraceMicroseconds: Int64 = 5_000_000

    private static let encoder = MessageEncoder()
    private static let decoder = MessageDecoder()

    init(
        id: Int, credentials: PeerCredentials?, outboxSoftLimit: Int, outboxHardLimit: Int,
        maximumLineLength: Int = LineFramer.defaultMaximumLineLength
    ) {
        self.id = id
        self.credentials = credentials
        self.outbox = Outbox(softLimit: outboxSoftLimit, hardLimit: outboxHardLimit)
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
    }

    /// The peer's uid is 0: it receives gestures of locked seats.
    var isRoot: Bool { credentials?.uid == 0 }
    /// Closing or closed: it reads no more requests and takes no more events.
    var isClosing: Bool { phase != .open }
    var isClosed: Bool { phase == .closed }

    // MARK: Requests

    /// Takes bytes read from the socket; the requests they complete wait for ``nextRequest()``.
    mutating func received(_ bytes: [UInt8]) {
        guard phase == .open else { return }
        waiting += framer.append(bytes)
    }

    /// Handles the next complete request line.
    /// - Returns: its actions, or nil when no complete line waits (or the session stopped
    ///   reading).
    mutating func nextRequest() -> [Action]? {
        guard phase == .open, waitingHead < waiting.count else {
            if waitingHead > 0 {
                waiting.removeAll(keepingCapacity: true)
                waitingHead = 0
            }
            return nil
        }
        let event = waiting[waitingHead]
        waitingHead += 1
        requestCount += 1
        switch event {
        case .line(let line):
            return handle(line: line)
        case .tooLong(let length):
            let message = "\(location): request line longer than \(framer.maximumLineLength) bytes (\(length) seen); closing"
            var actions = [Action.log(.badRequest(message))]
            actions += queue(.error(ErrorReply(code: .lineTooLong, message: message)))
            actions += closeAfterFlush(reason: "line too long")
            return actions
        }
    }

    /// "client 3, request 2": where a bad line was.
    private var location: String { "client \(id), request \(requestCount)" }

    private mutating func handle(line: [UInt8]) -> [Action] {
        let message: ClientMessage
        do {
            message = try Self.decoder.decodeRequest(line)
        } catch {
            let text = "\(location): \(error.message)"
            return [.log(.badRequest("\(location): \(error.description)"))]
                + queue(.error(ErrorReply(id: error.requestID, code: error.code, message: text)))
        }
        let requestID = message.id
        switch message.request {
        case .hello(let hello):
            name = hello.clientName
            guard hello.protocolVersion == ProtocolVersion.major else {
                let text = "client \(id): protocol version \(hello.protocolVersion) is not supported; this daemon speaks \(ProtocolVersion.major).\(ProtocolVersion.minor)"
                return [.log(.badRequest(text))]
                    + queue(.error(ErrorReply(id: requestID, code: .versionMismatch, message: text)))
                    + closeAfterFlush(reason: "version mismatch")
            }
            return [.log(.hello(clientName: hello.clientName)), .serve(message.request, requestID: requestID)]
        case .subscribe(let request):
            // Raw touches depend on the peer's groups and the configuration, gesture names on
            // the configuration, kinds on what exists: the daemon decides.
            if request.wantsRawTouches || !(request.gestures?.isEmpty ?? true) || !(request.kinds?.isEmpty ?? true) {
                return [.serve(message.request, requestID: requestID)]
            }
            return subscribe(request, requestID: requestID)
        case .unsubscribe:
            subscription = nil
            return [.subscriptionChanged] + queue(.ok(OkReply(id: requestID, request: "unsubscribe")))
        case .ping:
            return queue(.ok(OkReply(id: requestID, request: "ping")))
        case .listDevices, .status, .reload, .sendKeys, .click:
            return [.serve(message.request, requestID: requestID)]
        }
    }

    /// Starts (or replaces) the subscription and acknowledges it.
    mutating func subscribe(_ request: SubscribeRequest, requestID: Int?) -> [Action] {
        guard phase == .open else { return [] }
        subscription = request
        return [.subscriptionChanged] + queue(.ok(OkReply(id: requestID, request: "subscribe")))
    }

    /// Queues the daemon's answer to a served request (or any reply). Replies are never
    /// coalesced or dropped for the soft limit; a client that does not read them overflows
    /// like any other. A closing session still takes it (it is written before the close).
    mutating func reply(_ message: DaemonMessage) -> [Action] {
        guard phase != .closed else { return [] }
        return queue(message)
    }

    private mutating func queue(_ message: DaemonMessage) -> [Action] {
        guard let bytes = try? Self.encoder.encode(message) else { return [] }
        if outbox.enqueue(bytes) == .overflow { return overflow() }
        return [.flush]
    }

    // MARK: Events for subscribers

    /// What the fan-out does with this client's share of a batch.
    enum FanOutMode: Equatable {
        /// Nothing: not subscribed, or closing.
        case none
        /// Every line of a batch that has no restricted line (``EncodedBatch/restricted``: no
        /// raw touch, no line for one audience): it has no filter, so no line is asked about.
        case everyLine
        /// Each line as ``wants(_:)`` says.
        case perLine
    }

    /// Read once per client and batch; inlined so that the fan-out reads the two fields
    /// from the session in place instead of copying the machine to call a getter.
    var fanOutMode: FanOutMode {
        @inline(__always) get {
            guard case .open = phase else { return .none }
            switch subscription?.filtersNothing {
            case nil: return .none
            case true?: return .everyLine
            case false?: return .perLine
            }
        }
    }

    /// Whether a published event goes to this client.
    func wants(_ event: PublishedEvent) -> Bool {
        guard let subscription, phase == .open else { return false }
        return event.isWanted(by: subscription, root: isRoot)
    }

    /// Offers an encoded event line (the fan-out's slow path; the fast path writes straight to
    /// the socket and queues the rest in ``outbox``).
    /// - Parameter coalesceKey: the gesture id of a `changed` event, nil otherwise.
    mutating func offer(_ line: EncodedLine, coalesceKey: CoalesceKey?) -> [Action] {
        guard phase == .open else { return [] }
        switch outbox.enqueue(line, coalesceKey: coalesceKey) {
        case .queued, .coalesced: return [.flush]
        case .overflow: return overflow()
        }
    }

    /// The client fell behind (its outbox refused a line): drop what it has not started to
    /// receive, so the overflow notice is the next thing it reads after what the kernel already
    /// buffered; stop reading from it; close once the notice is written, or when the grace
    /// period ends if it never reads again.
    mutating func overflow() -> [Action] {
        guard phase == .open else { return [] }
        let queued = outbox.count
        outbox.discardPending()
        let notice = OverflowEvent(queued: queued, message: "client did not read fast enough; disconnecting")
        if let bytes = try? Self.encoder.encode(.overflow(notice)) { outbox.enqueueFinal(bytes) }
        phase = .closing(reason: "overflow")
        closeDeadlineReason = "overflow (never read the notice)"
        return [.log(.tooSlow(queued: queued)), .stopReading, .wakeUp(afterMicroseconds: Self.overflowGraceMicroseconds), .flush]
    }

    /// The time the executor was asked to wake up at has come (the overflow grace period's
    /// timer, or the daemon's shutdown deadline): a session still closing is closed now.
    mutating func deadlinePassed() -> [Action] {
        guard case .closing = phase, let reason = closeDeadlineReason else { return [] }
        phase = .closed
        return [.close(reason: reason)]
    }

    // MARK: The socket

    /// The bytes to write next (whole lines, as many as fit one write) into `buffer`, which
    /// the executor reuses so a flush allocates nothing; false when none wait.
    func nextWrite(into buffer: inout [UInt8]) -> Bool {
        guard !outbox.isEmpty else { return false }
        outbox.gatherPending(into: &buffer)
        return true
    }

    /// `count` bytes of ``nextWrite(into:)`` were written.
    mutating func wrote(_ count: Int) {
        outbox.consume(count)
    }

    /// The socket took nothing more (EAGAIN) with bytes still queued.
    mutating func writeWouldBlock() -> [Action] {
        guard !isWatchingWritable, phase != .closed else { return [] }
        isWatchingWritable = true
        return [.watchWritable(true)]
    }

    /// Everything queued was written.
    mutating func drained() -> [Action] {
        var actions: [Action] = []
        if isWatchingWritable {
            isWatchingWritable = false
            actions.append(.watchWritable(false))
        }
        if case .closing(let reason) = phase {
            phase = .closed
            actions.append(.close(reason: reason))
        }
        return actions
    }

    /// A write failed (the peer is gone: EPIPE, ECONNRESET).
    mutating func writeFailed(_ error: String) -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        // After the client's own EOF, a failed write only confirms that it left.
        return [.close(reason: sawEndOfFile ? "client closed the connection" : "write failed: \(error)")]
    }

    /// A read failed.
    mutating func readFailed(_ error: String) -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        return [.close(reason: "read failed: \(error)")]
    }

    /// The client closed its end (read returned 0). A half-closed client (it shut down only its
    /// writing side, as `socat` does at the end of its input) still gets the replies already
    /// queued; then the connection is closed. Requests framed before the EOF are still
    /// answered (take them with ``nextRequest()`` first); a last line without `\n` is not
    /// a request.
    mutating func endOfFile() -> [Action] {
        guard phase != .closed else { return [] }
        sawEndOfFile = true
        if outbox.isEmpty {
            phase = .closed
            return [.close(reason: "client closed the connection")]
        }
        return closeAfterFlush(reason: "client closed the connection")
    }

    /// The daemon stops: tell the client why (unless it is already closing, when it has its
    /// final line) and let it read what is queued until the daemon's deadline
    /// (``deadlinePassed()``), then close.
    mutating func shutdown(reason: String) -> [Action] {
        guard phase != .closed else { return [] }
        if phase == .open, let bytes = try? Self.encoder.encode(.shutdown(ShutdownEvent(reason: reason))) {
            outbox.enqueueFinal(bytes)
        }
        closeDeadlineReason = "daemon shutting down (deadline)"
        if case .closing = phase { return [.flush] }
        return closeAfterFlush(reason: "daemon shutting down")
    }

    private mutating func closeAfterFlush(reason: String) -> [Action] {
        guard phase == .open else { return [] }
        phase = .closing(reason: reason)
        return [.stopReading, .flush]
    }
}
