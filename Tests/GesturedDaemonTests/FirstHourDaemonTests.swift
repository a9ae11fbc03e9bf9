import Foundation
import GestureEngine
import GesturedClient
import GesturedConfig
import GesturedProtocol
import Testing

@testable import GesturedDaemon

/// Issue 34, the daemon as a new user meets it: `gesturectl gestures` against a daemon on
/// built-in defaults, a relative `--config`, and what the log says (levels, reloads). Driven
/// as a user drives them: the built binaries on a private socket, stderr read as the journal
/// would get it.
@Suite("The daemon's first hour", .timeLimit(.minutes(2)))
struct FirstHourDaemonTests {
    /// A daemon binary with no devices on `socket`; stderr goes to `log`.
    static func startDaemon(_ arguments: [String], socket: String, in directory: URL, log: URL, level: String = "notice") throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BinaryTests.binary)
        process.arguments = arguments + ["--socket", socket, "--no-udev"]
        process.currentDirectoryURL = directory
        // Off the machine's system bus, at a known log level.
        process.environment = ["GESTURED_LOG_LEVEL": level, "PATH": "/usr/bin:/bin"]
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        return process
    }

    static func stop(_ daemon: Process) {
        daemon.terminate()
        daemon.waitUntilExit()
    }

    /// The log's lines, once the daemon has stopped (stderr is complete).
    static func lines(_ log: URL) throws -> [String] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("gesturectl gestures lists the default gestures of a daemon on built-in defaults")
    func gesturesOfBuiltInDefaults() throws {
        // The test machine has no /etc/gestured nor /usr/share/gestured (as DaemonSocketTests'
        // status check assumes): the daemon runs on the copy built into it.
        try #require(!FileManager.default.fileExists(atPath: ConfigPaths.main) && !FileManager.default.fileExists(atPath: ConfigPaths.vendor))
        let dir = BinaryTests.temporaryDirectory()
        let socket = dir.appendingPathComponent("s.sock").path
        let daemon = try Self.startDaemon([], socket: socket, in: dir, log: dir.appendingPathComponent("log"))
        defer { Self.stop(daemon) }
        let client = try BinaryTests.connect(socket, process: daemon)
        defer { client.close() }
        guard case .status(let status) = try client.request(.status) else {
            Issue.record("no status")
            return
        }
        #expect(status.configPath == nil, "on built-in defaults")

        let result = try CommandLineRefusalTests.run("gesturectl", ["--socket", socket, "gestures"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = Configuration.parse(EmbeddedResources.defaultConfiguration, fileName: "gestured.conf").configuration.gestures
            .filter(\.isEnabled).map(\.name)
        #expect(!expected.isEmpty)
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected, "\(result.stdout)")
        #expect(expected.count <= status.gestures, "the daemon's own count: \(status.gestures)")
    }

    @Test("a relative --config is reported, reloaded and logged as an absolute path")
    func relativeConfigIsMadeAbsolute() throws {
        let dir = BinaryTests.temporaryDirectory()
        let config = dir.appendingPathComponent("gestured.conf")
        try "[Gesture pan]\nKind=pan\n".write(to: config, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("s.sock").path
        let log = dir.appendingPathComponent("log")
        let daemon = try Self.startDaemon(["--config", "./gestured.conf"], socket: socket, in: dir, log: log)
        let client = try BinaryTests.connect(socket, process: daemon)
        guard case .status(let status) = try client.request(.status) else {
            Issue.record("no status")
            return
        }
        #expect(status.configPath == config.path)
        // `gesturectl status` from another directory names a file that opens.
        let shown = try CommandLineRefusalTests.run("gesturectl", ["--socket", socket, "status"])
        #expect(shown.stdout.contains(config.path), "\(shown.stdout)")

        try "[Gesture pan]\nKind=pan\nHysteresis=banana\n".write(to: config, atomically: true, encoding: .utf8)
        guard case .error(let e) = try client.request(.reload) else {
            Issue.record("a broken configuration must be refused")
            return
        }
        #expect(e.message.contains("\(config.path):3:"), "\(e.message)")
        client.close()
        Self.stop(daemon)
        let lines = try Self.lines(log)
        #expect(lines.contains { $0.contains("Started") && $0.contains(config.path) }, "\(lines)")
    }

    @Test("a problem the daemon starts in spite of is logged as a warning, not an error")
    func startupWarnings() throws {
        let dir = BinaryTests.temporaryDirectory()
        let socket = dir.appendingPathComponent("s.sock").path
        let config = dir.appendingPathComponent("gestured.conf")
        try "[Daemon]\nSocketPath=\(socket)\n\n[Gesture pan]\nKind=pan\n".write(to: config, atomically: true, encoding: .utf8)
        // systemd's socket activation gone wrong: LISTEN_FDS names descriptor 3, which is not
        // open. The daemon binds the configured path instead, and says so.
        let log = dir.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec 3<&-; LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" \"$@\"", BinaryTests.binary, "--config", config.path, "--no-udev"]
        process.environment = ["GESTURED_LOG_LEVEL": "notice", "PATH": "/usr/bin:/bin"]
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let client = try BinaryTests.connect(socket, process: process)
        // It serves on the path it bound.
        if case .ok = try client.request(.ping) {} else { Issue.record("no answer to ping") }
        client.close()
        Self.stop(process)
        let lines = try Self.lines(log)
        let ignored = lines.filter { $0.contains("Ignoring the descriptor passed by systemd") }
        #expect(ignored.count == 1 && ignored[0].hasPrefix("gestured: warning: "), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("gestured: error: ") }, "\(lines)")
    }

    @Test("log levels: clients at debug, a failed reload over the socket logged one diagnostic a line")
    func logLevels() throws {
        let dir = BinaryTests.temporaryDirectory()
        let config = dir.appendingPathComponent("gestured.conf")
        try "[Gesture pan]\nKind=pan\n".write(to: config, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("s.sock").path
        for level in ["notice", "debug"] {
            let log = dir.appendingPathComponent("log-\(level)")
            try "[Gesture pan]\nKind=pan\n".write(to: config, atomically: true, encoding: .utf8)
            let daemon = try Self.startDaemon(["--config", config.path], socket: socket, in: dir, log: log, level: level)
            let client = try BinaryTests.connect(socket, process: daemon)
            // Errors on two lines: several diagnostics.
            try "[Gesture pan]\nKind=pan\nHysteresis=banana\nFingers=many\n".write(to: config, atomically: true, encoding: .utf8)
            guard case .error(let refused) = try client.request(.reload) else {
                Issue.record("a broken configuration must be refused")
                return
            }
            // A completion's call: connect, ask, go.
            #expect(try CommandLineRefusalTests.run("gesturectl", ["--socket", socket, "status"]).status == 0)
            client.close()
            Self.stop(daemon)
            let lines = try Self.lines(log)
            let connected = lines.filter { $0.contains("Client connected") || $0.contains("Client disconnected") }
            if level == "notice" {
                #expect(connected.isEmpty, "a client is not news at notice: \(connected)")
            } else {
                #expect(connected.count >= 4 && connected.allSatisfy { $0.hasPrefix("gestured: debug: ") }, "\(connected)")
            }
            let failed = lines.filter { $0.contains("Reload failed") }
            #expect(failed.count == 1 && failed[0].hasPrefix("gestured: error: ") && failed[0].contains("reload request"), "\(lines)")
            let diagnostics = lines.filter { $0.contains("Configuration error") }
            // The reply carries them on one line, joined by "; "; the log has a line each.
            let replied = refused.message.components(separatedBy: "; ")
            #expect(diagnostics.count >= 2 && diagnostics.count == replied.count, "one line each: \(diagnostics); reply: \(refused.message)")
            #expect(diagnostics.contains { $0.contains("\(config.path):3:") } && diagnostics.contains { $0.contains("\(config.path):4:") })
            #expect(diagnostics.allSatisfy { $0.hasPrefix("gestured: error: ") && $0.components(separatedBy: "\(config.path):").count == 2 })
        }
    }
}
