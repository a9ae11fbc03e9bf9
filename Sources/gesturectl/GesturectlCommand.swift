import GestureEngine
import GesturedCLISupport
import GesturedProtocol
import GesturedClient
import GesturedSystem

/// `gesturectl <verb>`: the client of gestured-ipc(7), plus daemon-free verbs that only need
/// the OS door and the engine (`record`, `synthesize`, `check-config`), like `libinput record`.
enum GesturectlCommand {
    static let defaultSocket = "/run/gestured/gestured.sock"

    static let usage = """
        Usage: gesturectl [--socket PATH] VERB [OPTIONS]

        Verbs that talk to the daemon:
          status                 daemon version, uptime, clients, devices, seats (locked?)
          devices                the touch devices the daemon has open (alias: list-devices)
          listen                 print gestures as they happen (alias: debug-events); --json
                                 prints each protocol line as the daemon sent it; filters
                                 --gesture NAME, --kind KIND, --state STATE, --device NODE
                                 (comma-separated lists); --raw adds raw touches when
                                 permitted; --count N stops after N gestures; --wait
                                 waits for the daemon to appear
          run                    run the commands of ~/.config/gestured/actions.conf for the
                                 gestures that match (--actions FILE; --check only validates;
                                 --dry-run prints instead of running; --verbose logs each
                                 command; --exit-on-shutdown exits with the daemon)
          send-keys COMBO        ask the daemon to press a key combination such as
                                 super+Page_Up on its virtual keyboard (gestured-ipc(7);
                                 needs AllowInputForActiveSession=yes); --device NODE names
                                 the gesture's device, whose seat decides
          click BUTTON           the same for a button: left, right, middle, …
          reload                 ask the daemon to reload its configuration
          ping                   check that the daemon answers

        Verbs that work without the daemon:
          record NODE            write the device's description and events as evemu text to
                                 standard output until interrupted (or --duration SECONDS /
                                 --frames N); attach the result to bug reports
          synthesize SCRIPT      write an evemu recording of scripted gestures (see
                                 gesturectl(1)); --device DESC picks the device description
          check-config [FILE]    same as gestured --check-config
          gestures [FILE]        the configured gesture names, one a line (for --gesture)

        Exit status: 0 success, 1 failure, 64 usage error, 69 daemon not reachable,
        78 configuration errors (gestured.conf or actions.conf).
        """

    static let parser = ArgumentParser([
        .option("socket", value: "PATH", help: "daemon socket (default \(defaultSocket))"),
        .flag("json", help: "print protocol JSON lines"),
        .flag("raw", help: "also subscribe to raw touches"),
        .option("gesture", value: "NAME", help: "only this gesture"),
        .option("kind", value: "KIND", help: "only this kind"),
        .option("state", value: "STATE", help: "only these states (began, changed, ended, cancelled, recognized)"),
        .option("actions", value: "FILE", help: "run: the actions file (default ~/.config/gestured/actions.conf)"),
        .flag("wait", help: "listen: wait for the daemon to appear instead of failing"),
        .flag("check", help: "run: validate the actions file and exit"),
        .flag("dry-run", help: "run: print the commands instead of running them"),
        .flag("verbose", help: "run: log every command started and ended"),
        .flag("exit-on-shutdown", help: "run: exit when the daemon shuts down instead of waiting for it"),
        .option("device", value: "NODE|DESC", help: "device filter, or the description for synthesize"),
        .option("count", value: "N", help: "stop after N gesture events"),
        .option("duration", value: "SECONDS", help: "record for this long"),
        .option("frames", value: "N", help: "record this many frames"),
        .flag("help", help: "show this help (after a verb: that verb's)"),
        .flag("version", help: "print the version"),
    ])

    static func run(arguments: [String], environment: [String: String]) -> ExitCode {
        ignoreBrokenPipeSignal()
        let parsed: ParsedArguments
        do {
            parsed = try parser.parse(arguments)
        } catch {
            writeStandardError("gesturectl: \(error)\nTry 'gesturectl --help'.\n")
            return .usage
        }
        if parsed.has("version") {
            writeStandardOutput("gesturectl \(gesturedRelease) (protocol \(ProtocolVersion.major).\(ProtocolVersion.minor))\n")
            return .success
        }
        if parsed.has("help"), let verb = parsed.positionals.first, let help = VerbHelp.text(for: verb, in: usage) {
            writeStandardOutput(help + "\n")
            return .success
        }
        if parsed.has("help") || parsed.positionals.isEmpty {
            writeStandardOutput(usage + "\n")
            return parsed.has("help") ? .success : .usage
        }
        let socket = parsed.value("socket") ?? environment["GESTURED_SOCKET"] ?? defaultSocket
        let verb = parsed.positionals[0]
        let rest = Array(parsed.positionals.dropFirst())
        switch verb {
        case "send-keys", "click":
            return InputVerb.run(verb: verb, argument: rest.first, device: parsed.value("device"), socket: socket, json: parsed.has("json"))
        case "status", "list-devices", "reload", "ping":
            return request(verb: verb, socket: socket, json: parsed.has("json"))
        case "devices":
            return request(verb: "list-devices", socket: socket, json: parsed.has("json"))
        case "listen", "debug-events":
            return listen(socket: socket, parsed: parsed)
        case "run":
            let options = RunCommand.Options(
                socket: socket,
                actionsPath: parsed.value("actions"),
                checkOnly: parsed.has("check"),
                dryRun: parsed.has("dry-run"),
                verbose: parsed.has("verbose"),
                exitOnShutdown: parsed.has("exit-on-shutdown")
            )
            return RunCommand.run(options, environment: environment)
        case "record":
            guard let node = rest.first else {
                writeStandardError("gesturectl: record needs a device node, e.g. gesturectl record /dev/input/event5 > bug.evemu\n")
                return .usage
            }
            return Recorder.record(node: node, duration: parsed.value("duration").flatMap(Double.init), frames: parsed.value("frames").flatMap(Int.init))
        case "synthesize":
            return Synthesize.run(scriptPath: rest.first, devicePath: parsed.value("device"))
        case "check-config":
            return CheckConfig.run(path: rest.first)
        case "gestures":
            return ListGestures.run(path: rest.first, socket: socket)
        default:
            let verbs = [
                "status", "devices", "list-devices", "listen", "debug-events", "run", "reload", "ping", "record", "synthesize", "check-config",
                "gestures", "send-keys", "click",
            ]
            let best = verbs.min { editDistance(verb, $0) < editDistance(verb, $1) }
            let hint = best.map { editDistance(verb, $0) <= 3 ? " (did you mean '\($0)'?)" : "" } ?? ""
            writeStandardError("gesturectl: unknown verb '\(verb)'\(hint)\nTry 'gesturectl --help'.\n")
            return .usage
        }
    }

    /// Connects and says hello; prints why on failure.
    static func connect(socket: String) -> IPCClient? {
        do {
            let client = try IPCClient(path: socket, clientName: "gesturectl")
            return client
        } catch let error as SystemError {
            writeStandardError("gesturectl: \(error.description). Is gestured running (systemctl status gestured)? Is this user in the socket's group ('gestured')?\n")
        } catch {
            writeStandardError("gesturectl: \(error)\n")
        }
        return nil
    }

    static func request(verb: String, socket: String, json: Bool) -> ExitCode {
        guard let client = connect(socket: socket) else { return .unavailable }
        let request: ClientRequest =
            switch verb {
            case "status": .status
            case "list-devices": .listDevices
            case "reload": .reload
            default: .ping
            }
        do {
            let reply = try client.request(request)
            if json {
                writeStandardOutput(try MessageEncoder().encodeString(reply))
                if case .error = reply { return .failure }
                return .success
            }
            switch reply {
            case .status(let s):
                writeStandardOutput(
                    """
                    gestured \(s.daemonVersion) (protocol \(s.protocolVersion).\(s.protocolMinor ?? 0))
                    uptime: \(HumanSeconds.format(s.uptimeUS))
                    clients: \(s.clients)
                    devices: \(s.devices)
                    gestures configured: \(s.gestures)
                    gesture events emitted: \(s.gesturesEmitted)
                    configuration: \(s.configPath ?? "built-in defaults")

                    """)
                if let logind = s.logind { writeStandardOutput("logind: \(logind)\n") }
                for seat in s.seats ?? [] {
                    let who = seat.session.map { "session \($0) of \(seat.user ?? "?") (uid \(seat.uid.map(String.init) ?? "?"))" } ?? "no active session"
                    writeStandardOutput("\(seat.seat): \(who)\(seat.locked ? ", locked" : "")\n")
                }
            case .devices(let d):
                if d.devices.isEmpty { writeStandardOutput("no touch devices open\n") }
                for device in d.devices {
                    let approx = device.approximateUnits ? " (approximate mm)" : ""
                    writeStandardOutput(
                        "\(device.device)\t\(device.kind)\t\(device.name)\t\(fixed(device.widthMM))x\(fixed(device.heightMM)) mm\(approx)\tslots=\(device.slots)\tgestures=\(device.gestures.count)\n"
                    )
                }
            case .ok(let ok):
                writeStandardOutput("ok (\(ok.request))\n")
            case .error(let e):
                writeStandardError("gesturectl: daemon refused \(verb): \(e.message) [\(e.code.rawValue)]\n")
                return .failure
            default:
                writeStandardError("gesturectl: unexpected reply '\(reply.type)'\n")
                return .failure
            }
            return .success
        } catch {
            writeStandardError("gesturectl: \(error)\n")
            return .unavailable
        }
    }

    /// Splits a comma-separated option value; nil when the option is absent.
    static func list(_ value: String?) -> [String]? {
        value.map { $0.split(separator: ",").map { $0.trimmingSpaces() } }
    }

    /// `listen`: subscribe with the filters given and print events until the daemon goes away
    /// (or `--count` gestures). `--json` prints each line exactly as received.
    static func listen(socket: String, parsed: ParsedArguments) -> ExitCode {
        var states: [WireGestureState]?
        if let names = list(parsed.value("state")) {
            states = []
            for name in names {
                guard let state = WireGestureState(rawValue: name) else {
                    let known = WireGestureState.allCases.map(\.rawValue).joined(separator: ", ")
                    writeStandardError("gesturectl: unknown state '\(name)' for --state (one of \(known))\n")
                    return .usage
                }
                states?.append(state)
            }
        }
        for kind in list(parsed.value("kind")) ?? [] where !SubscribeRequest.knownKinds.contains(kind) {
            let known = SubscribeRequest.knownKinds
            writeStandardError("gesturectl: unknown kind '\(kind)' for --kind\(didYouMean(kind, among: known)) (one of \(known.joined(separator: ", ")))\n")
            return .usage
        }
        var limit: Int?
        if let count = parsed.value("count") {
            guard let n = Int(count), n > 0 else {
                writeStandardError("gesturectl: --count expects a whole number of gesture events, 1 or more; got '\(count)'\n")
                return .usage
            }
            limit = n
        }
        let subscription = SubscribeRequest(
            gestures: list(parsed.value("gesture")),
            kinds: list(parsed.value("kind")),
            states: states,
            devices: list(parsed.value("device")),
            rawTouches: parsed.has("raw") ? true : nil
        )
        var stream: EventStream?
        var delay: Int32 = 100
        while stream == nil {
            do {
                stream = try EventStream(socket: socket, clientName: "gesturectl", subscription: subscription)
            } catch {
                switch error {
                case .unreachable where parsed.has("wait"):
                    // The daemon is not there yet (starting, restarting): ask again later.
                    _ = waitReadable(fileDescriptors: [], timeoutMilliseconds: delay)
                    delay = min(delay * 2, 2000)
                case .unreachable(let e):
                    writeStandardError("gesturectl: \(e.description). Is gestured running (systemctl status gestured)? Is this user in the socket's group ('gestured')?\n")
                    return .unavailable
                case .refused(let message) where message.hasPrefix("subscribe refused"):
                    // A filter the daemon does not know (a gesture it has not configured).
                    writeStandardError("gesturectl: \(message)\n")
                    return .usage
                case .refused(let message), .protocolError(let message):
                    writeStandardError("gesturectl: \(message)\n")
                    return .failure
                }
            }
        }
        guard let stream else { return .failure }
        defer { stream.close() }
        let json = parsed.has("json")
        var seen = 0
        var origin: Int64?
        while true {
            while let (line, message) = stream.next() {
                if json {
                    writeStandardOutput(String(decoding: line, as: UTF8.self) + "\n")
                } else {
                    var time: Int64?
                    if case .gesture(let g) = message { time = g.timeUS }
                    if case .touch(let t) = message { time = t.timeUS }
                    if origin == nil, let time { origin = time }
                    if let text = HumanFormat.line(message, originMicroseconds: origin ?? 0) { writeStandardOutput(text + "\n") }
                }
                if case .gesture = message {
                    seen += 1
                    if let limit, seen >= limit { return .success }
                }
                if case .shutdown = message { return .success }
                if case .overflow = message { return .failure }
            }
            if stream.isFinished { return .success }
            _ = waitReadable(fileDescriptors: [stream.fileDescriptor], timeoutMilliseconds: -1)
            do {
                try stream.readAvailable()
            } catch {
                writeStandardError("gesturectl: \(error.description)\n")
                return .unavailable
            }
        }
    }

    static func fixed(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}

enum HumanSeconds {
    static func format(_ microseconds: Int64) -> String {
        let seconds = microseconds / 1_000_000
        return "\(seconds / 3600)h \(seconds / 60 % 60)m \(seconds % 60)s"
    }
}
