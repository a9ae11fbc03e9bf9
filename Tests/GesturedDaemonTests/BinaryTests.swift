import Foundation
import GestureEngine
import GesturedClient
import GesturedProtocol
import Testing

/// The built `gestured` binary driven as a user drives it: command line, exit status,
/// standard output and error, signals. The binaries come from the same `swift build` as the
/// tests (`.build/debug`).
@Suite("gestured binary", .timeLimit(.minutes(2)))
struct BinaryTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var binary: String {
        let env = ProcessInfo.processInfo.environment["GESTURED_BIN_DIR"]
        return (env ?? packageRoot.appendingPathComponent(".build/debug").path) + "/gestured"
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryDirectory() -> URL {
        let url = URL(fileURLWithPath: "/tmp").appendingPathComponent("gdb-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func synthesize(_ build: (GestureSynthesizer) -> GestureScript, to url: URL) throws {
        var synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        let events = synthesizer.events(for: build(synthesizer))
        try EvemuWriter.recording(device: GestureSynthesizer.demoTouchscreen, events: events).write(to: url, atomically: true, encoding: .utf8)
    }

    @Test("--check-config prints every problem as file:line:column and exits 78")
    func checkConfigReportsProblems() throws {
        let dir = Self.temporaryDirectory()
        let file = dir.appendingPathComponent("bad.conf")
        try "[Gesture tap]\nKind=tap\nTaps=two\nMaximumTapDuraton=700ms\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.run(["--check-config", file.path])
        #expect(result.status == 78)
        #expect(result.stderr.contains("\(file.path):3:"), "names the line of the bad value: \(result.stderr)")
        #expect(result.stderr.contains("\(file.path):4:"), "names the line of the unknown key: \(result.stderr)")
        #expect(result.stderr.contains("MaximumTapDuration"), "suggests the key it meant: \(result.stderr)")
    }

    @Test("--check-config prints the touch filter's thresholds and the touchpad policy as they run")
    func checkConfigPrintsFilterAndPolicy() throws {
        let dir = Self.temporaryDirectory()
        let file = dir.appendingPathComponent("filter.conf")
        try "[TouchFilter]\nLiftDelay=60ms\n[Gesture pinch]\nKind=pinch\n[Gesture tap]\nKind=tap\n[Gesture hold]\nKind=long_press\nFingers=3\n".write(
            to: file, atomically: true, encoding: .utf8)
        let result = try Self.run(["--check-config", file.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\nLiftDelay=60ms\n"), "the configured value: \(result.stdout)")
        #expect(result.stdout.contains("\nPalmPressure=130\n"), "a default: \(result.stdout)")
        #expect(result.stdout.contains("[Gesture pinch] Hysteresis=4mm (begins only when the fingers move apart or together)"))
        #expect(result.stdout.contains("[Gesture tap] MaximumTapDuration=250ms"))
        #expect(result.stdout.contains("[Gesture hold] (cancelled when its fingers go on to scroll, swipe or pinch)"), "\(result.stdout)")
        #expect(result.stdout.contains("[Cypress APA Trackpad (cyapa)]"), "the built-in quirks: \(result.stdout)")
    }

    @Test("the daemon refuses to start on a broken configuration with exit status 78")
    func daemonRefusesBrokenConfig() throws {
        let dir = Self.temporaryDirectory()
        let file = dir.appendingPathComponent("bad.conf")
        try "[Gesture a]\nKind=tap\nRequireFailureOf=b\n\n[Gesture b]\nKind=tap\nRequireFailureOf=a\n".write(to: file, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("s.sock").path
        let result = try Self.run(["--config", file.path, "--socket", socket, "--no-udev"])
        #expect(result.status == 78)
        #expect(result.stderr.contains(file.path))
        #expect(!FileManager.default.fileExists(atPath: socket), "nothing was bound")
    }

    @Test("--replay --json prints the recording's gestures as socket-schema JSON lines")
    func replayPrintsJSON() throws {
        let dir = Self.temporaryDirectory()
        let recording = dir.appendingPathComponent("two.evemu")
        try Self.synthesize({ s in
            s.doubleTap(at: .fraction(x: 0.5, y: 0.5)).followed(by: s.swipe(fingers: 4, direction: .up, distance: 60), after: 1)
        }, to: recording)
        let result = try Self.run(["--replay", recording.path, "--json"])
        #expect(result.status == 0)
        let decoder = MessageDecoder()
        var gestures: [GestureEventMessage] = []
        for line in result.stdout.split(separator: "\n") {
            let message = try decoder.decodeDaemonMessage(Array(line.utf8))
            if case .gesture(let g) = message { gestures.append(g) }
        }
        #expect(gestures.contains { $0.name == "double-tap" && $0.taps == 2 && $0.state == .recognized })
        #expect(!gestures.contains { $0.name == "tap" }, "the single tap waits for the double tap to fail, which it does not")
        #expect(gestures.contains { $0.kind == "swipe" && $0.fingers == 4 && $0.direction == "up" })
        #expect(gestures.allSatisfy { $0.device == recording.path && $0.timeUS > 0 })
    }

    @Test("a [Device] Calibration= in the configuration file turns an upside-down panel's swipes")
    func calibrationFromConfigFile() throws {
        let dir = Self.temporaryDirectory()
        let recording = dir.appendingPathComponent("swipe.evemu")
        try Self.synthesize({ s in s.swipe(fingers: 4, direction: .up, distance: 60) }, to: recording)
        let config = dir.appendingPathComponent("gestured.conf")
        func swipeDirections(_ calibration: String) throws -> [String] {
            try "[Gesture four]\nKind=swipe\nFingers=4\nDirections=up,down\n\n[Device panel]\n\(calibration)\n"
                .write(to: config, atomically: true, encoding: .utf8)
            let result = try Self.run(["--replay", recording.path, "--json", "--config", config.path])
            #expect(result.status == 0, "\(result.stderr)")
            return try result.stdout.split(separator: "\n").compactMap { line in
                guard case .gesture(let g) = try MessageDecoder().decodeDaemonMessage(Array(line.utf8)) else { return nil }
                return g.direction
            }
        }
        #expect(try swipeDirections("") == ["up"])
        #expect(try swipeDirections("Calibration=1 0 0 0 -1 1") == ["down"], "Y inverted")
    }

    @Test("a malformed recording is reported with file:line and what was expected")
    func malformedRecording() throws {
        let dir = Self.temporaryDirectory()
        let file = dir.appendingPathComponent("bad.evemu")
        try "E: 0.000000 0003 0039 1\nE: 0.000000 0003\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.run(["--replay", file.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(file.path):2:"), "\(result.stderr)")
        #expect(result.stderr.contains("expected"))
    }

    @Test("--dry-run on a missing node tells the user what to do")
    func dryRunMissingNode() throws {
        let result = try Self.run(["--dry-run", "/dev/input/event999"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/dev/input/event999"))
        #expect(result.stderr.contains("gesturectl list-devices"))
    }

    /// Starts the daemon binary on a replayed device and a private socket.
    static func startDaemon(config: URL, socket: String, replay: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--config", config.path, "--socket", socket, "--no-udev", "--replay-device", replay.path, "--replay-wait-clients", "1",
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Connects once the daemon has bound its socket (bounded wait on a condition).
    static func connect(_ socket: String, process: Process) throws -> IPCClient {
        try connect(socket, isRunning: { process.isRunning })
    }

    static func connect(_ socket: String, isRunning: () -> Bool) throws -> IPCClient {
        var lastError: (any Error)?
        for _ in 0..<2000 {
            do {
                return try IPCClient(path: socket, clientName: "test")
            } catch {
                lastError = error
            }
            guard isRunning() else { break }
            usleep(5000)
        }
        throw lastError ?? CocoaError(.fileNoSuchFile)
    }

    @Test("SIGTERM mid-gesture: clients get cancelled, then shutdown; the socket is removed; exit 0")
    func sigtermCancelsInFlightGestures() throws {
        let dir = Self.temporaryDirectory()
        let recording = dir.appendingPathComponent("hold.evemu")
        // A pan that goes on for a minute: it is certainly in flight when SIGTERM arrives.
        try Self.synthesize({ s in s.drag(fingers: 1, from: .fraction(x: 0.1, y: 0.5), to: .fraction(x: 0.9, y: 0.5), duration: 60) }, to: recording)
        let config = dir.appendingPathComponent("gestured.conf")
        try "[Gesture pan]\nKind=pan\n".write(to: config, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("s.sock").path
        let daemon = try Self.startDaemon(config: config, socket: socket, replay: recording)
        let client = try Self.connect(socket, process: daemon)
        _ = try client.request(.subscribe(SubscribeRequest(kinds: ["pan"])))
        var began: GestureEventMessage?
        while began == nil, let message = try client.nextMessage(timeoutMilliseconds: 30_000) {
            if case .gesture(let g) = message, g.state == .began { began = g }
        }
        let gesture = try #require(began)
        kill(daemon.processIdentifier, SIGTERM)
        var cancelled = false
        var shutdown = false
        while let message = try client.nextMessage(timeoutMilliseconds: 30_000) {
            if case .gesture(let g) = message, g.gestureID == gesture.gestureID, g.state == .cancelled { cancelled = true }
            if case .shutdown(let s) = message {
                shutdown = true
                #expect(s.reason == "SIGTERM")
            }
        }
        daemon.waitUntilExit()
        #expect(cancelled, "the pan in flight was sent as cancelled")
        #expect(shutdown)
        #expect(daemon.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test("SIGHUP reloads the configuration; a broken one is reported and the old one stays")
    func sighupReload() throws {
        let dir = Self.temporaryDirectory()
        let recording = dir.appendingPathComponent("hold.evemu")
        try Self.synthesize({ s in s.longPress(duration: 60) }, to: recording)
        let config = dir.appendingPathComponent("gestured.conf")
        try "[Gesture pan]\nKind=pan\n".write(to: config, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("s.sock").path
        let daemon = try Self.startDaemon(config: config, socket: socket, replay: recording)
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        let client = try Self.connect(socket, process: daemon)
        func gestureCount() throws -> Int? {
            if case .status(let s) = try client.request(.status) { return s.gestures }
            return nil
        }
        #expect(try gestureCount() == 1)

        try "[Gesture pan]\nKind=pan\n\n[Gesture tap]\nKind=tap\n".write(to: config, atomically: true, encoding: .utf8)
        kill(daemon.processIdentifier, SIGHUP)
        // The reload happens on the daemon's own schedule: ask until it shows (bounded).
        var count = try gestureCount()
        for _ in 0..<500 where count != 2 {
            usleep(10_000)
            count = try gestureCount()
        }
        #expect(count == 2)

        try "[Gesture pan]\nKind=pan\nHysteresis=banana\n".write(to: config, atomically: true, encoding: .utf8)
        let reply = try client.request(.reload)
        guard case .error(let e) = reply else {
            Issue.record("a broken configuration must be refused, got \(reply)")
            return
        }
        #expect(e.message.contains("\(config.path):3:"), "\(e.message)")
        #expect(try gestureCount() == 2, "the old configuration stays in force")
        #expect(daemon.isRunning)
    }
}
