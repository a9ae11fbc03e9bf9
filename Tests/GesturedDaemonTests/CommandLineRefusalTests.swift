import Foundation
import GestureEngine
import GesturedCLISupport
import GesturedClient
import GesturedProtocol
import Synchronization
import Testing

/// Issue 34: both command lines refuse nonsense with exit status 64 and a message naming the
/// accepted values, instead of listening forever or ignoring it; and they answer --help per
/// verb, --version, -h and -V. Driven as a user drives them: the built binaries.
@Suite("Command lines refuse nonsense", .timeLimit(.minutes(2)))
struct CommandLineRefusalTests {
    static func run(_ program: String, _ arguments: [String]) throws -> BinaryTests.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: (BinaryTests.binary as NSString).deletingLastPathComponent + "/" + program)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // No daemon on this socket: a refusal must come before any connection attempt.
        process.environment = ["GESTURED_SOCKET": "/nonexistent/gestured.sock"]
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BinaryTests.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("listen --count takes a whole number of 1 or more", arguments: ["abc", "0", "-1", "1.5", ""])
    func countIsRefused(_ value: String) throws {
        let result = try Self.run("gesturectl", ["listen", "--count", value])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--count expects a whole number of gesture events, 1 or more; got '\(value)'"), "\(result.stderr)")
    }

    @Test("listen --kind names an existing kind, with the nearest one suggested")
    func kindIsRefused() throws {
        let result = try Self.run("gesturectl", ["listen", "--kind", "swipe,swpie"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown kind 'swpie' for --kind (did you mean 'swipe'?)"), "\(result.stderr)")
        #expect(result.stderr.contains("tap, long_press, pan, swipe, pinch, rotation, edge_pan, tickle"), "\(result.stderr)")
    }

    @Test("gestured --speed is a positive number, and only where something is paced")
    func speedIsRefused() throws {
        let dir = BinaryTests.temporaryDirectory()
        let recording = dir.appendingPathComponent("tap.evemu")
        try BinaryTests.synthesize({ $0.tap() }, to: recording)
        let fast = try Self.run("gestured", ["--replay", recording.path, "--realtime", "--speed", "fast"])
        #expect(fast.status == 64)
        #expect(fast.stderr.contains("--speed expects a positive number"), "\(fast.stderr)")
        #expect(fast.stderr.contains("got 'fast'"))
        let unpaced = try Self.run("gestured", ["--replay", recording.path, "--speed", "4"])
        #expect(unpaced.status == 64)
        #expect(unpaced.stderr.contains("add --realtime"), "\(unpaced.stderr)")
        let paced = try Self.run("gestured", ["--replay", recording.path, "--realtime", "--speed", "4"])
        #expect(paced.status == 0, "\(paced.stderr)")
        #expect(paced.stdout.contains("tap"))
    }

    @Test("synthesize refuses a key its gesture does not take, suggesting the nearest")
    func synthesizeKeyIsRefused() throws {
        let dir = BinaryTests.temporaryDirectory()
        let script = dir.appendingPathComponent("s.txt")
        try "tap\nswipe fingers=3 direction=left distanse=60\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try Self.run("gesturectl", ["synthesize", script.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("s.txt:2: swipe takes no key 'distanse' (did you mean 'distance'?)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("VERB --help prints that verb's help; --version, -h and -V on both binaries")
    func helpAndVersion() throws {
        let listen = try Self.run("gesturectl", ["listen", "--help"])
        #expect(listen.status == 0)
        #expect(listen.stdout.contains("--count N"))
        #expect(!listen.stdout.contains("synthesize"), "only listen's help: \(listen.stdout)")
        let sendKeys = try Self.run("gesturectl", ["send-keys", "--help"])
        #expect(sendKeys.stdout.hasPrefix("Usage: gesturectl [--socket PATH] send-keys COMBO"), "\(sendKeys.stdout)")
        #expect(try Self.run("gesturectl", ["debug-events", "-h"]).stdout.contains("listen"))
        for program in ["gestured", "gesturectl"] {
            for flag in ["--version", "-V"] {
                let version = try Self.run(program, [flag])
                #expect(version.status == 0, "\(program) \(flag): \(version.stderr)")
                #expect(version.stdout == "\(program) 0.1.0 (protocol 1.1)\n")
            }
            let help = try Self.run(program, ["-h"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Usage:"))
        }
    }

    @Test("a missing or unreadable file exits 66 from both binaries, without a device hint")
    func missingFiles() throws {
        for (program, arguments) in [
            ("gestured", ["--check-config", "/nonexistent.conf"]), ("gesturectl", ["check-config", "/nonexistent.conf"]),
            ("gestured", ["--replay", "/nonexistent.evemu"]),
        ] {
            let result = try Self.run(program, arguments)
            #expect(result.status == 66, "\(program) \(arguments): \(result.stderr)")
            #expect(result.stderr.contains("No such file or directory"), "\(result.stderr)")
            #expect(!result.stderr.contains("device"), "no device hint for a file: \(result.stderr)")
        }
        // A bad configuration is 78 from both, the same file.
        let dir = BinaryTests.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.conf")
        try "[Gesture t]\nKind=tapp\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect(try Self.run("gestured", ["--check-config", bad.path]).status == 78)
        #expect(try Self.run("gesturectl", ["check-config", bad.path]).status == 78)
        // A file with only [Daemon] is valid, but recognizes nothing: both say so.
        let empty = dir.appendingPathComponent("daemon-only.conf")
        try "[Daemon]\nMaxClients=8\n".write(to: empty, atomically: true, encoding: .utf8)
        for (program, arguments) in [("gestured", ["--check-config", empty.path]), ("gesturectl", ["check-config", empty.path])] {
            let result = try Self.run(program, arguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("\(program): warning: \(empty.path): no gestures are configured"), "\(program): \(result.stderr)")
        }
    }

    @Test("the daemon answers a subscribe naming an unknown kind or an unconfigured gesture with an error")
    func daemonRefusesUnknownFilters() async throws {
        let replies = Mutex<[DaemonMessage]>([])
        let code = await DaemonSocketTests.withDaemon(
            replays: [DaemonSocketTests.tapThenSwipe], config: "[Gesture pinch]\nKind=pinch\n", waitClients: 1
        ) { path in
            let client = try IPCClient(path: path, clientName: "refusals")
            let kind = try client.request(.subscribe(SubscribeRequest(kinds: ["swpie"])))
            let gesture = try client.request(.subscribe(SubscribeRequest(gestures: ["pinchh"])))
            let fine = try client.request(.subscribe(SubscribeRequest(gestures: ["pinch"], kinds: ["pinch"])))
            replies.withLock { $0 = [kind, gesture, fine] }
            _ = DaemonSocketTests.readGestures(client)
        }
        #expect(code == .success)
        let got = replies.withLock { $0 }
        try #require(got.count == 3)
        guard case .error(let kind) = got[0], case .error(let gesture) = got[1] else {
            Issue.record("expected two errors: \(got)")
            return
        }
        #expect(kind.code == .badRequest)
        #expect(kind.message.contains("kinds[0]: unknown kind 'swpie' (did you mean 'swipe'?)"), "\(kind.message)")
        #expect(gesture.code == .badRequest)
        #expect(gesture.message.contains("gestures[0]: no gesture named 'pinchh' is configured (did you mean 'pinch'?) (configured: pinch)"), "\(gesture.message)")
        if case .ok = got[2] {} else { Issue.record("a subscribe naming what exists is ok: \(got[2])") }
    }
}
