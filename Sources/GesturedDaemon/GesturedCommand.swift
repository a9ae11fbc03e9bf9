import Dispatch
import GestureEngine
public import GesturedCLISupport
import GesturedClient
import GesturedConfig
import GesturedLogging
import GesturedProtocol
import GesturedSystem

/// `gestured`'s command line: the daemon by default, or one of the modes that watch a single
/// device, replay a recording, check a configuration or run the demo. In the library (not in
/// `main.swift`) so tests can run it in-process.
public enum GesturedCommand {
    public static let version = gesturedRelease

    static let usage = """
        Usage:
          gestured [--config FILE] [--socket PATH] [--verbose]
              Run the daemon: follow every touch device (udev), recognize gestures, serve
              clients on the socket (default /run/gestured/gestured.sock).
          gestured --dry-run /dev/input/eventN [--json] [--config FILE]
              Watch one device and print every gesture (no socket).
          gestured --replay FILE [--description DESC] [--json] [--realtime] [--config FILE]
              Run a recording (evemu, libinput record YAML, evtest log) through the same decoder
              and engine, with the recording's timestamps as the clock.
          gestured --replay FILE --svg OUT.svg
              Draw what happened: the surface in mm with every touch's path and the filter's
              decisions, and a timeline of touches and gestures (OUT - for standard output).
          gestured --demo [--json] [--speed X]
              Replay the demo recording (synthesized) through the real daemon: socket, engine and a
              socket client printing what it receives.
          gestured --check-config [FILE]
              Print every configuration problem as file:line:column; exit 78 if any is an error.

        Options:
        """

    static let parser = ArgumentParser([
        .option("config", value: "FILE", help: "configuration file (default /etc/gestured/gestured.conf)"),
        .option("socket", value: "PATH", help: "socket path (overrides SocketPath=)"),
        .option("dry-run", value: "NODE", help: "watch one device and print its gestures"),
        .option("replay", value: "FILE", help: "replay a recording"),
        .option("description", value: "DESC", help: "device description for a recording without one"),
        .option("svg", value: "OUT", help: "with --replay: draw the touches and gestures as SVG (- for standard output)"),
        .flag("realtime", help: "replay at the recording's own pace"),
        .option("speed", value: "X", help: "pace multiplier for --realtime and --demo (default 1)"),
        .flag("demo", help: "replay the synthesized demo recording through the daemon"),
        .option("replay-device", value: "FILE", help: "daemon: also play FILE as a device (tests, demos; repeatable)"),
        .option("replay-wait-clients", value: "N", help: "daemon: start replays once N clients subscribed"),
        .flag("exit-after-replay", help: "daemon: stop when the replays have finished"),
        .flag("no-udev", help: "daemon: do not open real devices"),
        .flag("check-config", help: "check the configuration and exit"),
        .flag("json", help: "print one JSON object per event (the socket's schema)"),
        .flag("touches", help: "with --dry-run/--replay: also print raw touches"),
        .flag("verbose", help: "log per-gesture summaries and state transitions"),
        .flag("version", help: "print the version"),
        .flag("help", help: "show this help"),
    ])

    public static func run(arguments: [String], environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try parser.parse(arguments)
        } catch {
            writeStandardError("gestured: \(error)\nTry 'gestured --help'.\n")
            return .usage
        }
        if parsed.has("help") {
            writeStandardOutput(usage + "\n" + parser.helpText() + "\n")
            return .success
        }
        if parsed.has("version") {
            writeStandardOutput("gestured \(version) (protocol \(ProtocolVersion.major).\(ProtocolVersion.minor))\n")
            return .success
        }
        let logger = Logger(
            label: "gestured",
            level: parsed.has("verbose") ? .debug : (LogLevel(name: environment["GESTURED_LOG_LEVEL"] ?? "") ?? .notice),
            sink: JournalSink(environment: environment, prefix: "gestured")
        )
        let modes = ["dry-run", "replay", "demo", "check-config"].filter { parsed.has($0) || parsed.value($0) != nil }
        if modes.count > 1 {
            writeStandardError("gestured: choose one of --\(modes.joined(separator: ", --"))\n")
            return .usage
        }
        if parsed.has("check-config") {
            return checkConfig(path: parsed.positionals.first ?? parsed.value("config"))
        }
        if parsed.value("svg") != nil, parsed.value("replay") == nil {
            writeStandardError("gestured: --svg draws a replay: gestured --replay FILE --svg OUT.svg\n")
            return .usage
        }
        if let extra = parsed.positionals.first {
            writeStandardError("gestured: unexpected argument '\(extra)'\nTry 'gestured --help'.\n")
            return .usage
        }
        var speed = 1.0
        if let text = parsed.value("speed") {
            guard let value = Double(text), value.isFinite, value > 0 else {
                writeStandardError("gestured: --speed expects a positive number, a multiplier of the recording's pace such as 2 or 0.5; got '\(text)'\n")
                return .usage
            }
            // A pace only matters where something is paced: refusing beats ignoring it.
            if parsed.value("replay") != nil, !parsed.has("realtime") {
                writeStandardError("gestured: --speed paces a replay played at the recording's own pace; add --realtime (without it the replay runs as fast as possible)\n")
                return .usage
            }
            speed = value
        }
        if let node = parsed.value("dry-run") {
            return await SingleDeviceRun.dryRun(
                node: node, configPath: parsed.value("config"), json: parsed.has("json"), touches: parsed.has("touches"), logger: logger)
        }
        if let file = parsed.value("replay") {
            return await SingleDeviceRun.replay(
                file: file,
                descriptionPath: parsed.value("description"),
                configPath: parsed.value("config"),
                json: parsed.has("json"),
                touches: parsed.has("touches"),
                pacing: parsed.has("realtime") ? .realtime(speed: speed) : .asFastAsPossible,
                svgPath: parsed.value("svg"),
                logger: logger
            )
        }
        if parsed.has("demo") {
            return await Demo.run(json: parsed.has("json"), speed: speed, configPath: parsed.value("config"), logger: logger)
        }
        var options = DaemonOptions()
        // Absolute, so `status`, the log and reload messages name a file that opens from any
        // directory (and a reload reads the same file whatever the daemon's directory).
        options.configPath = parsed.value("config").map(Files.absolutePath)
        options.socketPath = parsed.value("socket")
        options.environment = environment
        options.useUdev = !parsed.has("no-udev")
        options.exitAfterReplays = parsed.has("exit-after-replay")
        options.replayWaitClients = parsed.value("replay-wait-clients").flatMap(Int.init) ?? 0
        for file in parsed.values("replay-device") {
            do {
                let recording = try RecordingLoader.load(path: file, descriptionPath: parsed.value("description"))
                options.replays.append(ReplayRequest(node: "replay:" + file, recording: recording, pacing: .realtime(speed: speed)))
            } catch {
                writeStandardError("gestured: \(error)\n")
                return error.unreadable ? .noInput : .dataError
            }
        }
        return await Daemon(options: options, logger: logger).run()
    }

    /// `--check-config`: every diagnostic, then exit 0 (clean or warnings only) or 78.
    static func checkConfig(path: String?) -> ExitCode {
        switch ConfigLoader.load(mainPath: path) {
        case .success(let loaded):
            for warning in loaded.warnings { writeStandardError(warning + "\n") }
            // Without /etc/gestured/gestured.conf the vendor file is what was checked, when installed.
            let checked = loaded.path ?? (Files.exists(ConfigPaths.vendor) ? ConfigPaths.vendor : "built-in defaults")
            if loaded.gestureCount == 0 {
                writeStandardError("gestured: warning: \(checked): no gestures are configured (no [Gesture NAME] section): the daemon would recognize nothing\n")
            }
            writeStandardOutput("\(checked): OK, \(loaded.gestureCount) gestures\n")
            writeStandardOutput(policyReport(loaded))
            return .success
        case .failure(let failure):
            for line in failure.lines { writeStandardError(line + "\n") }
            return failure.unreadable ? .noInput : .config
        }
    }
}

/// What `--check-config` prints after its verdict: the quirks loaded, the touch filter's
/// thresholds as they run, and what the touchpad policy (``GesturePipeline/devicePolicy``)
/// changes in the configured gestures on a touchpad — computed by the same functions the
/// daemon applies, so what runs is what the check prints.
func policyReport(_ loaded: LoadedConfiguration) -> String {
    var text = "\n# device quirks: \(loaded.quirks.sections.count) section(s)\n"
    for section in loaded.quirks.sections { text += "#   [\(section.name)] \(section.origin)\n" }
    text += "\n# the touch filter as it runs (each device's quirks then apply over it)\n"
    text += loaded.configuration.touchFilter.rendered
    let touchpad = DeviceDescription(
        name: "any touchpad", properties: [.pointer], codes: [.btnToolFinger],
        axes: [
            EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 4),
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
        ])
    let configured = loaded.configuration.engineConfiguration(for: touchpad, kind: .touchpad)
    let adjusted = GesturePipeline.devicePolicy(configured, device: touchpad)
    text += "\n# the touchpad policy: what gestured changes in these gestures on a touchpad\n"
    var changed = 0
    for (before, after) in zip(configured.recognizers, adjusted.recognizers) where before != after {
        let old = Set(before.rendered.split(separator: "\n"))
        var lines = after.rendered.split(separator: "\n").filter { !old.contains($0) }.map(String.init)
        // Three of the policy's changes have no key of their own.
        switch (before.kind, after.kind) {
        case (.pan(let b), .pan(let a)) where a.tracksOnlyWithMinimumTouches != b.tracksOnlyWithMinimumTouches:
            lines.append("(pans only while its minimum number of fingers is down)")
        case (.pinch(let b), .pinch(let a)) where a.requiresOpposingMotion != b.requiresOpposingMotion:
            lines.append("(begins only when the fingers move apart or together)")
        case (.longPress(let b), .longPress(let a)) where a.yieldsToMotion != b.yieldsToMotion:
            lines.append("(cancelled when its fingers go on to scroll, swipe or pinch)")
        default: break
        }
        text += "# [Gesture \(after.name)] \(lines.joined(separator: " "))\n"
        changed += 1
    }
    if changed == 0 { text += "# (nothing: no pinch, pan, tap or long-press gesture)\n" }
    return text
}

/// Prints published events to standard output, in order, off the input queue.
final class PrintingPublisher: EventPublisher {
    let json: Bool
    let includeTouches: Bool
    let queue = DispatchQueue(label: "gestured.print")
    let onDeviceRemoved: @Sendable (String) -> Void
    private let origin = Holder<Int64>()

    init(json: Bool, includeTouches: Bool = false, onDeviceRemoved: @escaping @Sendable (String) -> Void) {
        self.json = json
        self.includeTouches = includeTouches
        self.onDeviceRemoved = onDeviceRemoved
    }

    var wantsTouches: Bool { includeTouches }

    /// `--json` prints each line as the daemon's clients receive it (the batch's bytes);
    /// otherwise the line is read back and shown in the human format.
    func publish(_ batch: EncodedBatch) {
        queue.async { [self] in
            var bytes: [UInt8] = []
            let decoder = MessageDecoder()
            for event in batch.events {
                if event.audience == .others { continue }
                if event.kind == .touch, !includeTouches { continue }
                if event.kind == .deviceRemoved { onDeviceRemoved(event.device) }
                let line = batch.line(event)
                if json {
                    bytes += line
                    continue
                }
                guard let message = try? decoder.decodeDaemonMessage(line.dropLast()) else { continue }
                if origin.get() == nil {
                    if case .gesture(let g) = message { origin.set(g.timeUS) }
                    if case .touch(let t) = message { origin.set(t.timeUS) }
                }
                if let text = HumanFormat.line(message, originMicroseconds: origin.get() ?? 0) { bytes += (text + "\n").utf8 }
            }
            writeStandardOutput(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Waits until everything published so far is printed.
    func drain() { queue.sync {} }
}
