import GestureEngine
import GesturedCLISupport
import GesturedLogging
import GesturedSystem

/// `--dry-run` and `--replay`: one device (live or recorded) through the daemon's own input
/// hub and pipeline, printed instead of served.
enum SingleDeviceRun {
    static func dryRun(node: String, configPath: String?, json: Bool, touches: Bool, logger: Logger) async -> ExitCode {
        // Check the node here first so the user gets one sentence about what to do, rather
        // than the daemon's "ignoring" log line.
        let description: DeviceDescription
        do {
            let device = try EvdevDevice(path: node)
            description = device.description
            device.close()
        } catch {
            writeStandardError("gestured: \(error.userFacingDescription)\n")
            return error.errno == .noSuchFileOrDirectory ? .noInput : .failure
        }
        if case .failure(let why) = DeviceClassifier.classify(description) {
            writeStandardError("gestured: '\(node)' ('\(description.name)') is not a touch device: \(why.description)\n")
            return .failure
        }
        let loaded: LoadedConfiguration
        switch ConfigLoader.load(mainPath: configPath) {
        case .success(let l): loaded = l
        case .failure(let failure):
            for line in failure.lines { writeStandardError(line + "\n") }
            return .config
        }
        let ended = AsyncStream.makeStream(of: String.self)
        let printer = PrintingPublisher(json: json, includeTouches: touches) { _ in ended.continuation.yield("device removed") }
        let loop = EventLoop(name: "gestured-input")
        let state = DaemonState(startedAtMicroseconds: MonotonicClock.nowMicroseconds(), loop: loop)
        defer { loop.stop() }
        let hub = InputHub(loop: loop, publisher: printer, state: state, logger: logger, configurator: loaded.configurator)
        await hub.addDevice(node: node, udevProperties: [:])
        guard await hub.deviceNodes.contains(node) else {
            writeStandardError("gestured: no gesture in the configuration applies to '\(node)' ('\(description.name)')\n")
            return .config
        }
        if !json {
            writeStandardError("gestured: watching \(node) ('\(description.name)'); press Ctrl-C to stop\n")
        }
        let signals = SignalSource([.interrupt, .terminate])
        let signalStream = signals.signals
        let signalTask = Task(executorPreference: loop) {
            for await signal in signalStream { ended.continuation.yield(signal.name) }
        }
        for await _ in ended.stream { break }
        signalTask.cancel()
        signals.cancel()
        await hub.shutdown()
        printer.drain()
        return .success
    }

    static func replay(
        file: String,
        descriptionPath: String?,
        configPath: String?,
        json: Bool,
        touches: Bool,
        pacing: ReplayPacing,
        svgPath: String? = nil,
        logger: Logger
    ) async -> ExitCode {
        let recording: LoadedRecording
        do {
            recording = try RecordingLoader.load(path: file, descriptionPath: descriptionPath)
        } catch {
            writeStandardError("gestured: \(error)\n")
            return error.unreadable ? .noInput : .dataError
        }
        for warning in recording.warnings { writeStandardError("gestured: warning: \(warning)\n") }
        let loaded: LoadedConfiguration
        switch ConfigLoader.load(mainPath: configPath) {
        case .success(let l): loaded = l
        case .failure(let failure):
            for line in failure.lines { writeStandardError(line + "\n") }
            return .config
        }
        if let svgPath {
            return drawTrace(file: file, recording: recording, loaded: loaded, to: svgPath)
        }
        let done = AsyncStream.makeStream(of: Void.self)
        let printer = PrintingPublisher(json: json, includeTouches: touches) { _ in }
        let loop = EventLoop(name: "gestured-input")
        let state = DaemonState(startedAtMicroseconds: MonotonicClock.nowMicroseconds(), loop: loop)
        defer { loop.stop() }
        let hub = InputHub(loop: loop, publisher: printer, state: state, logger: logger, configurator: loaded.configurator)
        let kind = recording.device.kind ?? .touchpad
        await hub.addReplay(node: file, device: recording.device, kind: kind, events: recording.events, pacing: pacing) {
            done.continuation.yield()
        }
        for await _ in done.stream { break }
        printer.drain()
        return .success
    }

    /// `--replay FILE --svg OUT`: the recording through the same pipeline, drawn
    /// (``ReplayTrace``, ``TraceSVG``); OUT `-` is standard output.
    static func drawTrace(file: String, recording: LoadedRecording, loaded: LoadedConfiguration, to path: String) -> ExitCode {
        let kind = recording.device.kind ?? .touchpad
        guard let setup = loaded.configurator(recording.device, kind, [:]) else {
            writeStandardError("gestured: no gesture in the configuration applies to '\(file)' ('\(recording.device.name)', a \(kind.rawValue))\n")
            return .config
        }
        let trace = ReplayTrace.record(
            file: file, recording: recording, setup: setup, kind: kind, configuration: loaded.path ?? "built-in configuration")
        let svg = TraceSVG.render(trace)
        if path == "-" {
            writeStandardOutput(svg)
            return .success
        }
        do {
            try Files.writeText(svg, path: path)
        } catch {
            writeStandardError("gestured: \(error.userFacingDescription)\n")
            return .failure
        }
        let decided = trace.touches.count { !$0.decisions.isEmpty }
        writeStandardError("gestured: wrote \(path): \(trace.touches.count) touches (\(decided) with a filter decision), \(trace.gestures.count) gestures\n")
        return .success
    }
}
