import Dispatch
import GestureEngine
import GesturedCLISupport
import GesturedClient
import GesturedLogging
import GesturedProtocol
import GesturedSystem
import Synchronization
import Testing

@testable import GesturedDaemon

/// Tier 6 (STYLE.md B13): the daemon with the replay input back-end and a real Unix socket in
/// a temporary directory; clients are real socket clients. No sleeps: clients block on their
/// sockets, and replays run on the recording's clock.
@Suite("Daemon over a real socket", .timeLimit(.minutes(2)))
struct DaemonSocketTests {
    /// A recording of scripted gestures on the demo touchscreen.
    static func recording(_ build: (GestureSynthesizer) -> GestureScript) -> LoadedRecording {
        var synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        let events = synthesizer.events(for: build(synthesizer))
        return LoadedRecording(device: GestureSynthesizer.demoTouchscreen, events: events, warnings: [])
    }

    static let tapThenSwipe = recording { s in
        s.tap(at: .fraction(x: 0.3, y: 0.3)).followed(by: s.swipe(fingers: 3, direction: .left, distance: 80, duration: 0.25), after: 1)
    }

    /// Runs a daemon on a temporary socket; `clients` runs on a separate thread once the
    /// socket is bound, connects and subscribes, and returns when done.
    static func withDaemon(
        replays: [LoadedRecording],
        config: String? = nil,
        waitClients: Int,
        pacing: ReplayPacing = .asFastAsPossible,
        stopWhenClientsFinish: Bool = false,
        clients body: @escaping @Sendable (String) throws -> Void
    ) async -> ExitCode {
        let dir = Files.makeTemporaryDirectory(prefix: "/tmp/gdt-")!
        var options = DaemonOptions()
        if let config {
            try? Files.writeText(config, path: dir + "/gestured.conf")
            options.configPath = dir + "/gestured.conf"
        }
        options.socketPath = dir + "/s.sock"
        options.socketGroup = ""
        options.useUdev = false
        options.exitAfterReplays = !stopWhenClientsFinish
        options.replayWaitClients = waitClients
        options.replays = replays.enumerated().map { ReplayRequest(node: "replay:\($0.offset)", recording: $0.element, pacing: pacing) }
        let logs = RecordingSink()
        let daemon = Daemon(options: options, logger: Logger(label: "test", level: .warning, sink: logs))
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let code = await daemon.run { path in
            DispatchQueue(label: "test-clients").async {
                do {
                    try body(path)
                } catch {
                    Issue.record("client side failed: \(error)")
                }
                if stopWhenClientsFinish { daemon.stop() }
                finish.yield()
                finish.finish()
            }
        }
        // The daemon stops after the replays; the client thread then reads to the end.
        for await _ in finished { break }
        #expect(!Files.exists(dir + "/s.sock"), "the daemon removes its socket when it stops")
        Files.removeDirectory(dir)
        return code
    }

    /// Reads until the daemon says shutdown (or closes): every gesture message.
    static func readGestures(_ client: IPCClient) -> (gestures: [GestureEventMessage], sawShutdown: Bool, other: [DaemonMessage]) {
        var gestures: [GestureEventMessage] = []
        var other: [DaemonMessage] = []
        while let message = try? client.nextMessage(timeoutMilliseconds: 60_000) {
            switch message {
            case .gesture(let g): gestures.append(g)
            case .shutdown: return (gestures, true, other)
            default: other.append(message)
            }
        }
        return (gestures, false, other)
    }

    @Test("a subscribed client receives the replayed gestures, filtered as it asked")
    func subscribersReceiveFilteredGestures() async {
        let results = Mutex<[String: [GestureEventMessage]]>([:])
        let code = await Self.withDaemon(replays: [Self.tapThenSwipe], waitClients: 2) { path in
            let all = try IPCClient(path: path, clientName: "all")
            let swipes = try IPCClient(path: path, clientName: "swipes")
            _ = try all.request(.subscribe(SubscribeRequest()))
            _ = try swipes.request(.subscribe(SubscribeRequest(kinds: ["swipe"])))
            let a = Self.readGestures(all)
            let s = Self.readGestures(swipes)
            #expect(a.sawShutdown && s.sawShutdown)
            #expect(a.other.contains { if case .deviceAdded(let d) = $0 { d.device == "replay:0" } else { false } })
            results.withLock {
                $0["all"] = a.gestures
                $0["swipes"] = s.gestures
            }
        }
        #expect(code == .success)
        let all = results.withLock { $0["all"] } ?? []
        let swipes = results.withLock { $0["swipes"] } ?? []
        #expect(all.contains { $0.kind == "tap" && $0.state == .recognized && $0.taps == 1 })
        let swipe = all.first { $0.kind == "swipe" }
        #expect(swipe?.direction == "left")
        #expect(swipe?.fingers == 3)
        #expect(swipe?.device == "replay:0")
        #expect(!swipes.isEmpty)
        #expect(swipes.allSatisfy { $0.kind == "swipe" })
        #expect(swipes == all.filter { $0.kind == "swipe" })
    }

    @Test("three hundred clients each receive the whole stream")
    func manyClients() async {
        let counts = Mutex<[Int]>([])
        let expected = Mutex<[GestureEventMessage]>([])
        let code = await Self.withDaemon(replays: [Self.tapThenSwipe], waitClients: 300) { path in
            var clients: [IPCClient] = []
            for i in 0..<300 {
                let c = try IPCClient(path: path, clientName: "c\(i)")
                _ = try c.request(.subscribe(SubscribeRequest()))
                clients.append(c)
            }
            var reference: [GestureEventMessage]?
            for c in clients {
                let got = Self.readGestures(c)
                if reference == nil { reference = got.gestures }
                #expect(got.gestures == reference, "every client sees the same stream")
                counts.withLock { $0.append(got.gestures.count) }
                c.close()
            }
            expected.withLock { $0 = reference ?? [] }
        }
        #expect(code == .success)
        #expect(counts.withLock { $0.count } == 300)
        #expect(expected.withLock { $0.count } >= 2)
    }

    static let longPan = recording { s in
        s.drag(fingers: 2, from: .fraction(x: 0.1, y: 0.5), to: .fraction(x: 0.9, y: 0.5), duration: 30)
    }

    static let smallOutboxConfig = """
        [Daemon]
        ClientQueueSoft=4
        ClientQueueHard=8

        [Gesture pan]
        Kind=pan
        """

    /// Reads everything a client gets until the connection ends.
    static func readAll(_ client: IPCClient) -> [DaemonMessage] {
        var messages: [DaemonMessage] = []
        do {
            while let message = try client.nextMessage(timeoutMilliseconds: 60_000) { messages.append(message) }
        } catch {
            Issue.record("the client's stream broke: \(error)")
        }
        return messages
    }

    @Test("a client that reads late gets changed events coalesced but every began and ended")
    func lateReaderGetsCoalescedStream() async {
        let slowResult = Mutex<[GestureEventMessage]>([])
        let fastResult = Mutex<[GestureEventMessage]>([])
        let code = await Self.withDaemon(replays: [Self.longPan], config: Self.smallOutboxConfig, waitClients: 2) { path in
            let slow = try IPCClient(path: path, clientName: "slow")
            let fast = try IPCClient(path: path, clientName: "fast")
            _ = try slow.request(.subscribe(SubscribeRequest()))
            _ = try fast.request(.subscribe(SubscribeRequest()))
            fastResult.withLock { $0 = Self.readGestures(fast).gestures }
            // Only now does the slow client read what was kept for it.
            slowResult.withLock { $0 = Self.readGestures(slow).gestures }
        }
        #expect(code == .success)
        let fast = fastResult.withLock { $0 }
        let slow = slowResult.withLock { $0 }
        // Nothing here depends on how promptly the reading client is scheduled (on a loaded
        // machine its `changed` events are coalesced too): only the late reader's bound is
        // certain. The pan has one `changed` a frame; the late reader can hold no more than
        // the kernel's socket buffer and the 4-line soft limit of them.
        let frameTimes = Set(Self.longPan.events.filter { $0.usage == .synReport }.map(\.time.microseconds))
        #expect(fast.first?.state == .began)
        #expect(fast.last?.state == .ended, "the reading client got the whole gesture")
        #expect(slow.count < frameTimes.count / 2, "the late reader's changed events were coalesced: \(slow.count) of \(frameTimes.count) frames")
        #expect(slow.first?.state == .began)
        #expect(slow.last == fast.last, "the late reader still gets the final ended, with the final values")
        // coalescing keeps real events, it invents none: each is a frame's, and the same event
        // as the reading client's at that frame when that one got it too
        #expect(slow.allSatisfy { frameTimes.contains($0.timeUS) } && fast.allSatisfy { frameTimes.contains($0.timeUS) })
        #expect(slow.allSatisfy { event in
            let same = fast.filter { $0.timeUS == event.timeUS }
            return same.isEmpty || same.contains(event)
        })
        #expect(zip(slow, slow.dropFirst()).allSatisfy { $0.timeUS <= $1.timeUS } && zip(fast, fast.dropFirst()).allSatisfy { $0.timeUS <= $1.timeUS })
    }

    // No clock decides this test, only the order of the data: the replay runs as fast as
    // possible; the fast client asks for gestures only, whose `changed` updates the outbox
    // coalesces, so it cannot overflow however slowly it is scheduled; the slow client asks
    // for raw touches (never coalesced: 6 000 lines, far more than the kernel's socket buffer
    // and the 8-line outbox) and reads nothing until the fast client has received the pan's
    // `ended`, by which time the daemon has offered the slow client every touch of the
    // recording. Then it reads to the end of its stream, well within the daemon's grace period
    // (the pan's end and the overflow are one burst apart, not a recording's duration).
    @Test("a client that never reads overflows, is told so and is disconnected; the others are not stalled")
    func slowClientOverflows() async {
        let slowResult = Mutex<[DaemonMessage]>([])
        let fastResult = Mutex<[DaemonMessage]>([])
        // The pan leaves the touches with the sink (CancelsTouches=no), so every move of
        // both fingers is streamed.
        let config = Self.smallOutboxConfig + "\nCancelsTouches=no\n"
        let code = await Self.withDaemon(replays: [Self.longPan], config: config, waitClients: 2, stopWhenClientsFinish: true) { path in
            let slow = try IPCClient(path: path, clientName: "slow")
            let fast = try IPCClient(path: path, clientName: "fast")
            _ = try slow.request(.subscribe(SubscribeRequest(rawTouches: true)))
            _ = try fast.request(.subscribe(SubscribeRequest()))
            var fastMessages: [DaemonMessage] = []
            while let message = try fast.nextMessage(timeoutMilliseconds: 60_000) {
                fastMessages.append(message)
                if case .gesture(let gesture) = message, gesture.state == .ended { break }
            }
            fastResult.withLock { $0 = fastMessages }
            slowResult.withLock { $0 = Self.readAll(slow) }
        }
        #expect(code == .success)
        let fast = fastResult.withLock { $0 }
        let slow = slowResult.withLock { $0 }
        let fastStates = fast.compactMap { if case .gesture(let g) = $0 { g.state } else { nil } }
        #expect(fastStates.first == .began && fastStates.last == .ended, "the fast client got the whole pan while the slow one read nothing")
        #expect(!fast.contains { if case .overflow = $0 { true } else { false } })
        let slowTouches = slow.count { if case .touch = $0 { true } else { false } }
        #expect(slowTouches > 0, "the slow client's socket buffer held touches")
        #expect(slowTouches < 5000, "the slow client lost most of the pan's 6 000 touches: \(slowTouches)")
        #expect(slow.last.map { if case .overflow = $0 { true } else { false } } == true, "the last thing the slow client reads is the overflow notice")
    }

    @Test("malformed JSON, unknown requests and over-long lines get error replies")
    func badRequests() async {
        let replies = Mutex<[DaemonMessage]>([])
        let code = await Self.withDaemon(replays: [Self.tapThenSwipe], waitClients: 1) { path in
            let bad = try IPCClient(path: path, clientName: "bad")
            var got: [DaemonMessage] = []
            try bad.sendRaw(Array("{not json\n".utf8))
            got.append(try bad.nextMessage(timeoutMilliseconds: 30_000)!)
            try bad.sendRaw(Array("{\"type\":\"frobnicate\",\"id\":7}\n".utf8))
            got.append(try bad.nextMessage(timeoutMilliseconds: 30_000)!)
            // Still usable after both errors:
            got.append(try bad.request(.ping))
            // The daemon may close the connection before the client has finished writing the
            // over-long line (the write then fails with EPIPE); its error reply is read anyway.
            try? bad.sendRaw([UInt8](repeating: UInt8(ascii: "x"), count: 70_000) + [10])
            got.append(try bad.nextMessage(timeoutMilliseconds: 30_000)!)
            // The daemon closed this connection after the over-long line.
            #expect((try? bad.nextMessage(timeoutMilliseconds: 30_000)) == .some(nil))
            replies.withLock { $0 = got }
            // Let the replay start and finish so the daemon stops.
            let listener = try IPCClient(path: path, clientName: "listener")
            _ = try listener.request(.subscribe(SubscribeRequest()))
            _ = Self.readGestures(listener)
        }
        #expect(code == .success)
        let got = replies.withLock { $0 }
        guard got.count == 4 else {
            Issue.record("expected 4 replies, got \(got)")
            return
        }
        if case .error(let e) = got[0] { #expect(e.code == .malformedJSON) } else { Issue.record("expected an error, got \(got[0])") }
        if case .error(let e) = got[1] {
            #expect(e.code == .unknownRequest)
            #expect(e.id == 7)
        } else { Issue.record("expected an error, got \(got[1])") }
        if case .ok(let ok) = got[2] { #expect(ok.request == "ping") } else { Issue.record("expected ok, got \(got[2])") }
        if case .error(let e) = got[3] { #expect(e.code == .lineTooLong) } else { Issue.record("expected an error, got \(got[3])") }
    }

    @Test("list_devices and status describe the replayed device and the configuration")
    func listDevicesAndStatus() async {
        let answers = Mutex<(DevicesReply?, StatusReply?)>((nil, nil))
        // A replay that lasts a minute keeps the device present while the client asks; the
        // client stops the daemon when it is done.
        let minute = Self.recording { s in s.longPress(duration: 60) }
        let code = await Self.withDaemon(replays: [minute], waitClients: 1, pacing: .realtime(speed: 1), stopWhenClientsFinish: true) { path in
            let c = try IPCClient(path: path, clientName: "ask")
            // Subscribing starts the replay; the device exists until the replay finishes,
            // and the replay's device_added precedes everything else on this connection.
            _ = try c.request(.subscribe(SubscribeRequest()))
            if case .deviceAdded = try c.nextMessage(timeoutMilliseconds: 30_000) {} else { Issue.record("expected device_added first") }
            var devices: DevicesReply?
            var status: StatusReply?
            if case .devices(let d) = try c.request(.listDevices) { devices = d }
            if case .status(let s) = try c.request(.status) { status = s }
            answers.withLock { $0 = (devices, status) }
        }
        #expect(code == .success)
        let (devices, status) = answers.withLock { $0 }
        #expect(status?.clients == 1)
        #expect(status?.gestures ?? 0 > 5, "the built-in configuration defines the default gesture set")
        #expect(status?.configPath == nil)
        let device = devices?.devices.first
        #expect(devices?.devices.count == 1)
        #expect(device?.device == "replay:0")
        #expect(device?.kind == "touchscreen")
        #expect(device?.slots == 10)
    }
}

