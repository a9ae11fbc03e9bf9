import Dispatch
import GestureEngine
import GesturedCLISupport
import GesturedClient
import GesturedLogging
import GesturedProtocol
import GesturedSystem

/// `gestured --demo`: the README's main job on a machine without touch hardware. The demo
/// recording, synthesized at start-up by `GestureSynthesizer` (the same text `gesturectl
/// synthesize demo` writes; nothing is committed), is played as a device through the real
/// daemon: configuration, input hub, engine, Unix socket; a socket client in this process
/// subscribes like any other and prints what it receives.
enum Demo {
    static func run(json: Bool, speed: Double, configPath: String?, logger: Logger) async -> ExitCode {
        let recording: LoadedRecording
        do {
            recording = try RecordingLoader.parse(
                text: GestureSynthesizer.demoTouchscreenRecording(), name: "demo-touchscreen.evemu", description: nil)
        } catch {
            writeStandardError("gestured: the synthesized demo recording does not parse: \(error)\n")
            return .failure
        }
        guard let dir = Files.makeTemporaryDirectory(prefix: "/tmp/gestured-demo-") else {
            writeStandardError("gestured: cannot create a temporary directory for the demo socket\n")
            return .failure
        }
        var options = DaemonOptions()
        options.configPath = configPath
        options.socketPath = dir + "/gestured.sock"
        options.socketGroup = ""
        options.useUdev = false
        options.exitAfterReplays = true
        options.replays = [ReplayRequest(node: "demo:touchscreen", recording: recording, pacing: .realtime(speed: speed))]
        let quietLogger = Logger(label: logger.label, level: max(logger.level, .warning), sink: logger.sink)
        let daemon = Daemon(options: options, logger: quietLogger)
        let printed = DispatchSemaphore(value: 0)
        let code = await daemon.run { socketPath in
            // Connect and subscribe before the replay starts (run() adds replays after this
            // returns), then read on a thread of its own, as an external client would.
            let client: IPCClient
            do {
                client = try IPCClient(path: socketPath, clientName: "gestured-demo")
                _ = try client.request(.subscribe(SubscribeRequest()))
            } catch {
                writeStandardError("gestured: demo client failed: \(error)\n")
                printed.signal()
                return
            }
            writeStandardError("gestured: demo: replaying the synthesized touchscreen recording through \(socketPath)\n")
            DispatchQueue(label: "gestured.demo-client").async {
                var origin: Int64?
                let encoder = MessageEncoder()
                while let message = try? client.nextMessage() {
                    if json {
                        if let line = try? encoder.encodeString(message) { writeStandardOutput(line) }
                    } else {
                        if case .gesture(let g) = message, origin == nil { origin = g.timeUS }
                        if let line = HumanFormat.line(message, originMicroseconds: origin ?? 0) { writeStandardOutput(line + "\n") }
                    }
                    if case .shutdown = message { break }
                }
                client.close()
                printed.signal()
            }
        }
        printed.wait()
        Files.removeDirectory(dir)
        return code
    }
}
