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
          status                 daemon version, uptime, clients, devices
          list-devices           the touch devices the daemon has open
          debug-events           print gestures as they happen (--json for raw protocol lines;
                                 --gesture NAME, --kind KIND, --device NODE filter; --raw adds
                                 raw touches when permitted; --count N stops after N gestures)
          reload                 ask the daemon to reload its configuration
          ping                   check that the daemon answers

        Verbs that work without the daemon:
          record NODE            write the device's description and events as evemu text to
                                 standard output until interrupted (or --duration SECONDS /
                                 --frames N); attach the result to bug reports
          synthesize SCRIPT      write an evemu recording of scripted gestures (see
                                 gesturectl(1)); --device DESC picks the device description
          check-config [FILE]    same as gestured --check-config

        Exit status: 0 success, 1 failure, 64 usage error, 69 daemon not reachable.
        """

    static let parser = ArgumentParser([
        .option("socket", value: "PATH", help: "daemon socket (default \(defaultSocket))"),
        .flag("json", help: "print protocol JSON lines"),
        .flag("raw", help: "also subscribe to raw touches"),
        .option("gesture", value: "NAME", help: "only this gesture"),
        .option("kind", value: "KIND", help: "only this kind"),
        .option("device", value: "NODE|DESC", help: "device filter, or the description for synthesize"),
        .option("count", value: "N", help: "stop after N gesture events"),
        .option("duration", value: "SECONDS", help: "record for this long"),
        .option("frames", value: "N", help: "record this many frames"),
        .flag("help", help: "show this help"),
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
        if parsed.has("help") || parsed.positionals.isEmpty {
            writeStandardOutput(usage + "\n")
            return parsed.has("help") ? .success : .usage
        }
        let socket = parsed.value("socket") ?? environment["GESTURED_SOCKET"] ?? defaultSocket
        let verb = parsed.positionals[0]
        let rest = Array(parsed.positionals.dropFirst())
        switch verb {
        case "status", "list-devices", "reload", "ping":
            return request(verb: verb, socket: socket, json: parsed.has("json"))
        case "debug-events":
            return debugEvents(socket: socket, parsed: parsed)
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
        default:
            let verbs = ["status", "list-devices", "debug-events", "reload", "ping", "record", "synthesize", "check-config"]
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
                    gestured \(s.daemonVersion) (protocol \(s.protocolVersion))
                    uptime: \(HumanSeconds.format(s.uptimeUS))
                    clients: \(s.clients)
                    devices: \(s.devices)
                    gestures configured: \(s.gestures)
                    gesture events emitted: \(s.gesturesEmitted)
                    configuration: \(s.configPath ?? "built-in defaults")

                    """)
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

    static func debugEvents(socket: String, parsed: ParsedArguments) -> ExitCode {
        guard let client = connect(socket: socket) else { return .unavailable }
        let subscription = SubscribeRequest(
            gestures: parsed.value("gesture").map { [$0] },
            kinds: parsed.value("kind").map { [$0] },
            devices: parsed.value("device").map { [$0] },
            rawTouches: parsed.has("raw") ? true : nil
        )
        let limit = parsed.value("count").flatMap(Int.init)
        var seen = 0
        var origin: Int64?
        do {
            let reply = try client.request(.subscribe(subscription))
            if case .error(let e) = reply {
                writeStandardError("gesturectl: subscribe refused: \(e.message) [\(e.code.rawValue)]\n")
                return .failure
            }
            while let message = try client.nextMessage() {
                if parsed.has("json") {
                    writeStandardOutput(try MessageEncoder().encodeString(message))
                } else {
                    var time: Int64?
                    if case .gesture(let g) = message { time = g.timeUS }
                    if case .touch(let t) = message { time = t.timeUS }
                    if origin == nil, let time { origin = time }
                    if let line = HumanFormat.line(message, originMicroseconds: origin ?? 0) { writeStandardOutput(line + "\n") }
                }
                if case .gesture = message {
                    seen += 1
                    if let limit, seen >= limit { return .success }
                }
                if case .shutdown = message { return .success }
                if case .overflow = message { return .failure }
            }
            return .success
        } catch {
            writeStandardError("gesturectl: \(error)\n")
            return .unavailable
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
