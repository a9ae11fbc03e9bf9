import Foundation
import GestureEngine
import GesturedClient
import GesturedLogging
import GesturedSystem
import Testing

@testable import GesturedDaemon

// The set-ups the socket and session tests share: an IPC server alone on its loop, a logind
// mock with its first commands sent, and a tracker following it. Each has a scoped form that
// tears down also when the test body throws.

/// An IPC server alone on its event loop, over a real Unix socket in a temporary directory
/// (the IPC server and input injection tests).
struct TestIPCServer {
    let dir: String
    let socket: String
    let loop: EventLoop
    let state: DaemonState
    let server: IPCServer

    /// - Parameters:
    ///   - openToOtherUsers: the directory 0755 and the socket 0666, for clients run as
    ///     another uid (the socket is 0660 in a 0700 directory otherwise).
    ///   - sessions, inputSink, inputScheduler: as ``IPCServer``'s (its defaults when nil).
    init(
        prefix: String = "/tmp/gipc-",
        settings: IPCSettings = IPCSettings(),
        openToOtherUsers: Bool = false,
        sessions: (any SeatSessionLookup)? = nil,
        inputSink: (any VirtualInputSink)? = nil,
        inputScheduler: InputScheduler? = nil
    ) async throws {
        dir = try #require(Files.makeTemporaryDirectory(prefix: prefix))
        socket = dir + "/s.sock"
        if openToOtherUsers { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir) }
        loop = EventLoop(name: "test-ipc")
        state = DaemonState(startedAtMicroseconds: 0, loop: loop)
        server = IPCServer(
            loop: loop,
            listener: try UnixListener.bind(path: socket, mode: openToOtherUsers ? 0o666 : 0o660),
            settings: settings,
            state: state,
            logger: Logger(label: "test", level: .warning, sink: RecordingSink()),
            reloadHandler: { nil },
            sessions: sessions,
            inputSink: inputSink,
            inputScheduler: inputScheduler
        )
        await server.start()
    }

    /// A client of this server (which says hello).
    func connect(_ clientName: String) throws -> IPCClient { try IPCClient(path: socket, clientName: clientName) }

    /// Shuts the server down at once, stops its loop and removes the directory.
    func stop() async {
        await server.shutdown(reason: "test over", deadlineSeconds: 0)
        loop.stop()
        Files.removeDirectory(dir)
    }

    /// Runs `body` with a started server; stops it after, also when `body` throws.
    static func with(settings: IPCSettings = IPCSettings(), _ body: (TestIPCServer) async throws -> Void) async throws {
        let fixture = try await TestIPCServer(settings: settings)
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }
}

extension LogindMock {
    /// A mock with `commands` sent, in order (`start`, `session 2 seat0 1000 alice`, …).
    convenience init(_ commands: [String]) throws {
        try self.init()
        do {
            for command in commands { try send(command) }
        } catch {
            close()
            throw error
        }
    }

    /// logind started, with alice's session 2 active on seat0.
    static let aliceOnSeat0 = ["start", "session 2 seat0 1000 alice"]
}

extension DaemonOptions {
    /// The daemon of the locked-seat tests: `dir`'s gestured.conf, a socket in `dir`, no
    /// udev, logind on `bus`, and one replay of `events` on the demo touchscreen that waits for
    /// `waitClients` subscribers; the daemon exits after it.
    static func replaying(
        _ events: [RawEvent], in dir: URL, bus: String, waitClients: Int, pacing: ReplayPacing
    ) -> DaemonOptions {
        var options = DaemonOptions()
        options.configPath = dir.appendingPathComponent("gestured.conf").path
        options.socketPath = dir.appendingPathComponent("s.sock").path
        options.socketGroup = ""
        options.useUdev = false
        options.exitAfterReplays = true
        options.replayWaitClients = waitClients
        options.environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus]
        options.replays = [
            ReplayRequest(
                node: "replay:0", recording: LoadedRecording(device: GestureSynthesizer.demoTouchscreen, events: events, warnings: []),
                pacing: pacing)
        ]
        return options
    }
}

extension BinaryTests {
    /// A new temporary directory that other users may enter (0755), for a socket that a
    /// client run as another uid connects to.
    static func temporaryDirectoryOpenToOtherUsers() throws -> URL {
        let dir = temporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        return dir
    }
}

/// A ``LogindTracker`` on its own loop, following a bus (the session tests).
final class TrackedSeats {
    let loop = EventLoop(name: "test-logind")
    let sessions = SeatSessions()
    let logs = RecordingSink()
    let tracker: LogindTracker
    let watcher: SeatWatcher

    init(address: String) async {
        watcher = SeatWatcher(sessions)
        tracker = LogindTracker(loop: loop, sessions: sessions, logger: Logger(label: "test", level: .debug, sink: logs), address: address)
        await tracker.start()
    }

    func stop() async {
        await tracker.stop()
        loop.stop()
    }

    func messages(containing text: String) -> [String] {
        logs.records.map(\.message).filter { $0.contains(text) }
    }

    /// Runs `body` with a logind mock that has had `commands` and a tracker following its
    /// bus; stops both after, also when `body` throws.
    static func with(_ commands: [String], _ body: (LogindMock, TrackedSeats) async throws -> Void) async throws {
        let mock = try LogindMock(commands)
        defer { mock.close() }
        let tracked = await TrackedSeats(address: mock.address)
        do {
            try await body(mock, tracked)
        } catch {
            await tracked.stop()
            throw error
        }
        await tracked.stop()
    }
}
