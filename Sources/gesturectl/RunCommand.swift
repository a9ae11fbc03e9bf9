import GesturedCLISupport
import GesturedConfig
import GesturedProtocol
import GesturedSystem

/// `gesturectl run`: runs the user's actions.conf(5) commands for the gestures the daemon
/// reports, as the user, in the user's session. The daemon never runs anything.
enum RunCommand {
    struct Options {
        var socket: String
        /// nil: the default path under `$XDG_CONFIG_HOME`.
        var actionsPath: String?
        var checkOnly = false
        var dryRun = false
        var verbose = false
        /// Exit (after the running commands end) when the daemon shuts down or closes the
        /// connection, instead of waiting for it to come back.
        var exitOnShutdown = false
    }

    /// `$XDG_CONFIG_HOME/gestured/actions.conf`, else `$HOME/.config/gestured/actions.conf`.
    static func defaultActionsPath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/gestured/actions.conf" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/gestured/actions.conf" }
        return nil
    }

    static func run(_ options: Options, environment: [String: String]) -> ExitCode {
        guard let path = options.actionsPath ?? defaultActionsPath(environment: environment) else {
            writeStandardError("gesturectl: neither $XDG_CONFIG_HOME nor $HOME is set; pass --actions FILE\n")
            return .usage
        }
        let text: String
        do {
            text = try Files.readText(path: path)
        } catch {
            writeStandardError(
                "gesturectl: \(error.userFacingDescription)\n"
                    + "Copy the example to start: mkdir -p \(parent(of: path)) && cp /usr/share/gestured/actions.conf \(path)\n")
            return .noInput
        }
        let file = ActionsFile.parse(file: path, contents: text)
        for diagnostic in file.diagnostics { writeStandardError(diagnostic.rendered + "\n") }
        if file.hasErrors { return .config }
        if options.checkOnly {
            writeStandardOutput("\(path): OK, \(file.actions.count) action\(file.actions.count == 1 ? "" : "s")\n")
            return .success
        }
        if file.actions.isEmpty {
            writeStandardError("gesturectl: \(path) defines no [Action] sections; nothing to run\n")
            return .config
        }
        let spawner: ProcessSpawner
        do {
            spawner = try ProcessSpawner()
        } catch {
            writeStandardError("gesturectl: \(error.description)\n")
            return .failure
        }
        let runner = ActionsRunner(
            actions: file.actions,
            spawner: spawner,
            environment: environment,
            dryRun: options.dryRun,
            verbose: options.verbose
        )
        return Loop(socket: options.socket, subscription: file.subscription, runner: runner, spawner: spawner, exitOnShutdown: options.exitOnShutdown).run()
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// Connect, stream, reconnect. Waits only in `poll(2)`: on the daemon's socket, on the
    /// spawner's child-exit pipe and, while the daemon is away, for the back-off interval.
    struct Loop {
        let socket: String
        let subscription: SubscribeRequest
        let runner: ActionsRunner
        let spawner: ProcessSpawner
        let exitOnShutdown: Bool

        /// Back-off between connection attempts while the daemon is away, ms.
        static let firstRetryDelay: Int32 = 100
        static let longestRetryDelay: Int32 = 5000

        func run() -> ExitCode {
            var delay = Self.firstRetryDelay
            var reportedAbsence = false
            while true {
                let stream: EventStream
                do {
                    stream = try EventStream(socket: socket, clientName: "gesturectl run", subscription: subscription)
                } catch {
                    if case .refused = error {
                        // A daemon that refuses us (protocol version, permissions) will not
                        // change its mind by being asked again.
                        writeStandardError("gesturectl: \(error.description)\n")
                        finish()
                        return .unavailable
                    }
                    if !reportedAbsence {
                        writeStandardError("gesturectl: waiting for gestured at \(socket): \(error.description)\n")
                        reportedAbsence = true
                    }
                    pause(milliseconds: delay)
                    delay = min(delay * 2, Self.longestRetryDelay)
                    continue
                }
                if reportedAbsence { writeStandardError("gesturectl: connected to gestured at \(socket)\n") }
                reportedAbsence = false
                delay = Self.firstRetryDelay
                let ending = stream.pump(runner: runner, spawner: spawner)
                stream.close()
                switch ending {
                case .shutdown(let reason):
                    if exitOnShutdown {
                        finish()
                        return .success
                    }
                    writeStandardError("gesturectl: gestured shut down (\(reason)); waiting for it to return\n")
                case .closed:
                    if exitOnShutdown {
                        finish()
                        return .success
                    }
                    writeStandardError("gesturectl: gestured closed the connection; reconnecting\n")
                case .failed(let message):
                    writeStandardError("gesturectl: \(message); reconnecting\n")
                    if exitOnShutdown {
                        finish()
                        return .failure
                    }
                }
                pause(milliseconds: delay)
            }
        }

        /// Waits `milliseconds`, reaping and reporting children that end meanwhile.
        private func pause(milliseconds: Int32) {
            _ = waitReadable(fileDescriptors: [spawner.notificationDescriptor], timeoutMilliseconds: milliseconds)
            runner.report(spawner.collectExits())
        }

        /// Waits for the commands still running, so their failures are reported and no
        /// zombie outlives us; then returns.
        private func finish() {
            runner.report(spawner.waitForAll())
        }
    }
}

extension EventStream {
    enum Ending {
        case shutdown(String)
        case closed
        case failed(String)
    }

    /// Feeds gesture events to `runner` until the daemon shuts down or the connection ends.
    func pump(runner: ActionsRunner, spawner: ProcessSpawner) -> Ending {
        runner.sendRequest = { [self] request in send(request) }
        defer { runner.connectionEnded() }
        while true {
            while let (_, message) = next() {
                if runner.takeReply(message) { continue }
                switch message {
                case .gesture(let event):
                    runner.handle(event)
                case .shutdown(let s):
                    return .shutdown(s.reason)
                case .overflow(let o):
                    return .failed("gestured dropped this client: \(o.message)")
                case .error(let e):
                    writeStandardError("gesturectl: gestured reported: \(e.message) [\(e.code.rawValue)]\n")
                default:
                    break
                }
            }
            if isFinished { return .closed }
            let ready = waitReadable(fileDescriptors: [fileDescriptor, spawner.notificationDescriptor], timeoutMilliseconds: -1)
            if ready.contains(spawner.notificationDescriptor) { runner.report(spawner.collectExits()) }
            if ready.contains(fileDescriptor) {
                do {
                    try readAvailable()
                } catch {
                    return .failed(error.description)
                }
            }
        }
    }
}
