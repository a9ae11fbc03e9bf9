import GesturedProtocol
import GesturedSystem
import Testing

@testable import GesturedDaemon

/// A client session without a socket: a fake peer performs the machine's actions the way the
/// ``IPCServer`` does on a real one (swift-nio's `EmbeddedChannel` idea). The socket is a byte
/// counter: `room` bytes are taken before a write would block, what is taken is what the peer
/// has received.
struct EmbeddedClient {
    var machine: ClientSessionMachine
    /// Bytes the fake socket still takes before EAGAIN; nil: as many as written.
    var room: Int?
    /// Set: every write fails with this error (the peer is gone).
    var failWrites: String?
    /// Whether raw-touch subscriptions are allowed (the daemon's decision, made by the fake).
    var allowsRawTouches = true
    /// The daemon's answer to a served request; nil: it answers later (``answerLater(_:)``).
    var answer: (ClientRequest, Int?) -> DaemonMessage? = { request, id in .ok(OkReply(id: id, request: request.type)) }

    private(set) var received: [UInt8] = []
    private(set) var served: [ClientMessage] = []
    /// Every action performed but `flush`, in order.
    private(set) var actions: [ClientSessionMachine.Action] = []
    private(set) var closeReason: String?
    private(set) var isReading = true
    private(set) var isWatchingWritable = false

    init(id: Int = 7, uid: UInt32 = 1000, soft: Int = 4, hard: Int = 8, maximumLineLength: Int = 256) {
        machine = ClientSessionMachine(
            id: id, credentials: PeerCredentials(pid: 42, uid: uid, gid: uid), outboxSoftLimit: soft, outboxHardLimit: hard,
            maximumLineLength: maximumLineLength)
    }

    /// The client writes `bytes`; the session frames them and handles every complete request.
    /// Bytes are given to the machine even after `stopReading` (the server would not read
    /// them), so the tests see that the machine itself ignores them.
    mutating func send(_ bytes: [UInt8]) {
        machine.received(bytes)
        while closeReason == nil, let next = machine.nextRequest() { perform(next) }
    }

    mutating func send(_ text: String) { send(Array(text.utf8)) }

    mutating func endOfFile() { perform(machine.endOfFile()) }

    /// The peer reads: the socket takes `bytes` more (nil: everything), and a waiting flush runs.
    mutating func peerReads(_ bytes: Int?) {
        room = bytes.map { (room ?? 0) + $0 }
        if isWatchingWritable { flush() }
    }

    mutating func answerLater(_ message: DaemonMessage) { perform(machine.reply(message)) }

    mutating func perform(_ list: [ClientSessionMachine.Action]) {
        for action in list {
            guard closeReason == nil else { return }
            if action != .flush { actions.append(action) }
            switch action {
            case .flush:
                flush()
            case .serve(let request, let id):
                served.append(ClientMessage(id: id, request))
                if case .subscribe(let subscription) = request {
                    if allowsRawTouches {
                        perform(machine.subscribe(subscription, requestID: id))
                    } else {
                        perform(machine.reply(.error(ErrorReply(id: id, code: .notPermitted, message: "no raw touches"))))
                    }
                } else if let reply = answer(request, id) {
                    perform(machine.reply(reply))
                }
            case .stopReading:
                isReading = false
            case .watchWritable(let on):
                isWatchingWritable = on
            case .close(let reason):
                closeReason = reason
            case .subscriptionChanged, .wakeUp, .log:
                break
            }
        }
    }

    private mutating func flush() {
        var bytes: [UInt8] = []
        while machine.nextWrite(into: &bytes) {
            if let failWrites {
                perform(machine.writeFailed(failWrites))
                return
            }
            let n = min(room ?? Int.max, bytes.count)
            guard n > 0 else {
                perform(machine.writeWouldBlock())
                return
            }
            received += bytes[..<n]
            if let left = room { room = left - n }
            machine.wrote(n)
        }
        perform(machine.drained())
    }

    /// The whole lines the peer has received, decoded.
    var messages: [DaemonMessage] {
        received.split(separator: UInt8(ascii: "\n")).compactMap { try? MessageDecoder().decodeDaemonMessage($0) }
    }

    /// Whether the peer's bytes end at a line boundary (nothing half-written).
    var receivedWholeLines: Bool { received.isEmpty || received.last == UInt8(ascii: "\n") }
}

private func line(_ message: ClientMessage) -> [UInt8] { try! MessageEncoder().encode(message) }

private func touch(_ i: Int) -> EncodedLine {
    EncodedLine(try! MessageEncoder().encode(.touch(TouchEventMessage(device: "/dev/input/event5", timeUS: Int64(i), touchID: 1, phase: .moved, xMM: 1, yMM: 2))))
}

/// What the fan-out asks about a raw touch of `device`.
private let rawTouch = PublishedEvent(kind: .touch, device: "/dev/input/event5", deviceName: "")

private func errorCode(_ message: DaemonMessage?) -> ErrorCode? {
    if case .error(let e) = message { e.code } else { nil }
}

@Suite("Client session state machine (no socket)")
struct ClientSessionMachineTests {
    static let script: [ClientMessage] = [
        ClientMessage(id: 1, .hello(HelloRequest(protocolVersion: ProtocolVersion.major, clientName: "bar"))),
        ClientMessage(id: 2, .ping),
        ClientMessage(id: 3, .status),
        ClientMessage(id: 4, .subscribe(SubscribeRequest())),
        ClientMessage(id: 5, .listDevices),
        ClientMessage(id: 6, .unsubscribe),
    ]

    /// The replies of ``script`` fed in the given chunks.
    static func replies(chunks: [[UInt8]]) -> (replies: [DaemonMessage], served: [ClientMessage]) {
        var client = EmbeddedClient()
        for chunk in chunks { client.send(chunk) }
        return (client.messages, client.served)
    }

    @Test("requests split at any byte get the same replies, in request order")
    func framingSplitAnywhere() {
        let bytes = Self.script.flatMap(line)
        let whole = Self.replies(chunks: [bytes])
        #expect(whole.replies.count == Self.script.count)
        #expect(whole.replies.map(\.replyID) == [1, 2, 3, 4, 5, 6])
        #expect(whole.served.map(\.id) == [1, 3, 5], "hello, status and list_devices go to the daemon")
        // Two chunks, cut at every byte.
        for cut in 1..<bytes.count {
            let split = Self.replies(chunks: [Array(bytes[..<cut]), Array(bytes[cut...])])
            #expect(split.replies == whole.replies, "cut at byte \(cut)")
            #expect(split.served == whole.served, "cut at byte \(cut)")
        }
        // One byte at a time, and a "\r\n" client.
        #expect(Self.replies(chunks: bytes.map { [$0] }).replies == whole.replies)
        let crlf = bytes.flatMap { $0 == UInt8(ascii: "\n") ? [13, 10] : [$0] }
        #expect(Self.replies(chunks: [crlf]).replies == whole.replies)
    }

    @Test("each request kind: answered by the session or served by the daemon, with its id")
    func everyRequestKind() {
        let keys = ClientRequest.sendKeys(SendKeysRequest(keys: ["super"]))
        let click = ClientRequest.click(ClickRequest(button: "left"))
        let served: [ClientRequest] = [
            .hello(HelloRequest(protocolVersion: ProtocolVersion.major, clientName: "x")), .subscribe(SubscribeRequest(rawTouches: true)),
            .listDevices, .status, .reload, keys, click,
        ]
        for (index, request) in served.enumerated() {
            var client = EmbeddedClient()
            client.send(line(ClientMessage(id: 10 + index, request)))
            #expect(client.served == [ClientMessage(id: 10 + index, request)], "\(request.type)")
            #expect(client.messages.map(\.replyID) == [10 + index], "\(request.type)")
        }
        for request in [ClientRequest.ping, .unsubscribe, .subscribe(SubscribeRequest())] {
            var client = EmbeddedClient()
            client.send(line(ClientMessage(id: 3, request)))
            #expect(client.served.isEmpty, "\(request.type) is the session's")
            #expect(client.messages == [.ok(OkReply(id: 3, request: request.type))])
        }
        var subscriber = EmbeddedClient()
        subscriber.send(line(ClientMessage(id: 1, .subscribe(SubscribeRequest(rawTouches: false)))))
        #expect(subscriber.actions == [.subscriptionChanged])
        #expect(subscriber.machine.wants(rawTouch) == false)
        subscriber.allowsRawTouches = true
        subscriber.send(line(ClientMessage(id: 2, .subscribe(SubscribeRequest(rawTouches: true)))))
        #expect(subscriber.machine.wants(rawTouch))
        subscriber.send(line(ClientMessage(id: 3, .unsubscribe)))
        #expect(subscriber.machine.subscription == nil)

        var refused = EmbeddedClient()
        refused.allowsRawTouches = false
        refused.send(line(ClientMessage(id: 4, .subscribe(SubscribeRequest(rawTouches: true)))))
        #expect(errorCode(refused.messages.first) == .notPermitted)
        #expect(refused.machine.subscription == nil)
    }

    @Test("a reply the daemon gives later follows the replies of later requests")
    func lateAnswer() {
        var client = EmbeddedClient()
        client.answer = { _, _ in nil }
        client.send(line(ClientMessage(id: 1, .reload)) + line(ClientMessage(id: 2, .ping)))
        client.answerLater(.ok(OkReply(id: 1, request: "reload")))
        #expect(client.messages == [.ok(OkReply(id: 2, request: "ping")), .ok(OkReply(id: 1, request: "reload"))])
    }

    @Test("malformed lines get an error naming the client and the request, and the session goes on")
    func malformedLines() {
        var client = EmbeddedClient(id: 7)
        client.send("{not json\n")
        client.send(#"{"type":"frobnicate","id":9}"# + "\n")
        client.send(#"{"type":"subscribe","id":10,"states":["sideways"]}"# + "\n")
        client.send(line(ClientMessage(id: 11, .ping)))
        let messages = client.messages
        guard messages.count == 4, case .error(let json) = messages[0], case .error(let unknown) = messages[1],
            case .error(let bad) = messages[2]
        else {
            Issue.record("expected three errors and a reply, got \(messages)")
            return
        }
        #expect(json.code == .malformedJSON)
        #expect(json.message.hasPrefix("client 7, request 1: "), "\(json.message)")
        #expect(unknown.code == .unknownRequest && unknown.id == 9)
        #expect(unknown.message.hasPrefix("client 7, request 2: unknown request type 'frobnicate'"), "\(unknown.message)")
        #expect(bad.code == .badRequest && bad.id == 10)
        #expect(bad.message.hasPrefix("client 7, request 3: subscribe: field 'states[0]'"), "\(bad.message)")
        #expect(messages[3] == .ok(OkReply(id: 11, request: "ping")))
        let logged = client.actions.compactMap { if case .log(.badRequest(let text)) = $0 { text } else { nil } }
        #expect(logged.count == 3)
        #expect(logged.allSatisfy { $0.hasPrefix("client 7, request ") }, "\(logged)")
        #expect(client.closeReason == nil)
    }

    @Test("an over-long line is answered, then the connection closes and nothing after it is read")
    func lineTooLong() {
        var client = EmbeddedClient(id: 3, maximumLineLength: 64)
        client.send(line(ClientMessage(id: 1, .ping)) + Array(repeating: UInt8(ascii: "x"), count: 100) + [10] + line(ClientMessage(id: 2, .ping)))
        #expect(client.messages.count == 2)
        #expect(errorCode(client.messages.last) == .lineTooLong)
        if case .error(let e) = client.messages.last { #expect(e.message == "client 3, request 2: request line longer than 64 bytes (65 seen); closing") }
        #expect(client.closeReason == "line too long", "closed as soon as the error was written")
        #expect(client.served.isEmpty)
    }

    @Test("a hello of another major version is refused and the connection closed once the error is read")
    func versionMismatch() {
        var client = EmbeddedClient(id: 4)
        client.room = 10
        client.send(line(ClientMessage(id: 1, .hello(HelloRequest(protocolVersion: 99, clientName: "future")))) + line(ClientMessage(id: 2, .ping)))
        #expect(client.closeReason == nil, "the error is not written yet")
        #expect(client.isWatchingWritable && !client.isReading)
        #expect(client.machine.name == "future")
        client.peerReads(nil)
        #expect(client.messages.count == 1, "the ping after the bad hello is not answered")
        #expect(errorCode(client.messages.first) == .versionMismatch)
        #expect(client.closeReason == "version mismatch")
    }

    @Test("a client that does not read overflows: told so after what it had, then closed; or at the deadline")
    func slowClient() {
        for reads in [true, false] {
            var client = EmbeddedClient(soft: 4, hard: 8)
            client.send(line(ClientMessage(id: 1, .subscribe(SubscribeRequest(rawTouches: true)))))
            // The socket takes 1.5 lines more, then nothing.
            client.room = touch(0).count * 3 / 2
            var offered = 0
            while offered < 100, !client.machine.isClosing {
                client.perform(client.machine.offer(touch(offered), coalesceKey: nil))
                offered += 1
            }
            #expect(offered == 10, "1 written, then 1 partly written and 7 more queued to the hard limit of 8, then the refused one")
            #expect(client.actions.contains(.log(.tooSlow(queued: 8))), "\(client.actions)")
            #expect(client.actions.contains(.wakeUp(afterMicroseconds: 5_000_000)))
            #expect(!client.isReading && client.isWatchingWritable)
            #expect(client.machine.offer(touch(100), coalesceKey: nil).isEmpty, "no events once closing")
            if reads {
                client.peerReads(nil)
                #expect(client.receivedWholeLines, "the partly written line was finished before the notice")
                let messages = client.messages
                #expect(messages.count == 4, "ok, the written touch, the partly written touch, the notice: \(messages.count)")
                if case .overflow(let notice) = messages.last { #expect(notice.queued == 8) } else { Issue.record("no notice: \(messages)") }
                #expect(client.closeReason == "overflow")
            } else {
                #expect(client.closeReason == nil)
                client.perform(client.machine.deadlinePassed())
                #expect(client.closeReason == "overflow (never read the notice)")
            }
        }
    }

    @Test("over the soft limit a slow reader's changed events coalesce; others are all kept")
    func coalescingForSlowReader() {
        var client = EmbeddedClient(soft: 2, hard: 8)
        client.send(line(ClientMessage(id: 1, .subscribe(SubscribeRequest()))))
        client.room = 0
        for i in 0..<6 { client.perform(client.machine.offer(touch(i), coalesceKey: "g")) }
        client.perform(client.machine.offer(touch(99), coalesceKey: nil))
        #expect(client.closeReason == nil && !client.machine.isClosing)
        client.peerReads(nil)
        let times = client.messages.compactMap { if case .touch(let t) = $0 { t.timeUS } else { nil } }
        #expect(times == [0, 5, 99], "the first two queued, the later changed replace the second")
    }

    @Test("half-close: requests before the EOF are answered, then the connection closes")
    func halfClose() {
        var client = EmbeddedClient()
        client.room = 5
        client.send(line(ClientMessage(id: 1, .status)) + line(ClientMessage(id: 2, .ping)))
        client.endOfFile()
        #expect(client.closeReason == nil, "replies are still queued")
        #expect(!client.isReading)
        client.peerReads(nil)
        #expect(client.messages.map(\.replyID) == [1, 2])
        #expect(client.closeReason == "client closed the connection")

        var idle = EmbeddedClient()
        idle.endOfFile()
        #expect(idle.closeReason == "client closed the connection", "nothing queued: closed at once")

        var gone = EmbeddedClient()
        gone.room = 0
        gone.send(line(ClientMessage(id: 1, .ping)))
        gone.endOfFile()
        gone.failWrites = "EPIPE"
        gone.peerReads(nil)
        #expect(gone.closeReason == "client closed the connection", "a failed write after its EOF only confirms it left")

        var broken = EmbeddedClient()
        broken.failWrites = "ECONNRESET"
        broken.send(line(ClientMessage(id: 1, .ping)))
        #expect(broken.closeReason == "write failed: ECONNRESET")
    }

    @Test("shutdown: the client reads what was queued, then the notice, then is closed; or at the deadline")
    func shutdownDrain() {
        for reads in [true, false] {
            var client = EmbeddedClient(soft: 16, hard: 32)
            client.send(line(ClientMessage(id: 1, .subscribe(SubscribeRequest(rawTouches: true)))))
            client.room = 0
            for i in 0..<3 { client.perform(client.machine.offer(touch(i), coalesceKey: nil)) }
            client.perform(client.machine.shutdown(reason: "SIGTERM"))
            #expect(!client.isReading)
            #expect(client.machine.offer(touch(3), coalesceKey: nil).isEmpty, "no events after the shutdown notice")
            client.send(line(ClientMessage(id: 2, .ping)))
            if reads {
                client.peerReads(nil)
                let messages = client.messages
                #expect(messages.count == 5, "ok, three touches, the notice")
                #expect(messages.last == .shutdown(ShutdownEvent(reason: "SIGTERM")))
                #expect(client.closeReason == "daemon shutting down")
            } else {
                client.perform(client.machine.deadlinePassed())
                #expect(client.closeReason == "daemon shutting down (deadline)")
            }
        }
        // An overflowed client has its final line already: no shutdown notice after it.
        var overflowed = EmbeddedClient(soft: 1, hard: 1)
        overflowed.room = 0
        overflowed.send(line(ClientMessage(id: 1, .subscribe(SubscribeRequest(rawTouches: true)))))
        overflowed.perform(overflowed.machine.offer(touch(0), coalesceKey: nil))
        #expect(overflowed.machine.isClosing)
        overflowed.perform(overflowed.machine.shutdown(reason: "SIGTERM"))
        overflowed.peerReads(nil)
        #expect(overflowed.messages.count == 1)
        if case .overflow = overflowed.messages.last {} else { Issue.record("expected only the overflow notice: \(overflowed.messages)") }
        #expect(overflowed.closeReason == "overflow")
    }

    enum Phase: String, CaseIterable {
        case open, closing, closed
    }

    enum Event: String, CaseIterable {
        case request, badLine, tooLong, endOfFile, halfClose, offer, overflow, shutdown, readError, writeError, deadline, drained, reply
    }

    /// docs/state-machines/client-session.md, as (from, event) → to.
    static let transitionTable: [Phase: [Event: Phase]] = [
        .open: [
            .request: .open, .badLine: .open, .tooLong: .closing, .endOfFile: .closed, .halfClose: .closing, .offer: .open, .overflow: .closing,
            .shutdown: .closing, .readError: .closed, .writeError: .closed, .deadline: .open, .drained: .open, .reply: .open,
        ],
        .closing: [
            .request: .closing, .badLine: .closing, .tooLong: .closing, .endOfFile: .closing, .halfClose: .closing, .offer: .closing, .overflow: .closing,
            .shutdown: .closing, .readError: .closed, .writeError: .closed, .deadline: .closed, .drained: .closed, .reply: .closing,
        ],
        .closed: Dictionary(uniqueKeysWithValues: Event.allCases.map { ($0, Phase.closed) }),
    ]

    /// A subscribed session in `phase` whose socket takes nothing: open with nothing queued,
    /// closing by shutdown with its notice queued, or closed by its EOF.
    static func session(in phase: Phase) -> EmbeddedClient {
        var client = EmbeddedClient()
        client.send(line(ClientMessage(id: 1, .subscribe(SubscribeRequest()))))
        client.room = 0
        switch phase {
        case .open: break
        case .closing: client.perform(client.machine.shutdown(reason: "test"))
        case .closed: client.endOfFile()
        }
        return client
    }

    static func phase(of client: EmbeddedClient) -> Phase {
        client.machine.isClosed ? .closed : client.machine.isClosing ? .closing : .open
    }

    static func apply(_ event: Event, to client: inout EmbeddedClient) {
        switch event {
        case .request: client.send(line(ClientMessage(id: 2, .status)))
        case .badLine: client.send("{x\n")
        case .tooLong: client.send(Array(repeating: UInt8(ascii: "x"), count: 300) + [10])
        case .endOfFile: client.endOfFile()
        case .halfClose:
            // A request whose reply the socket does not take yet, then EOF.
            client.send(line(ClientMessage(id: 4, .ping)))
            client.endOfFile()
        case .offer: client.perform(client.machine.offer(touch(0), coalesceKey: nil))
        case .overflow: client.perform(client.machine.overflow())
        case .shutdown: client.perform(client.machine.shutdown(reason: "again"))
        case .readError: client.perform(client.machine.readFailed("EIO"))
        case .writeError:
            client.failWrites = "EPIPE"
            client.perform(client.machine.reply(.ok(OkReply(id: 3, request: "reload"))))
        case .deadline: client.perform(client.machine.deadlinePassed())
        case .drained: client.peerReads(nil)
        case .reply: client.perform(client.machine.reply(.ok(OkReply(id: 3, request: "reload"))))
        }
    }

    @Test("every (state, event) pair moves as docs/state-machines/client-session.md says", arguments: Phase.allCases)
    func transitionTable(from: Phase) throws {
        let row = try #require(Self.transitionTable[from])
        #expect(Set(row.keys) == Set(Event.allCases), "the table names every event")
        for event in Event.allCases {
            var client = Self.session(in: from)
            #expect(Self.phase(of: client) == from, "set-up for \(from)")
            let before = (client.actions.count, client.served.count, client.machine.outbox.count)
            Self.apply(event, to: &client)
            #expect(Self.phase(of: client) == row[event], "\(from) + \(event)")
            if from == .closed {
                #expect((client.actions.count, client.served.count, client.machine.outbox.count) == before, "closed + \(event) does nothing")
            }
            if from == .closing, [.request, .badLine, .tooLong, .offer, .halfClose].contains(event) {
                #expect(client.served.count == before.1 && client.machine.outbox.count == before.2, "closing + \(event) takes nothing")
            }
        }
    }

    static func manPagePath(filePath: String = #filePath) -> String {
        var components = filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/docs/man/gestured-ipc.7.scd"
    }

    @Test("the man page's example errors are what the session writes, client and request included")
    func manPageErrors() throws {
        let page = try Files.readText(path: Self.manPagePath())
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("$ socat - UNIX-CONNECT:") })
        let transcript = Array(lines[(start + 1)...].prefix { $0 != "```" })
        // The example's connection is the daemon's first (client 1).
        var client = EmbeddedClient(id: 1, maximumLineLength: LineFramer.defaultMaximumLineLength)
        var errors = 0
        for (index, typed) in transcript.enumerated() where typed.hasPrefix("> ") {
            let before = client.messages.count
            client.send(Array(typed.dropFirst(2).utf8) + [10])
            guard case .error = client.messages.last, client.messages.count > before else { continue }
            errors += 1
            let written = String(decoding: client.received.split(separator: UInt8(ascii: "\n")).last ?? [], as: UTF8.self)
            #expect(index + 1 < transcript.count && transcript[index + 1] == written, "\(typed)")
        }
        #expect(errors == 1, "the example shows one error")
    }

    @Test("a deadline for a session that is not closing, or already closed, does nothing")
    func staleDeadline() {
        var client = EmbeddedClient()
        #expect(client.machine.deadlinePassed().isEmpty)
        client.endOfFile()
        #expect(client.machine.deadlinePassed().isEmpty)
        #expect(client.machine.reply(.ok(OkReply(id: 1, request: "ping"))).isEmpty, "no reply after the close")
    }
}

extension DaemonMessage {
    /// The id of a reply (nil for events and replies without one).
    fileprivate var replyID: Int? {
        switch self {
        case .hello(let m): m.id
        case .ok(let m): m.id
        case .devices(let m): m.id
        case .status(let m): m.id
        case .error(let m): m.id
        default: nil
        }
    }
}
