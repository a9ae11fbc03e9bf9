import Dispatch
import Foundation
import GestureEngine
import GesturedCLISupport
import GesturedClient
import GesturedLogging
import GesturedProtocol
import GesturedSystem
import Synchronization
import Testing

@testable import GesturedDaemon

/// The daemon's view of logind (``LogindTracker`` over ``SDBusConnection``, sd-bus) against a real dbus-daemon with
/// python-dbusmock's logind template on it, and the lock gate on top of it. No sleeps: each
/// step waits for the state the daemon reports, bounded by a timeout.
@Suite("Sessions (logind)", .serialized, .timeLimit(.minutes(2)))
struct SessionTests {
    @Test("lock and unlock of the active session are followed from LockedHint signals")
    func lockAndUnlock() async throws {
        try await TrackedSeats.with(LogindMock.aliceOnSeat0) { mock, t in
            try await t.watcher.wait("alice active on seat0") { $0.activeUser(seat: "seat0") == 1000 }
            #expect(t.sessions.availability == .available)
            #expect(t.sessions.activeSession(seat: "seat0") == SeatSession(seat: "seat0", sessionID: "2", uid: 1000, userName: "alice", locked: false))
            #expect(!t.sessions.isLocked(seat: "seat0"))
            try mock.send("lock 2")
            try await t.watcher.wait("seat0 locked") { $0.isLocked(seat: "seat0") }
            try mock.send("unlock 2")
            try await t.watcher.wait("seat0 unlocked") { !$0.isLocked(seat: "seat0") }
            #expect(t.sessions.activeUser(seat: "seat0") == 1000)
            #expect(t.messages(containing: "Seat locked").count == 1)
            #expect(t.messages(containing: "Seat unlocked").count == 1)
            #expect(t.sessions.activeSession(seat: "seat1") == nil, "a seat logind does not list has no active user")
        }
    }

    @Test("a session switch moves the seat's active user, and its lock state with it")
    func sessionSwitch() async throws {
        try await TrackedSeats.with(LogindMock.aliceOnSeat0) { mock, t in
            try await t.watcher.wait("alice active") { $0.activeUser(seat: "seat0") == 1000 }
            try mock.send("lock 2")
            try await t.watcher.wait("alice's session locked") { $0.isLocked(seat: "seat0") }
            // Bob logs in on the same seat (a greeter switch): his session becomes the active one.
            try mock.send("session 3 seat0 1001 bob")
            try await t.watcher.wait("bob active") { $0.activeUser(seat: "seat0") == 1001 }
            #expect(!t.sessions.isLocked(seat: "seat0"), "bob's session is not locked; alice's lock stays hers")
            #expect(t.sessions.activeSession(seat: "seat0")?.userName == "bob")
            try mock.send("activate seat0 2")
            try await t.watcher.wait("alice active again") { $0.activeUser(seat: "seat0") == 1000 }
            #expect(t.sessions.isLocked(seat: "seat0"), "back on alice's session, which is still locked")
            try mock.send("activate seat0 3")
            try await t.watcher.wait("bob again") { $0.activeUser(seat: "seat0") == 1001 }
            try mock.send("remove 3")
            try await t.watcher.wait("bob's session gone") { $0.activeSession(seat: "seat0") == nil }
        }
    }

    @Test("without logind on the bus, or without a bus, every seat is unlocked, said once")
    func logindAbsent() async throws {
        // A bus, nobody owning org.freedesktop.login1.
        try await TrackedSeats.with([]) { mock, t in
            try await t.watcher.wait("logind absent") { $0.availability == .absent }
            #expect(!t.sessions.isLocked(seat: "seat0"))
            #expect(t.sessions.activeUser(seat: "seat0") == nil)
            #expect(t.messages(containing: "logind is not available").count == 1)
            // It appears later: followed from NameOwnerChanged, without polling.
            try mock.send("start")
            try mock.send("session 7 seat0 1000 alice")
            try mock.send("lock 7")
            try await t.watcher.wait("logind appeared, alice locked") { $0.availability == .available && $0.isLocked(seat: "seat0") }
        }

        // No bus at all.
        let none = await TrackedSeats(address: "unix:path=/nonexistent/gestured-test-bus")
        try await none.watcher.wait("no bus") { $0.availability == .absent }
        #expect(!none.sessions.isLocked(seat: "seat0"))
        #expect(none.messages(containing: "logind is not available").count == 1)
        await none.stop()
    }

    @Test("logind restarting: the last state holds while it is away, then its new state replaces it")
    func logindRestarting() async throws {
        try await TrackedSeats.with(LogindMock.aliceOnSeat0 + ["lock 2"]) { mock, t in
            try await t.watcher.wait("alice locked") { $0.isLocked(seat: "seat0") }
            try mock.send("stop")
            try await t.watcher.wait("logind gone") { $0.availability == .absent }
            #expect(t.sessions.isLocked(seat: "seat0"), "a restart is not an unlock")
            #expect(t.sessions.activeUser(seat: "seat0") == 1000)
            #expect(t.messages(containing: "logind is not available").isEmpty, "logind left; it was not absent from the start")
            // The new logind knows a different, unlocked session.
            try mock.send("start")
            try mock.send("session 4 seat0 1001 bob")
            try await t.watcher.wait("bob's unlocked session from the new logind") {
                $0.availability == .available && $0.activeUser(seat: "seat0") == 1001
            }
            #expect(!t.sessions.isLocked(seat: "seat0"))
            #expect(t.sessions.activeSession(seat: "seat0")?.sessionID == "4")
        }
    }

    @Test("the system bus restarting: the last state holds, then the tracker reconnects and reads logind again")
    func busRestarting() async throws {
        try await TrackedSeats.with(LogindMock.aliceOnSeat0 + ["lock 2"]) { mock, t in
            try await t.watcher.wait("alice locked") { $0.isLocked(seat: "seat0") }
            try mock.send("restart-bus")
            try await t.watcher.wait("bus lost") { $0.availability == .absent }
            #expect(t.sessions.isLocked(seat: "seat0"), "losing the bus is not an unlock")
            // The bus is back before logind is: still not an unlock.
            try await t.watcher.wait("reconnected, logind not there yet") { _ in
                t.messages(containing: "Reconnected to the system bus").count == 1
            }
            #expect(t.sessions.isLocked(seat: "seat0"))
            try mock.send("start")
            try mock.send("session 3 seat0 1001 bob")
            try await t.watcher.wait("reconnected, bob active") { $0.availability == .available && $0.activeUser(seat: "seat0") == 1001 }
            #expect(!t.sessions.isLocked(seat: "seat0"))
            #expect(t.messages(containing: "logind is not available").isEmpty, "it was not absent from the start")
        }
    }

    /// A pan's events on seat0, routed by the gate with the tracker's lock state.
    static func event(_ state: WireGestureState, id: String, name: String = "pan") -> GestureEventMessage {
        GestureEventMessage(
            name: name, kind: "pan", state: state, device: "replay:0", deviceName: "test", timeUS: 1, gestureID: id, fingers: 1,
            centroidMM: WireVector(x: 1, y: 1), centroidFraction: WireVector(x: 0.1, y: 0.1))
    }

    /// What each audience receives of `events`: (state, locked) per event.
    static func received(_ routed: [(GestureEventMessage, GestureAudience?)], root: Bool) -> [String] {
        routed.compactMap { g, audience in
            if let audience, (audience == .root) != root { return nil }
            return "\(g.gestureID) \(g.state.rawValue)\(g.locked == true ? " locked" : "")"
        }
    }

    @Test("lock and unlock while a gesture is in progress: the others see it cancelled, and never see one that began locked")
    func lockDuringGesture() async throws {
        try await TrackedSeats.with(LogindMock.aliceOnSeat0) { mock, t in
            try await t.watcher.wait("alice active") { $0.activeUser(seat: "seat0") == 1000 }
            var gate = LockGate()
            gate.gesturesWhenLocked = ["osk"]
            var routed: [(GestureEventMessage, GestureAudience?)] = []
            // As the input hub does: the seat's lock state once per batch, a decision per event.
            func play(_ events: [GestureEventMessage]) {
                let locked = t.sessions.isLocked(seat: "seat0")
                for var event in events {
                    event.locked = locked
                    switch gate.decide(name: event.name, state: event.state, attempt: .message(event.gestureID), locked: locked) {
                    case .everyone: routed.append((event, nil))
                    case .rootOnly: routed.append((event, .root))
                    case .cancelledForOthers:
                        routed.append((event, .root))
                        var cancelled = event
                        cancelled.state = .cancelled
                        routed.append((cancelled, .others))
                    }
                }
            }
            play([Self.event(.began, id: "a"), Self.event(.changed, id: "a"), Self.event(.began, id: "k", name: "osk")])
            try mock.send("lock 2")
            try await t.watcher.wait("locked mid-gesture") { $0.isLocked(seat: "seat0") }
            play([Self.event(.changed, id: "a"), Self.event(.changed, id: "a"), Self.event(.ended, id: "a")])
            play([Self.event(.changed, id: "k", name: "osk"), Self.event(.began, id: "b")])
            try mock.send("unlock 2")
            try await t.watcher.wait("unlocked mid-gesture") { !$0.isLocked(seat: "seat0") }
            play([Self.event(.changed, id: "b"), Self.event(.ended, id: "b"), Self.event(.ended, id: "k", name: "osk")])
            play([Self.event(.began, id: "c"), Self.event(.ended, id: "c")])

            #expect(
                Self.received(routed, root: false) == [
                    "a began", "a changed", "k began",
                    "a cancelled locked",  // cut by the lock: a shell snaps back, no action runs
                    "k changed locked",  // WhenLocked=yes: everyone, throughout
                    "k ended",
                    "c began", "c ended",  // b began locked: never seen, also not after the unlock
                ])
            #expect(
                Self.received(routed, root: true) == [
                    "a began", "a changed", "k began",
                    "a changed locked", "a changed locked", "a ended locked",
                    "k changed locked", "b began locked",
                    "b changed", "b ended", "k ended",
                    "c began", "c ended",
                ])
            #expect(gate.withheldCount == 0, "every gesture that ended is forgotten")
        }
    }
}

/// The daemon binary with the seat locked by the logind mock, over its real socket: a client
/// of another uid (`setpriv` to nobody, a real process) gets no gesture events but the
/// `WhenLocked=yes` gesture's; a root client gets every event, each marked `locked`; and
/// `gesturectl run` runs only the action marked `WhenLocked=yes`.
@Suite("Sessions over the socket", .serialized, .timeLimit(.minutes(2)))
struct LockedSocketTests {
    static let config = """
        [Daemon]
        SocketMode=0666

        [Gesture tap]
        Kind=tap

        [Gesture osk]
        Kind=edge_pan
        Edges=bottom
        WhenLocked=yes

        """

    static let actions = """
        [Action on-tap]
        Gesture=tap
        Command=true

        [Action keyboard]
        Gesture=osk
        State=began
        WhenLocked=yes
        Command=true

        """

    static func gestures(inJSONLines text: String) throws -> [GestureEventMessage] {
        try text.split(separator: "\n").compactMap { line in
            guard case .gesture(let g) = try MessageDecoder().decodeDaemonMessage(Array(line.utf8)) else { return nil }
            return g
        }
    }

    @Test("a locked seat: nobody gets only the WhenLocked gesture, root gets both marked locked, run runs only the marked action")
    func lockedSeat() async throws {
        let mock = try LogindMock(LogindMock.aliceOnSeat0 + ["lock 2"])
        defer { mock.close() }

        // nobody must reach the socket inside.
        let dir = try BinaryTests.temporaryDirectoryOpenToOtherUsers()
        defer { try? FileManager.default.removeItem(at: dir) }
        var synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        let events = synthesizer.events(
            for: synthesizer.tap(at: .fraction(x: 0.5, y: 0.4)).followed(by: synthesizer.edgeSwipe(from: .bottom, distance: 40), after: 1))
        try Self.config.write(to: dir.appendingPathComponent("gestured.conf"), atomically: true, encoding: .utf8)
        try Self.actions.write(to: dir.appendingPathComponent("actions.conf"), atomically: true, encoding: .utf8)
        let options = DaemonOptions.replaying(events, in: dir, bus: mock.address, waitClients: 3, pacing: .asFastAsPossible)
        let logs = RecordingSink()
        let daemon = Daemon(options: options, logger: Logger(label: "test", level: .debug, sink: logs))
        let watcher = SeatWatcher(daemon.state.seatSessions)
        let outcome = Holder<Outcome>()
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let code = await daemon.run { path in
            Task {
                // The daemon has read the mock's locked session before anyone subscribes.
                do {
                    try await watcher.wait("the daemon sees seat0 locked") { $0.isLocked(seat: "seat0") }
                } catch {
                    Issue.record(error)
                }
                DispatchQueue(label: "clients").async {
                    do {
                        let client = try IPCClient(path: path, clientName: "root")
                        var result = Outcome()
                        if case .status(let reply) = try client.request(.status) { result.status = reply }
                        if case .hello(let reply) = try client.request(.hello(HelloRequest(clientName: "root"))) { result.hello = reply }
                        _ = try client.request(.subscribe(SubscribeRequest()))
                        // gesturectl status, before the replay can start (it waits for 3 subscribers).
                        let bin = ActionsRunTests.binDirectory
                        let status = try Self.start(bin + "/gesturectl", ["--socket", path, "status"], output: dir.appendingPathComponent("status"))
                        status.waitUntilExit()
                        // nobody (uid 65534) in a real second process; root's gesturectl run, dry.
                        let nobody = try Self.start(
                            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", bin + "/gesturectl", "--socket", path, "listen", "--json"],
                            output: dir.appendingPathComponent("nobody"))
                        let run = try Self.start(
                            bin + "/gesturectl",
                            ["--socket", path, "run", "--actions", dir.appendingPathComponent("actions.conf").path, "--dry-run", "--exit-on-shutdown"],
                            output: dir.appendingPathComponent("run"))
                        while let message = try client.nextMessage(timeoutMilliseconds: 60_000) {
                            if case .gesture(let g) = message { result.gestures.append(g) }
                            if case .shutdown = message { break }
                        }
                        nobody.waitUntilExit()
                        run.waitUntilExit()
                        result.nobodyStatus = nobody.terminationStatus
                        outcome.set(result)
                    } catch {
                        Issue.record("client side failed: \(error)")
                        daemon.stop()
                    }
                    finish.yield()
                }
            }
        }
        for await _ in finished { break }
        #expect(code == .success)
        let root = try #require(outcome.get())
        let seat0 = try #require(root.status?.seats?.first { $0.seat == "seat0" }, "status lists seat0")
        #expect(seat0 == SeatStatus(seat: "seat0", session: "2", uid: 1000, user: "alice", locked: true))
        #expect(root.status?.logind == "available")
        #expect(root.hello?.seats?.first { $0.seat == "seat0" }?.locked == true, "hello reports the lock too")
        let log = logs.records.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(root.gestures.contains { $0.name == "tap" && $0.state == .recognized }, "root gets the tap: \(root.gestures.map(\.name)); log: \(log)")
        #expect(root.gestures.contains { $0.name == "osk" && $0.state == .ended })
        #expect(!root.gestures.isEmpty && root.gestures.allSatisfy { $0.locked == true }, "every event says the seat was locked")
        let nobody = try Self.gestures(inJSONLines: String(contentsOf: dir.appendingPathComponent("nobody.out"), encoding: .utf8))
        #expect(root.nobodyStatus == 0)
        #expect(
            logs.records.contains { $0.message == "Client connected" && $0.metadata.contains { $0.key == "client.uid" && $0.value == "65534" } },
            "the listener really is another uid (SO_PEERCRED)")
        #expect(nobody.map(\.name).allSatisfy { $0 == "osk" }, "nobody gets no gesture of a locked seat but the WhenLocked one: \(nobody.map(\.name))")
        #expect(nobody.first?.state == .began && nobody.last?.state == .ended, "and the whole of that one: \(nobody.map(\.state))")
        #expect(nobody.count == root.gestures.count { $0.name == "osk" })
        let statusText = try String(contentsOf: dir.appendingPathComponent("status.out"), encoding: .utf8)
        #expect(statusText.contains("logind: available") && statusText.contains("seat0: session 2 of alice (uid 1000), locked"), "\(statusText)")
        let wouldRun = try String(contentsOf: dir.appendingPathComponent("run.out"), encoding: .utf8)
        let runLog = try String(contentsOf: dir.appendingPathComponent("run.err"), encoding: .utf8)
        #expect(wouldRun.contains("would run action 'keyboard'"), "the WhenLocked action runs: \(wouldRun) \(runLog)")
        #expect(!wouldRun.contains("on-tap"), "the other action does not, while locked: \(wouldRun)")
        #expect(runLog.contains("not running action 'on-tap'") && runLog.contains("locked"), "and says why: \(runLog)")
    }

    /// A one-finger pan that moves, rests `rest` seconds without a move, and moves on.
    static func pausedPan(_ s: GestureSynthesizer, rest: Double) -> GestureScript {
        let a = PhysicalPoint(x: s.width * 0.3, y: s.height * 0.5)
        let b = PhysicalPoint(x: s.width * 0.45, y: s.height * 0.5)
        let c = PhysicalPoint(x: s.width * 0.6, y: s.height * 0.5)
        return GestureScript(strokes: [
            .init(keyframes: [.init(time: 0, position: a), .init(time: 0.3, position: b), .init(time: 0.3 + rest, position: b), .init(time: 0.6 + rest, position: c)])
        ])
    }

    @Test("the daemon with a seat locked, then unlocked, in the middle of gestures: whole gestures for nobody, the rest for root")
    func lockDuringGestureThroughTheDaemon() async throws {
        let mock = try LogindMock(LogindMock.aliceOnSeat0)
        defer { mock.close() }
        let dir = try BinaryTests.temporaryDirectoryOpenToOtherUsers()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "[Daemon]\nSocketMode=0666\n\n[Gesture pan]\nKind=pan\n".write(
            to: dir.appendingPathComponent("gestured.conf"), atomically: true, encoding: .utf8)
        // Each pan rests 4 s mid-way: the lock (then the unlock) is made and seen by the
        // daemon during the rest, which the test waits for; the replay runs in real time.
        let rest = 4.0
        var synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        let events = synthesizer.events(for: Self.pausedPan(synthesizer, rest: rest).followed(by: Self.pausedPan(synthesizer, rest: rest), after: 0.5))
        let options = DaemonOptions.replaying(events, in: dir, bus: mock.address, waitClients: 2, pacing: .realtime(speed: 1))
        let daemon = Daemon(options: options, logger: Logger(label: "test", level: .warning, sink: RecordingSink()))
        let watcher = SeatWatcher(daemon.state.seatSessions)
        let rootGestures = Holder<[GestureEventMessage]>()
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let code = await daemon.run { path in
            Task {
                do {
                    try await watcher.wait("alice active") { $0.activeUser(seat: "seat0") == 1000 }
                    let (began, beganNext) = AsyncStream.makeStream(of: Int.self)
                    DispatchQueue(label: "root").async {
                        var gestures: [GestureEventMessage] = []
                        do {
                            let client = try IPCClient(path: path, clientName: "root")
                            _ = try client.request(.subscribe(SubscribeRequest()))
                            let nobody = try Self.start(
                                "/usr/bin/setpriv",
                                ["--reuid=65534", "--regid=65534", "--clear-groups", ActionsRunTests.binDirectory + "/gesturectl", "--socket", path, "listen", "--json"],
                                output: dir.appendingPathComponent("nobody"))
                            var begans = 0
                            while let message = try client.nextMessage(timeoutMilliseconds: 60_000) {
                                if case .gesture(let g) = message {
                                    gestures.append(g)
                                    if g.state == .began {
                                        begans += 1
                                        beganNext.yield(begans)
                                    }
                                }
                                if case .shutdown = message { break }
                            }
                            nobody.waitUntilExit()
                        } catch {
                            Issue.record("root client failed: \(error)")
                        }
                        rootGestures.set(gestures)
                        beganNext.finish()
                    }
                    for await count in began {
                        // The first pan is resting: lock. The second is resting: unlock.
                        try mock.send(count == 1 ? "lock 2" : "unlock 2")
                        try await watcher.wait(count == 1 ? "locked" : "unlocked") { $0.isLocked(seat: "seat0") == (count == 1) }
                    }
                } catch {
                    Issue.record(error)
                    daemon.stop()
                }
                finish.yield()
            }
        }
        for await _ in finished { break }
        #expect(code == .success)
        let root = rootGestures.get() ?? []
        let nobody = try Self.gestures(inJSONLines: String(contentsOf: dir.appendingPathComponent("nobody.out"), encoding: .utf8))
        let ids = Array(Set(root.map(\.gestureID))).sorted()
        try #require(ids.count == 2, "two pans: \(root.map { "\($0.gestureID) \($0.state)" })")
        let (first, second) = (root.filter { $0.gestureID == ids[0] }, root.filter { $0.gestureID == ids[1] })
        // Root: both pans whole; the first locked from its resumption, the second unlocked then.
        #expect(first.first?.state == .began && first.first?.locked == false && first.last?.state == .ended && first.last?.locked == true,
            "the first pan resumed after the lock was seen: \(first.map { "\($0.state) \($0.locked ?? false)" })")
        #expect(second.first?.state == .began && second.first?.locked == true && second.last?.state == .ended && second.last?.locked == false,
            "the second pan resumed after the unlock was seen: \(second.map { "\($0.state) \($0.locked ?? false)" })")
        // nobody: the first pan up to the lock, then its cancel; nothing of the second.
        let seen = nobody.map { "\($0.gestureID == ids[0] ? "first" : "second") \($0.state.rawValue)" }
        #expect(nobody.allSatisfy { $0.gestureID == ids[0] }, "nothing of the pan that began locked: \(seen)")
        #expect(nobody.first?.state == .began && nobody.last?.state == .cancelled && nobody.last?.locked == true, "\(seen)")
        #expect(nobody.dropLast().allSatisfy { $0.locked == false && $0.state != .cancelled }, "\(seen)")
        #expect(nobody.count == first.count { $0.locked == false } + 1, "every unlocked event of the first pan, then the cancel")
    }

    struct Outcome: Sendable {
        var status: StatusReply?
        var hello: HelloReply?
        var gestures: [GestureEventMessage] = []
        var nobodyStatus: Int32 = -1
    }

    /// Starts a process with its standard output and error in `output`.out and .err.
    static func start(_ executable: String, _ arguments: [String], output: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        for (suffix, assign) in [("out", { (h: FileHandle) in process.standardOutput = h }), ("err", { process.standardError = $0 })] {
            let path = output.path + "." + suffix
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            assign(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
        }
        try process.run()
        return process
    }
}
