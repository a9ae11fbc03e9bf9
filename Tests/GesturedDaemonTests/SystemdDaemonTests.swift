import Foundation
import GestureEngine
import GesturedClient
import GesturedCLISupport
import GesturedLogging
import GesturedProtocol
import GesturedTestSupport
import Testing

@testable import GesturedDaemon
@testable import GesturedSystem

/// The daemon as systemd runs it: readiness on NOTIFY_SOCKET, the socket passed by socket
/// activation (LISTEN_FDS), and the embedded defaults matching the shipped files.
@Suite("systemd integration of the daemon", .timeLimit(.minutes(2)))
struct SystemdDaemonTests {
    @Test("READY=1 arrives on NOTIFY_SOCKET once clients can connect, STOPPING=1 when it stops")
    func readinessNotification() async throws {
        let dir = try #require(Files.makeTemporaryDirectory(prefix: "/tmp/gdn-"))
        let notifyPath = dir + "/notify"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = try makeAddress(notifyPath)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        var synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        let events = synthesizer.events(for: synthesizer.tap())
        var options = DaemonOptions()
        options.socketPath = dir + "/s.sock"
        options.socketGroup = ""
        options.useUdev = false
        options.exitAfterReplays = true
        options.replayWaitClients = 1
        options.environment = ["NOTIFY_SOCKET": notifyPath]
        options.replays = [
            ReplayRequest(
                node: "replay:tap", recording: LoadedRecording(device: GestureSynthesizer.demoTouchscreen, events: events, warnings: []),
                pacing: .asFastAsPossible)
        ]
        let daemon = Daemon(options: options, logger: .init(label: "t", level: .critical, sink: RecordingSink()))
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let code = await daemon.run { path in
            DispatchQueue(label: "client").async {
                if let client = try? IPCClient(path: path, clientName: "t") {
                    _ = try? client.request(.subscribe(SubscribeRequest()))
                    while (try? client.nextMessage(timeoutMilliseconds: 30_000)) != nil {}
                }
                finish.yield()
            }
        }
        for await _ in finished { break }
        #expect(code == .success)
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n <= 0 { break }
            messages.append(String(decoding: buffer.prefix(n), as: UTF8.self))
        }
        #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
        #expect(messages.contains("STOPPING=1"), "\(messages)")
    }

    @Test("a socket passed by systemd (LISTEN_FDS) is used, and the daemon binds nothing itself")
    func socketActivation() throws {
        let dir = BinaryTests.temporaryDirectory()
        let activated = dir.appendingPathComponent("activated.sock").path
        let configured = dir.appendingPathComponent("configured.sock").path
        let config = dir.appendingPathComponent("gestured.conf")
        try "[Daemon]\nSocketPath=\(configured)\n\n[Gesture tap]\nKind=tap\n".write(to: config, atomically: true, encoding: .utf8)
        let listener = try UnixListener.bind(path: activated)
        // systemd puts the socket at fd 3 and sets LISTEN_PID to the service's pid; a shell
        // that execs the daemon keeps its pid, so it can name itself. Foundation's Process
        // closes inherited descriptors, so this spawns with posix_spawn and a dup2 to fd 3.
        let command = "LISTEN_PID=$$ LISTEN_FDS=1 exec '\(BinaryTests.binary)' --config '\(config.path)' --no-udev 2>/dev/null"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, listener.fileDescriptor, 3)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        try #require(spawned == 0)
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        let process = SpawnedProcess(pid: pid)
        let client = try BinaryTests.connect(activated, isRunning: { process.isRunning })
        #expect(client.hello?.protocolVersion == ProtocolVersion.major)
        if case .status(let s) = try client.request(.status) { #expect(s.gestures == 1) } else { Issue.record("no status reply") }
        #expect(!FileManager.default.fileExists(atPath: configured), "the configured path was not bound")
        listener.close()
    }

    @Test("the configuration and quirks embedded in the binary are the shipped files, every quirks file listed")
    func embeddedResourcesMatchFiles() throws {
        let conf = try String(contentsOf: packageRootDirectory.appendingPathComponent("config/gestured.conf"), encoding: .utf8)
        #expect(EmbeddedResources.defaultConfiguration == conf)
        let quirksDirectory = packageRootDirectory.appendingPathComponent("config/quirks")
        let names = try FileManager.default.contentsOfDirectory(atPath: quirksDirectory.path).filter { $0.hasSuffix(".quirks") }.sorted()
        #expect(EmbeddedResources.defaultQuirks.map(\.name) == names.map { "<built-in \($0)>" }, "list each file in EmbeddedResources.defaultQuirks")
        for (name, contents) in EmbeddedResources.defaultQuirks {
            let file = String(name.dropFirst("<built-in ".count).dropLast())
            #expect(try String(contentsOf: quirksDirectory.appendingPathComponent(file), encoding: .utf8) == contents, "\(file)")
        }
    }
}

/// A child started with posix_spawn.
struct SpawnedProcess {
    let pid: pid_t
    var isRunning: Bool { kill(pid, 0) == 0 && waitpid(pid, nil, WNOHANG) == 0 }
}
