import GestureEngine
public import GesturedCLISupport
import GesturedConfig
public import GesturedLogging
import GesturedProtocol
import GesturedSystem

/// What the daemon needs to start. Everything comes from `main` (arguments and environment
/// read once, STYLE.md B13).
public struct DaemonOptions: Sendable {
    /// The main configuration file; nil = the installed `/etc/gestured/gestured.conf` (and
    /// built-in defaults when that does not exist).
    public var configPath: String?
    /// Overrides `SocketPath=`.
    public var socketPath: String?
    /// Overrides `SocketGroup=` ("" keeps the daemon's own group: demo and tests).
    public var socketGroup: String?
    public var environment: [String: String] = [:]
    /// Replays to play as devices (daemon tests and `--demo`), instead of or beside udev.
    public var replays: [ReplayRequest] = []
    /// Follow udev and open real devices (off for pure replay runs).
    public var useUdev = true
    /// Stop when every replay has finished (demo).
    public var exitAfterReplays = false
    /// Start the replays only once this many clients have subscribed.
    public var replayWaitClients = 0
    /// Follow logind on the system bus (`DBUS_SYSTEM_BUS_ADDRESS` of ``environment``, else
    /// the standard socket) for the seats' lock state. nil: when udev is followed (a daemon
    /// of real devices) or the environment names a system bus; a replay-only daemon (demo,
    /// tests) then stays off the machine's real bus.
    public var followLogind: Bool?

    public init() {}
}

/// A recording to play through the daemon as a device.
public struct ReplayRequest: Sendable {
    public var node: String
    public var recording: LoadedRecording
    public var pacing: ReplayPacing

    public init(node: String, recording: LoadedRecording, pacing: ReplayPacing) {
        self.node = node
        self.recording = recording
        self.pacing = pacing
    }
}

/// The service: loads the configuration, binds or adopts the socket, runs the input and IPC
/// domains, and sequences reload and graceful shutdown (STYLE.md B1.5, B8).
public final class Daemon: Sendable {
    public let options: DaemonOptions
    let logger: Logger
    let state: DaemonState
    let notifier: SystemdNotifier
    /// One event loop for input and clients: the thread a device wakes reads the frame, runs
    /// the engine and writes the gestures to the sockets (DESIGN.md "Daemon, event loop and socket protocol" › "One event loop"). The
    /// daemon's state is confined to it.
    let loop = EventLoop(name: "gestured")

    public init(options: DaemonOptions, logger: Logger) {
        self.options = options
        self.logger = logger
        self.state = DaemonState(startedAtMicroseconds: MonotonicClock.nowMicroseconds(), loop: loop)
        self.notifier = SystemdNotifier(environment: options.environment)
    }

    deinit { loop.stop() }

    /// Runs until SIGTERM/SIGINT (or the last replay with `exitAfterReplays`).
    /// - Parameter ready: called once the socket accepts clients, with its path (tests).
    public func run(ready: @Sendable (String) -> Void = { _ in }) async -> ExitCode {
        ignoreBrokenPipeSignal()
        // Load configuration first: a broken one must stop the daemon with EX_CONFIG before
        // anything is bound, so systemd does not restart-loop (RestartPreventExitStatus=78).
        let loaded: LoadedConfiguration
        switch ConfigLoader.load(mainPath: options.configPath) {
        case .success(let l):
            loaded = l
            for warning in l.warnings { logger.warning("Configuration warning", [("diagnostic", warning)]) }
        case .failure(let failure):
            for line in failure.lines { logger.error("Configuration error", [("diagnostic", line)]) }
            logger.critical("Failed to load the configuration, not starting", [("config.path", failure.path)])
            return .config
        }
        let current = ConfigurationBox(loaded)
        let state = self.state
        await withTaskExecutorPreference(loop) { state.setConfiguration(path: loaded.path, gestureCount: loaded.gestureCount, gestureNames: loaded.gestureNames) }

        // The socket: inherited from systemd (gestured.socket) or bound here.
        let listener: UnixListener
        let socketPath = options.socketPath ?? loaded.daemon.socketPath
        let fds = ListenFDs.descriptors(environment: options.environment, pid: ListenFDs.currentPID)
        var adopted: UnixListener?
        if let fd = fds.first, options.socketPath == nil {
            do {
                adopted = try UnixListener.adopt(fileDescriptor: fd)
                logger.notice("Using the socket passed by systemd", [("socket.fd", "\(fd)")])
            } catch {
                logger.warning("Ignoring the descriptor passed by systemd, binding the socket path instead", [("error", "\(error)")])
            }
        }
        if let adopted {
            listener = adopted
        } else {
            do {
                Files.makeDirectories(parentDirectory(of: socketPath))
                let groupName = options.socketGroup ?? loaded.daemon.socketGroup
                let group = groupName.isEmpty ? nil : groupID(named: groupName)
                if !groupName.isEmpty, group == nil {
                    logger.warning("Socket group does not exist, keeping the daemon's group", [("socket.group", groupName)])
                }
                listener = try UnixListener.bind(path: socketPath, mode: loaded.daemon.socketMode, group: group)
            } catch {
                logger.critical("Failed to bind the socket", [("socket.path", socketPath), ("error", "\(error)")])
                return .failure
            }
        }

        let loop = self.loop
        defer { loop.stop() }
        let server = IPCServer(
            loop: loop,
            listener: listener,
            settings: loaded.ipcSettings,
            state: state,
            logger: logger.with([("domain", "ipc")]),
            reloadHandler: { [self] in await self.reload(current, trigger: "reload request") }
        )
        self.server.set(server)
        let hub = InputHub(loop: loop, publisher: server, state: state, logger: logger.with([("domain", "input")]), configurator: loaded.configurator)
        self.hub.set(hub)
        await hub.setGesturesWhenLocked(loaded.configuration.gesturesWhenLocked)
        // logind's seats and lock state: one more descriptor on the same loop.
        var tracker: LogindTracker?
        if options.followLogind ?? (options.useUdev || options.environment["DBUS_SYSTEM_BUS_ADDRESS"] != nil) {
            let logind = LogindTracker(
                loop: loop, sessions: state.seatSessions, logger: logger.with([("domain", "logind")]),
                address: SDBusConnection.address(environment: options.environment))
            await logind.start()
            tracker = logind
        } else {
            state.seatSessions.replace([], availability: .absent)
        }

        // Signals are handled before the first client is served (a client may answer a
        // reply with SIGTERM; a SIG_IGN inherited from the parent must not swallow it), and
        // also while replays wait for their audience.
        let signals = SignalSource()
        let events = AsyncStream.makeStream(of: String.self)
        stopRequests.set(events.continuation)
        let signalStream = signals.signals
        // Tasks of the daemon run on its loop (an unstructured task would otherwise start on
        // libdispatch's worker pool: DESIGN.md "Daemon, event loop and socket protocol" › "One event loop").
        let signalTask = Task(executorPreference: loop) {
            for await signal in signalStream { events.continuation.yield(signal.name) }
        }
        await server.start()
        ready(socketPath)
        if options.useUdev { await hub.startHotplug() }
        let replays = options.replays
        let waitClients = options.replayWaitClients
        let replayTask = Task(executorPreference: loop) {
            guard !replays.isEmpty else { return }
            if waitClients > 0 { await server.waitForSubscribers(waitClients) }
            let remaining = Counter(replays.count)
            for replay in replays {
                let device = replay.recording.device
                let kind = device.kind ?? .touchscreen
                await hub.addReplay(node: replay.node, device: device, kind: kind, events: replay.recording.events, pacing: replay.pacing) {
                    if remaining.decrement() == 0 { events.continuation.yield("replays finished") }
                }
            }
        }
        let deviceCount = await hub.deviceNodes.count
        notifier.notify("READY=1\nSTATUS=Watching \(deviceCount) touch device(s)")
        logger.notice("Started", [("socket.path", socketPath), ("devices", "\(deviceCount)"), ("config.path", loaded.path ?? "built-in defaults")])

        var reason = "stopped"
        loop: for await event in events.stream {
            switch event {
            case "SIGHUP":
                notifier.notify("RELOADING=1")
                _ = await reload(current, trigger: "SIGHUP")
                notifier.notify("READY=1")
            case "replays finished":
                if options.exitAfterReplays {
                    reason = "replay finished"
                    break loop
                }
            default:
                reason = event
                break loop
            }
        }
        signalTask.cancel()
        replayTask.cancel()
        signals.cancel()

        // Graceful shutdown: stop input (clients receive cancelled for gestures in flight),
        // then tell clients and close them, then remove the socket.
        notifier.notify("STOPPING=1")
        logger.notice("Stopping", [("reason", reason)])
        await hub.shutdown()
        await tracker?.stop()
        await server.flushPublished()
        await server.shutdown(reason: reason)
        return .success
    }

    let server = Holder<IPCServer>()
    let hub = Holder<InputHub>()
    let stopRequests = Holder<AsyncStream<String>.Continuation>()

    /// Asks a running daemon to stop as SIGTERM would (embedding, tests).
    public func stop(reason: String = "stop requested") {
        stopRequests.get()?.yield(reason)
    }

    /// Reloads the configuration; nil on success, or the problems found (old one kept), joined
    /// on one line for the socket's error reply. Either way the outcome is logged here, whoever
    /// asked (`trigger`: SIGHUP or a client's `reload`), a failure's diagnostics one a line.
    /// The files are read and parsed on a thread of their own at the lowest priority, so input
    /// never waits for the disk nor for the parser's CPU (STYLE.md B8).
    func reload(_ current: ConfigurationBox, trigger: String) async -> String? {
        let path = current.value.path ?? options.configPath
        let started = MonotonicClock.nowMicroseconds()
        // At the lowest priority: on a busy CPU, reading input goes first.
        switch await runOnOwnThread(background: true, { ConfigLoader.load(mainPath: path) }) {
        case .failure(let failure):
            for line in failure.lines { logger.error("Configuration error", [("diagnostic", line)]) }
            logger.error("Reload failed, keeping the old configuration", [("config.path", failure.path), ("trigger", trigger)])
            return failure.lines.joined(separator: "; ")
        case .success(let loaded):
            let read = MonotonicClock.nowMicroseconds()
            for warning in loaded.warnings { logger.warning("Configuration warning", [("diagnostic", warning)]) }
            current.value = loaded
            // The state and both actors live on the loop: hop there once (the SIGHUP path
            // comes from the main task's own loop) and apply the whole configuration in one go.
            let state = self.state
            let server = self.server.get()
            let hub = self.hub.get()
            await withTaskExecutorPreference(loop) {
                state.setConfiguration(path: loaded.path, gestureCount: loaded.gestureCount, gestureNames: loaded.gestureNames)
                await server?.update(settings: loaded.ipcSettings)
                await hub?.reconfigure(loaded.configurator)
                await hub?.setGesturesWhenLocked(loaded.configuration.gesturesWhenLocked)
            }
            // How long the files took off the loop, and how long applying them held it.
            let applied = MonotonicClock.nowMicroseconds()
            logger.notice(
                "Configuration reloaded",
                [("config.path", loaded.path ?? "built-in defaults"), ("gestures", "\(loaded.gestureCount)"), ("trigger", trigger),
                 ("load_ms", "\((read - started) / 1000)"), ("apply_ms", "\((applied - read) / 1000)")])
            return nil
        }
    }
}

func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
}
