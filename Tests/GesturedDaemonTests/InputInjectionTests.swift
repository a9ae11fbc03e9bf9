import Foundation
import GesturedClient
@testable import GesturedDaemon
import GesturedLogging
import GesturedProtocol
import GesturedSystem
import Synchronization
import Testing

/// A stand-in for logind, named so: the seats' active users and lock state as the test says.
struct FakeSeatSessions: SeatSessionLookup {
    var isAvailable = true
    var activeUsers: [String: UInt32] = [:]
    var locked: Set<String> = []
    func activeUser(seat: String) -> UInt32? { activeUsers[seat] }
    func isLocked(seat: String) -> Bool { locked.contains(seat) }
}

/// A stand-in for the uinput devices: records each transition written, in order.
final class RecordingInputSink: VirtualInputSink, @unchecked Sendable {
    struct Write: Equatable, CustomStringConvertible {
        var kind: VirtualInputDevices.Kind
        var code: UInt16
        var isPressed: Bool
        var description: String { "\(isPressed ? "+" : "-")\(code)" }
    }
    private let storage = Mutex<[Write]>([])
    /// Every write, as it happens (tests wait on it instead of sleeping).
    let written: AsyncStream<Write>
    private let continuation: AsyncStream<Write>.Continuation
    /// Fail every write after this many (nil: never).
    var failAfter: Int?
    var prepareError: SystemError?

    init() {
        (written, continuation) = AsyncStream.makeStream(of: Write.self)
    }

    var writes: [Write] { storage.withLock { $0 } }
    var transcript: String { writes.map(\.description).joined(separator: " ") }

    func prepare(_ kind: VirtualInputDevices.Kind, ready: @escaping (SystemError?) -> Void) { ready(prepareError) }

    func write(_ kind: VirtualInputDevices.Kind, code: UInt16, isPressed: Bool) throws(SystemError) {
        let count = storage.withLock { $0.count }
        if let failAfter, count >= failAfter { throw SystemError(operation: "write to uinput device", errno: .noSuchDevice) }
        let write = Write(kind: kind, code: code, isPressed: isPressed)
        storage.withLock { $0.append(write) }
        continuation.yield(write)
    }
}

/// The injector's timer held by the test: nothing runs until the test says so (time is data).
/// Used from one thread at a time: the test's, or the IPC loop's through `loop.execute`.
final class ManualInputScheduler: @unchecked Sendable {
    private var bodies: [() -> Void] = []
    var pending: Int { bodies.count }
    func schedule(_ delay: Int64, _ body: @escaping () -> Void) {
        #expect(delay == InputInjector.stepIntervalMicroseconds)
        bodies.append(body)
    }
    /// Takes the timers due now, to be run where the injector lives.
    func takeAll() -> [() -> Void] {
        defer { bodies.removeAll() }
        return bodies
    }
}

@Suite("Key and button input")
struct InputInjectionTests {
    static let superKey = InputKey(code: 125, name: "KEY_LEFTMETA")
    static let pageUp = InputKey(code: 104, name: "KEY_PAGEUP")
    static let ctrl = InputKey(code: 29, name: "KEY_LEFTCTRL")

    // MARK: The policy

    @Test("the policy: off for everyone by default, root always when on, else only the seat's unlocked active user")
    func authorization() {
        let sessions = FakeSeatSessions(activeUsers: ["seat0": 1000])
        func decide(_ uid: UInt32?, enabled: Bool = true, seat: String = "seat0", _ lookup: any SeatSessionLookup = sessions) -> InputAuthorization.Decision {
            InputAuthorization.decide(clientID: 7, uid: uid, isEnabled: enabled, seat: seat, sessions: lookup)
        }
        #expect(decide(1000) == .allowed)
        #expect(decide(0) == .allowed)
        #expect(decide(0, NoLogindSessions()) == .allowed)
        #expect(decide(1000, enabled: false) == .refused("client 7 (uid 1000): key and button input is off in this daemon (AllowInputForActiveSession=no, see gestured.conf(5))"))
        #expect(decide(0, enabled: false) != .allowed, "the option binds root too")
        #expect(decide(1001) == .refused("client 7 (uid 1001): not the user of the active session on seat0 (uid 1000); only that user and root may send input"))
        #expect(decide(1000, NoLogindSessions()) == .refused("client 7 (uid 1000): logind is not available, so no user is known to be active on seat0 and only root may send input"))
        #expect(decide(1000, FakeSeatSessions()) == .refused("client 7 (uid 1000): seat0 has no active session, so only root may send input"))
        #expect(decide(1000, FakeSeatSessions(activeUsers: ["seat0": 1000], locked: ["seat0"])) == .refused("client 7 (uid 1000): the active session on seat0 is locked; only root may send input while it is"))
        #expect(decide(1000, seat: "seat1", FakeSeatSessions(activeUsers: ["seat1": 1000])) == .refused("client 7 (uid 1000): the gesture's device is on seat1, but the daemon's virtual keyboard and pointer are on seat0"))
        #expect(decide(nil) == .refused("client 7: the daemon could not read the client's credentials (SO_PEERCRED)"))
    }

    @Test("the policy reads logind's model: nobody before logind answers, then its active user, never while locked")
    func authorizationWithSeatSessions() {
        let model = SeatSessions()
        func decide(_ uid: UInt32) -> InputAuthorization.Decision {
            InputAuthorization.decide(clientID: 3, uid: uid, isEnabled: true, seat: "seat0", sessions: model)
        }
        #expect(decide(1000) != .allowed, "logind has not answered yet")
        #expect(decide(0) == .allowed)
        model.replace([SeatSession(seat: "seat0", sessionID: "2", uid: 1000, userName: "ada", locked: false)], availability: .available)
        #expect(decide(1000) == .allowed)
        #expect(decide(1001) != .allowed)
        model.replace([SeatSession(seat: "seat0", sessionID: "2", uid: 1000, userName: "ada", locked: true)], availability: .available)
        #expect(decide(1000) == .refused("client 3 (uid 1000): the active session on seat0 is locked; only root may send input while it is"))
        model.setAvailability(.absent)
        #expect(decide(1000) != .allowed, "logind gone: root only")
    }

    @Test("the rate limit allows a burst, then one request per 1/rate seconds of virtual time")
    func rateLimit() {
        var limit = InputRateLimit(burst: 3, perSecond: 10)
        func take(_ t: Int64) -> Bool { limit.take(nowMicroseconds: t) }
        let start: Int64 = 5_000_000
        for _ in 0..<3 { #expect(take(start)) }
        #expect(!take(start))
        #expect(!take(start + 90_000), "0.9 of a token after 90 ms")
        #expect(take(start + 100_000))
        #expect(!take(start + 100_000))
        // a long pause refills to the burst, not beyond
        for _ in 0..<3 { #expect(take(start + 60_000_000)) }
        #expect(!take(start + 60_000_000))
    }

    // MARK: The injector

    @Test("a combination is pressed in order and released in reverse, one transition per step")
    func chordOrder() {
        let sink = RecordingInputSink()
        let clock = ManualInputScheduler()
        let injector = InputInjector(sink: sink, schedule: clock.schedule)
        var done: [SystemError?] = []
        injector.submit(clientID: 1, steps: InputStep.chord([Self.superKey, Self.pageUp], on: .keyboard)) { done.append($0) }
        #expect(sink.transcript == "+125", "the first transition at once, the next one step later")
        var steps = 1
        while clock.pending > 0 {
            for body in clock.takeAll() { body() }
            steps += 1
            #expect(sink.writes.count == steps)
        }
        #expect(sink.transcript == "+125 +104 -104 -125")
        #expect(done.count == 1 && done[0] == nil)
        #expect(injector.pendingCount(clientID: 1) == 0)
    }

    @Test("a client that goes away mid-combination has its held keys released at once, in reverse order")
    func disconnectReleases() {
        let sink = RecordingInputSink()
        let clock = ManualInputScheduler()
        let injector = InputInjector(sink: sink, schedule: clock.schedule)
        var completions = 0
        let three = [Self.ctrl, Self.superKey, Self.pageUp]
        injector.submit(clientID: 1, steps: InputStep.chord(three, on: .keyboard)) { _ in completions += 1 }
        injector.submit(clientID: 1, steps: InputStep.chord([Self.pageUp], on: .keyboard)) { _ in completions += 1 }
        injector.submit(clientID: 2, steps: InputStep.chord([Self.pageUp], on: .keyboard)) { _ in completions += 1 }
        for body in clock.takeAll() { body() }
        #expect(sink.transcript == "+29 +125")
        injector.clientGone(1)
        // ctrl and super released now, newest first; client 1's queued combination dropped;
        // client 2's starts.
        #expect(sink.transcript == "+29 +125 -125 -29 +104")
        // the abandoned combination's timer fires and does nothing
        for body in clock.takeAll() { body() }
        #expect(sink.transcript == "+29 +125 -125 -29 +104 -104")
        #expect(completions == 1, "only client 2's combination completed")
        #expect(injector.pendingCount(clientID: 1) == 0)
        #expect(clock.pending == 0)
    }

    @Test("a device that fails mid-combination gets its held keys released and the error reported")
    func failingDevice() {
        let sink = RecordingInputSink()
        sink.failAfter = 2
        let clock = ManualInputScheduler()
        let injector = InputInjector(sink: sink, schedule: clock.schedule)
        var failure: SystemError?
        injector.submit(clientID: 1, steps: InputStep.chord([Self.ctrl, Self.superKey, Self.pageUp], on: .keyboard)) { failure = $0 }
        while clock.pending > 0 { for body in clock.takeAll() { body() } }
        #expect(failure?.errno == .noSuchDevice)
        #expect(sink.transcript == "+29 +125", "the releases fail on the same broken device, and are not retried")
    }

    // MARK: Over the socket

    /// An IPC server on a real socket in a temporary directory open to other users, with the
    /// recording sink.
    struct Server {
        let base: TestIPCServer
        let sink = RecordingInputSink()
        var dir: String { base.dir }
        var socket: String { base.socket }
        var loop: EventLoop { base.loop }
        var server: IPCServer { base.server }
        var state: DaemonState { base.state }

        init(allowInput: Bool, sessions: any SeatSessionLookup, scheduler: InputScheduler? = nil) async throws {
            var settings = IPCSettings()
            settings.allowInput = allowInput
            // reachable by the other users the refusal test runs clients as
            base = try await TestIPCServer(
                prefix: "/tmp/gkeys-", settings: settings, openToOtherUsers: true, sessions: sessions, inputSink: sink,
                inputScheduler: scheduler)
        }

        func stop() async { await base.stop() }
    }

    static var myUID: UInt32 { UInt32(getuid()) }

    @Test("with AllowInputForActiveSession off, send_keys is refused with the reason and the client id, and nothing is pressed")
    func refusedWhenOff() async throws {
        let server = try await Server(allowInput: false, sessions: FakeSeatSessions(activeUsers: ["seat0": Self.myUID]))
        let client = try IPCClient(path: server.socket, clientName: "off")
        #expect(client.hello?.capabilities.contains(Capability.input) == false)
        let reply = try client.request(.sendKeys(SendKeysRequest(keys: ["super", "Page_Up"])))
        guard case .error(let error) = reply else {
            Issue.record("expected an error, got \(reply)")
            return
        }
        #expect(error.code == .notPermitted)
        #expect(error.message == "client 1 (uid \(Self.myUID)): key and button input is off in this daemon (AllowInputForActiveSession=no, see gestured.conf(5))")
        let click = try client.request(.click(ClickRequest(button: "left")))
        #expect((click == .error(ErrorReply(id: 3, code: .notPermitted, message: error.message))), "\(click)")
        #expect(server.sink.writes.isEmpty)
        client.close()
        await server.stop()
    }

    @Test("the active session's user gets the combination on the virtual keyboard, pressed in order, released in reverse; then ok")
    func activeUserSendsKeys() async throws {
        let server = try await Server(allowInput: true, sessions: FakeSeatSessions(activeUsers: ["seat0": Self.myUID]))
        let client = try IPCClient(path: server.socket, clientName: "user")
        #expect(client.hello?.capabilities.contains(Capability.input) == true)
        let reply = try client.request(.sendKeys(SendKeysRequest(keys: ["super", "Page_Up"])))
        #expect(reply == .ok(OkReply(id: 2, request: "send_keys")))
        #expect(server.sink.transcript == "+125 +104 -104 -125")
        #expect(server.sink.writes.allSatisfy { $0.kind == .keyboard })
        let click = try client.request(.click(ClickRequest(button: "right")))
        #expect(click == .ok(OkReply(id: 3, request: "click")))
        #expect(server.sink.writes.suffix(2) == [.init(kind: .pointer, code: 0x111, isPressed: true), .init(kind: .pointer, code: 0x111, isPressed: false)])
        client.close()
        await server.stop()
    }

    @Test("bad names and unknown devices are bad requests naming the field")
    func badRequests() async throws {
        let server = try await Server(allowInput: true, sessions: FakeSeatSessions(activeUsers: ["seat0": Self.myUID]))
        let client = try IPCClient(path: server.socket, clientName: "typo")
        func message(_ request: ClientRequest) throws -> String {
            guard case .error(let e) = try client.request(request), e.code == .badRequest else { return "not a bad_request" }
            return e.message
        }
        #expect(try message(.sendKeys(SendKeysRequest(keys: ["super", "Page_Upp"]))) == "send_keys: keys[1]: unknown key 'Page_Upp' (did you mean 'KEY_PAGEUP'?)")
        #expect(try message(.sendKeys(SendKeysRequest(keys: []))) == "send_keys: 'keys' must name 1 to 8 keys, found 0")
        #expect(try message(.sendKeys(SendKeysRequest(keys: ["ctrl", "Control_L"]))) == "send_keys: keys[1] 'Control_L' is KEY_LEFTCTRL, which the combination already presses")
        #expect(try message(.click(ClickRequest(button: "lefty"))).hasPrefix("click: field 'button': unknown button 'lefty' (did you mean 'left'?)"))
        #expect(try message(.sendKeys(SendKeysRequest(keys: ["a"], device: "/dev/input/event99"))) == "send_keys: device '/dev/input/event99' is not a device the daemon has open (see list_devices)")
        // a request without its field
        try client.sendRaw(Array(#"{"type":"send_keys","id":40}"#.utf8) + [10])
        let missing = try client.nextMessage(timeoutMilliseconds: 30_000)
        #expect(missing == .error(ErrorReply(id: 40, code: .badRequest, message: "client 1, request 7: send_keys: missing field 'keys'")))
        #expect(server.sink.writes.isEmpty)
        client.close()
        await server.stop()
    }

    /// Holds the injector's timers; runs them on the server's loop when told.
    final class LoopScheduler: @unchecked Sendable {
        let manual = ManualInputScheduler()
        var scheduler: InputScheduler { { [manual] delay, body in manual.schedule(delay, body) } }
    }

    @Test("a client that disconnects mid-combination has its held key released at once")
    func disconnectMidCombination() async throws {
        let timers = LoopScheduler()
        let server = try await Server(allowInput: true, sessions: FakeSeatSessions(activeUsers: ["seat0": Self.myUID]), scheduler: timers.scheduler)
        var writes = server.sink.written.makeAsyncIterator()
        let client = try IPCClient(path: server.socket, clientName: "leaver")
        try client.send(ClientMessage(id: 2, .sendKeys(SendKeysRequest(keys: ["super", "Page_Up"]))))
        // super goes down at once; Page_Up would follow on a timer the test never runs
        #expect(await writes.next() == .init(kind: .keyboard, code: 125, isPressed: true))
        client.close()
        #expect(await writes.next() == .init(kind: .keyboard, code: 125, isPressed: false))
        await server.server.flushPublished()
        #expect(server.sink.transcript == "+125 -125")
        await server.stop()
    }

    @Test("a client asking faster than the limit is refused with rate_limited naming it")
    func rateLimitedOverTheSocket() async throws {
        let timers = LoopScheduler()
        let server = try await Server(allowInput: true, sessions: FakeSeatSessions(activeUsers: ["seat0": Self.myUID]), scheduler: timers.scheduler)
        let client = try IPCClient(path: server.socket, clientName: "eager")
        // the first combination plays (its timers held), the next seven wait behind it
        for id in 10..<18 { try client.send(ClientMessage(id: id, .sendKeys(SendKeysRequest(keys: ["a"])))) }
        let reply = try client.request(.sendKeys(SendKeysRequest(keys: ["b"])))
        guard case .error(let error) = reply else {
            Issue.record("expected rate_limited, got \(reply)")
            return
        }
        #expect(error.code == .rateLimited)
        #expect(error.message == "client 1: more input requests than the limit (10 at once, 10 a second); this send_keys was dropped")
        #expect(server.sink.transcript == "+30", "only the first combination started")
        client.close()
        await server.stop()
    }

    @Test("another user than the seat's active one is refused over a real socket (SO_PEERCRED)", .enabled(if: getuid() == 0, "needs root to run a client as another user"))
    func otherUserIsRefused() async throws {
        let server = try await Server(allowInput: true, sessions: FakeSeatSessions(activeUsers: ["seat0": 1000]))
        func gesturectl(asUID uid: UInt32) throws -> (status: Int32, stderr: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups",
                ActionsRunTests.binDirectory + "/gesturectl", "--socket", server.socket, "send-keys", "ctrl+alt+t",
            ]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let outsider = try gesturectl(asUID: 65534)
        #expect(outsider.status == 1)
        #expect(
            outsider.stderr.contains(
                "gesturectl: gestured refused send_keys ctrl+alt+t: client 1 (uid 65534): not the user of the active session on seat0 (uid 1000); only that user and root may send input [not_permitted]"),
            "\(outsider.stderr)")
        #expect(server.sink.writes.isEmpty)
        let user = try gesturectl(asUID: 1000)
        #expect(user.status == 0, "\(user.stderr)")
        #expect(server.sink.transcript == "+29 +56 +20 -20 -56 -29")
        await server.stop()
    }

    @Test("gesturectl run carries out Keys= and Click= through send_keys and click, for the gesture's device")
    func runSendsKeys() async throws {
        let server = try await Server(allowInput: true, sessions: FakeSeatSessions(activeUsers: ["seat0": Self.myUID]))
        let node = "/dev/input/event5"
        // The daemon's state is the loop's: set it there.
        let state = server.state
        await withTaskExecutorPreference(server.loop) {
            state.setDevice(
                DeviceInfo(
                    device: node, name: "ELAN Touchscreen", kind: "touchscreen", vendor: 0, product: 0, widthMM: 300, heightMM: 200, slots: 10,
                    approximateUnits: false, seat: "seat0"))
        }
        let dir = URL(fileURLWithPath: server.dir)
        let actions = dir.appendingPathComponent("actions.conf")
        try """
            [Action switch]
            Kind=swipe
            Fingers=3
            Direction=left
            Keys=super+Page_Up

            [Action click]
            Kind=tap
            Fingers=2
            Click=right

            """.write(to: actions, atomically: true, encoding: .utf8)
        let run = Process()
        run.executableURL = URL(fileURLWithPath: ActionsRunTests.binDirectory + "/gesturectl")
        run.arguments = ["--socket", server.socket, "run", "--actions", actions.path, "--exit-on-shutdown", "--verbose"]
        let errPath = dir.appendingPathComponent("run.err")
        _ = FileManager.default.createFile(atPath: errPath.path, contents: nil)
        run.standardError = try FileHandle(forWritingTo: errPath)
        run.standardOutput = FileHandle.nullDevice
        try run.run()
        await server.server.waitForSubscribers(1)
        func event(_ kind: String, fingers: Int, direction: String? = nil, id: String) -> GestureEventMessage {
            GestureEventMessage(
                name: kind, kind: kind, state: .recognized, device: node, deviceName: "ELAN Touchscreen", timeUS: 1, gestureID: id,
                fingers: fingers, centroidMM: WireVector(x: 1, y: 1), centroidFraction: WireVector(x: 0.5, y: 0.5), direction: direction)
        }
        server.server.publish(
            EncodedBatch(gestures: [
                event("swipe", fingers: 3, direction: "left", id: "event5:1"), event("swipe", fingers: 3, direction: "right", id: "event5:2"),
            ]))
        var writes = server.sink.written.makeAsyncIterator()
        var seen: [RecordingInputSink.Write] = []
        while seen.count < 4, let write = await writes.next() { seen.append(write) }
        server.server.publish(EncodedBatch(gestures: [event("tap", fingers: 2, id: "event5:3")]))
        while seen.count < 6, let write = await writes.next() { seen.append(write) }
        // the ok of the click is written in the same loop turn as its last transition, so it
        // precedes the shutdown notice
        await server.server.shutdown(reason: "test over", deadlineSeconds: 5)
        run.waitUntilExit()
        let stderr = try String(contentsOf: errPath, encoding: .utf8)
        await server.stop()
        #expect(run.terminationStatus == 0, "\(stderr)")
        #expect(server.sink.transcript == "+125 +104 -104 -125 +273 -273", "the swipe right matches no action")
        #expect(stderr.contains("gesturectl: gestured sent keys super+Page_Up for action 'switch' (swipe recognized event5:1)"), "\(stderr)")
        #expect(stderr.contains("gesturectl: gestured sent click right for action 'click' (tap recognized event5:3)"), "\(stderr)")
        #expect(!stderr.contains("refused"), "\(stderr)")
    }
}
