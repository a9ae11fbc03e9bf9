import CBenchSupport
import Dispatch
import GestureEngine
import Glibc
import GesturedClient
import GesturedDaemon
import GesturedLogging
import GesturedProtocol
import GesturedSystem
import Synchronization

/// `gestured-bench daemon`: an in-process daemon (replay back-end, real Unix socket in a
/// temporary directory) with `clients` subscribed socket clients while `devices` synthesized
/// touchscreens replay at 240 Hz in real time; then the `gestured` binary idle as a child.
struct DaemonBenchmark {
    var clients: Int
    var devices: Int
    var idleSeconds: Int
    var gesturedPath: String?
    /// Print the loop thread's allocation sites in the window seen at least this often (0: off).
    var allocationSites = 0
    /// Run the bare send(2) loop after the load (`--bare-send 0` skips it).
    var bareSend = true
    /// Replay the touchpad cycle (``touchpadRecording(device:)``) instead of the touchscreen's
    /// (`--touchpad`): the touch filter's touchpad stages run, as on the guest benchmark's T650.
    var touchpad = false
    /// Replay this evemu recording on every device instead of a synthesized cycle
    /// (`--recording FILE`), e.g. the guest latency benchmark's T650 cycle, made on the host
    /// by `gesturectl synthesize` (`scripts/bench-instructions.sh --guest-cycle`).
    var recordingPath: String?

    func run() async {
        await runLoad()
        runIdle()
    }

    // MARK: - Load

    /// About eight seconds of gestures at 240 Hz: pinches, rotations, edge pans, swipes, taps
    /// and drags, so that continuous gestures change in most frames.
    static func recording(device index: Int) -> LoadedRecording {
        let device = GestureSynthesizer.demoTouchscreen
        var s = GestureSynthesizer(device: device, frameInterval: 1.0 / 240, jitterMillimeters: 0.05, seed: UInt64(index + 1))
        let script = GestureScript.sequence(
            [
                s.pinch(scale: 1.8, fingers: 2, at: .fraction(x: 0.4, y: 0.5), span: 40, duration: 1.5),
                s.rotation(angle: 1.5, fingers: 2, at: .fraction(x: 0.6, y: 0.5), span: 50, duration: 1.5),
                s.edgeSwipe(from: .left, distance: 60, duration: 0.8),
                s.swipe(fingers: 3, direction: .right, distance: 60, duration: 0.25),
                s.tap(at: .fraction(x: 0.3, y: 0.3)),
                s.pinch(scale: 0.6, fingers: 3, at: .fraction(x: 0.5, y: 0.5), span: 60, duration: 1.5),
                s.edgeSwipe(from: .bottom, distance: 50, duration: 0.8),
                s.rotation(angle: -1.2, fingers: 2, at: .fraction(x: 0.5, y: 0.4), span: 40, duration: 1.2),
            ],
            gap: 0.25
        )
        return loaded(device: device, events: s.events(for: script, startingAt: Timestamp(seconds: 100)), index: index)
    }

    /// About eight seconds of touchpad gestures at 240 Hz on the demo clickpad: three- and
    /// four-finger swipes and pinches, as in the guest's latency benchmark
    /// (`scripts/vm/latency`), and two- and three-finger taps, so the touchpad's filter
    /// stages (held lifts, tap guard, thumbs, fake fingers) are on the path.
    static func touchpadRecording(device index: Int) -> LoadedRecording {
        let device = GestureSynthesizer.demoClickpad
        var s = GestureSynthesizer(device: device, frameInterval: 1.0 / 240, jitterMillimeters: 0.05, seed: UInt64(index + 1))
        let script = GestureScript.sequence(
            [
                s.swipe(fingers: 3, direction: .left),
                s.swipe(fingers: 4, direction: .right),
                s.pinch(scale: 1.6, duration: 1.0),
                s.tap(fingers: 2),
                s.pinch(scale: 0.6, duration: 1.0),
                s.swipe(fingers: 3, direction: .up, distance: 30),
                s.tap(fingers: 3),
                s.swipe(fingers: 4, direction: .left),
                s.pinch(scale: 1.4, duration: 1.0),
                s.swipe(fingers: 3, direction: .right),
                s.pinch(scale: 0.7, duration: 1.0),
                s.tap(fingers: 2),
                s.swipe(fingers: 4, direction: .down, distance: 30),
                s.pinch(scale: 1.5, duration: 1.0),
            ],
            gap: 0.25
        )
        return loaded(device: device, events: s.events(for: script, startingAt: Timestamp(seconds: 100)), index: index)
    }

    private static func loaded(device: DeviceDescription, events: [RawEvent], index: Int) -> LoadedRecording {
        // Through evemu text, as a recording file would arrive (LoadedRecording has no public
        // memberwise initializer).
        let text = EvemuWriter.recording(device: device, events: events)
        do {
            return try RecordingLoader.parse(text: text, name: "bench-\(index).evemu", description: nil)
        } catch {
            fatalError("the synthesized recording does not parse: \(error)")
        }
    }

    /// Notes the monotonic time of each replay's "Replay started" record: the replay back-end
    /// logs it synchronously just before it reads the clock for the replay's wall origin.
    final class OriginSink: LogSink {
        let origins = Mutex<[String: UInt64]>([:])
        let problems = Mutex<[String]>([])

        func write(_ record: LogRecord) {
            let now = monotonicNanoseconds()
            if record.message == "Replay started", let node = record.metadata.first(where: { $0.key == "device.node" })?.value {
                origins.withLock { $0[node] = now }
            }
            if record.level >= .warning { problems.withLock { $0.append(record.renderedLine) } }
        }
    }

    /// What one reader thread saw.
    struct Received: Sendable {
        /// Gesture events (lines with `"time_us":`; counted on the probe client only).
        var events = 0
        /// Nanoseconds from the frame's due time to the line's arrival (probe client only).
        var latencies: [UInt64] = []
        /// First and last arrival of a line, monotonic ns.
        var first: UInt64 = .max
        var last: UInt64 = 0
        /// Lines (messages of any type) per client.
        var linesPerClient: [Int] = []
        /// CPU time of the thread that read them, ns.
        var cpu: UInt64 = 0
        /// Reads that returned bytes, and the bytes (probe client only).
        var writes = 0
        var bytes = 0
    }

    func runLoad() async {
        let recordings: [LoadedRecording]
        if let recordingPath {
            do {
                let loaded = try RecordingLoader.load(path: recordingPath, descriptionPath: nil)
                recordings = Array(repeating: loaded, count: devices)
            } catch {
                print("gestured-bench daemon: \(error)")
                return
            }
        } else {
            recordings = (0..<devices).map { touchpad ? Self.touchpadRecording(device: $0) : Self.recording(device: $0) }
        }
        let surface = recordingPath.map { "\($0), \(recordings[0].device.name)" } ?? (touchpad ? "demo clickpad, synthesized" : "demo touchscreen, synthesized")
        let frameCount = recordings[0].events.count { $0.usage == .synReport }
        let firstTime = recordings.map { $0.events.first!.time.microseconds }
        let duration = Double(recordings[0].events.last!.time.microseconds - firstTime[0]) / 1e6
        print("gestured-bench daemon: \(clients) clients, \(devices) devices replaying at 240 Hz in real time")
        print("each device: \(frameCount) frames over \(fixed(duration, 1)) s (\(surface))")
        let baseHWM = Self.status(pid: "self", field: "VmHWM") ?? 0

        guard let dir = Files.makeTemporaryDirectory(prefix: "/tmp/gestured-bench-") else {
            print("cannot make a temporary directory")
            return
        }
        var options = DaemonOptions()
        options.socketPath = dir + "/gestured.sock"
        options.socketGroup = ""
        options.useUdev = false
        options.exitAfterReplays = true
        options.replayWaitClients = clients
        options.replays = recordings.enumerated().map {
            ReplayRequest(node: "replay:\($0.offset)", recording: $0.element, pacing: .realtime(speed: 1))
        }
        let sink = OriginSink()
        let daemon = Daemon(options: options, logger: Logger(label: "bench", level: .notice, sink: sink))
        let results = Mutex<[Received]>([])
        let clientCount = clients
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let cpu0 = cbs_process_cpu_nanoseconds()
        let wall0 = monotonicNanoseconds()
        let window = Mutex<LoopWindow?>(nil)
        let deviceCount = recordings.count
        let traceSites = allocationSites > 0
        let code = await daemon.run { path in
            DispatchQueue(label: "bench-window").async {
                window.withLock { $0 = Self.sampleLoopThread(origins: sink, devices: deviceCount, traceSites: traceSites) }
            }
            DispatchQueue(label: "bench-clients").async {
                let received = Self.runClients(path: path, count: clientCount, origins: sink, firstTimes: firstTime)
                results.withLock { $0 = received }
                finish.yield()
                finish.finish()
            }
        }
        for await _ in finished { break }
        let wall = Double(monotonicNanoseconds() - wall0) / 1e9
        let cpu = Double(cbs_process_cpu_nanoseconds() - cpu0) / 1e9
        Files.removeDirectory(dir)
        let hwm = Self.status(pid: "self", field: "VmHWM") ?? 0

        let all = results.withLock { $0 }
        let probe = all.first { !$0.latencies.isEmpty } ?? Received()
        let lines = all.flatMap(\.linesPerClient)
        let totalLines = lines.reduce(0, +)
        let probeLines = probe.linesPerClient.first ?? 0
        // Every client has the same subscription, so each gets the probe's gesture events
        // unless it was cut off; the other lines (device_added/removed, shutdown) are few.
        let gestureShare = probeLines > 0 ? Double(probe.events) / Double(probeLines) : 0
        let events = Int((Double(totalLines) * gestureShare).rounded())
        let first = all.map(\.first).min() ?? 0
        let last = all.map(\.last).max() ?? 0
        let span = Double(last &- first) / 1e9
        let latencies = Summary(probe.latencies)
        let clientCPU = Double(all.reduce(0) { $0 + $1.cpu }) / 1e9
        print(
            "daemon exit: \(code), wall \(fixed(wall, 1)) s; process CPU \(fixed(cpu, 2)) s, of which client threads "
                + "\(fixed(clientCPU, 2)) s, daemon \(fixed(cpu - clientCPU, 2)) s"
        )
        for problem in sink.problems.withLock({ $0 }).prefix(5) { print("  daemon log: \(problem)") }
        print("delivered: \(totalLines) messages, \(events) of them gesture events, to \(lines.count) clients in \(fixed(span, 2)) s")
        print("  = \(fixed(Double(events) / max(span, 1e-9), 0)) gesture events/s (\(probe.events) per client; lines per client min \(lines.min() ?? 0), max \(lines.max() ?? 0))")
        print("  daemon CPU per delivered message: \(fixed((cpu - clientCPU) * 1e6 / Double(max(totalLines, 1)), 2)) µs")
        print(
            "frame to client: p50 \(fixed(latencies.median / 1000, 0)) µs, p99 \(fixed(latencies.p99 / 1000, 0)) µs, "
                + "min \(fixed(latencies.percentile(0) / 1000, 0)) µs, max \(fixed(latencies.percentile(100) / 1000, 0)) µs "
                + "over \(latencies.count) events of the probe client"
        )
        let tenth = max(1, probe.latencies.count / 10)
        let deciles = stride(from: 0, to: probe.latencies.count, by: tenth).map {
            fixed(Summary(probe.latencies[$0..<min($0 + tenth, probe.latencies.count)].map { $0 }).median / 1000, 0)
        }
        print("  p50 by tenth of the run (µs): \(deciles.joined(separator: " "))")
        print("peak RSS (VmHWM, in-process: daemon + \(clientCount) clients + the benchmark): \(hwm / 1024) MiB (before the daemon started: \(baseHWM / 1024) MiB)")
        if let w = window.withLock({ $0 }) {
            // Frames the devices played in the window, from the recordings' own times.
            let frames = recordings.indices.reduce(0) { total, d in
                total + recordings[d].events.count {
                    let offset = $0.time.microseconds - firstTime[d]
                    return $0.usage == .synReport && offset >= Self.windowStart && offset < Self.windowEnd
                }
            }
            let perFrame = Double(w.allocations) / Double(max(frames, 1))
            print(
                "daemon loop thread, \(Self.windowStart / 1_000_000)–\(Self.windowEnd / 1_000_000) s of the replay (\(frames) frames of \(recordings.count) devices): "
                    + "\(fixed(perFrame, 2)) heap allocations per frame, \(fixed(Double(w.cpuNanoseconds) / 1000 / Double(max(frames, 1)), 2)) µs CPU per frame "
                    + "(\(w.allocations) allocations, \(fixed(Double(w.cpuNanoseconds) / 1e6, 1)) ms)")
            if allocationSites > 0 {
                print("daemon loop thread's allocation sites in the window (stacks seen at least \(allocationSites) times; addr2line -f -e BINARY OFFSET):")
                cbs_trace_report(UInt64(allocationSites))
            }
        } else {
            print("daemon loop thread: not found (no thread named 'gestured')")
        }
        guard bareSend, totalLines > 0, span > 0 else { return }
        // The kernel's part, same run: one line of the run's mean size per write, to as many
        // sockets, at the run's rate of lines per client: what one send(2) per delivered
        // message would cost, with no daemon around it.
        let bytesPerLine = probe.bytes / max(probeLines, 1)
        let linesPerSecond = Double(probeLines) / span
        let bare = BareSend(
            sockets: clientCount, bytesPerWrite: max(1, bytesPerLine), linesPerWrite: 1,
            roundsPerSecond: linesPerSecond, rounds: max(200, Int(linesPerSecond * 3)))
        if let result = bare.run() {
            let ours = (cpu - clientCPU) * 1e9 / Double(max(totalLines, 1))
            print(
                "bare send(2), same run: \(result.writes) writes of one \(bytesPerLine)-byte line to \(clientCount) socketpairs "
                    + "read by 4 polling threads, \(fixed(bare.roundsPerSecond, 0)) rounds/s for 3 s: "
                    + "\(fixed(result.cpuPerWrite / 1000, 2)) µs CPU per write; daemon CPU per delivered message / bare write: "
                    + "\(fixed(ours / result.cpuPerWrite, 2))x (the probe read \(fixed(Double(probeLines) / Double(max(probe.writes, 1)), 2)) lines per read)")
        }
    }

    /// What the daemon's loop thread did in a window of the replay.
    struct LoopWindow: Sendable {
        var allocations: UInt64
        var cpuNanoseconds: UInt64
    }

    /// The window of the replay sampled on the loop thread, µs from its first event: after
    /// the start (clients connecting, first gestures) and before the end.
    static let windowStart: Int64 = 2_000_000
    static let windowEnd: Int64 = 8_000_000

    /// Waits for the replays to start, then reads the loop thread's (the thread named
    /// `gestured`) allocation count and run time at the window's start and end.
    static func sampleLoopThread(origins: OriginSink, devices: Int, traceSites: Bool) -> LoopWindow? {
        var origin: UInt64?
        for _ in 0..<3000 {
            let known = origins.origins.withLock { $0 }
            if devices > 0, known.count >= devices { origin = known.values.min() }
            if origin != nil { break }
            usleep(10_000)
        }
        guard let origin, let tid = loopThreadID() else { return nil }
        func sleep(until offset: Int64) {
            let due = origin + UInt64(offset) * 1000
            let now = monotonicNanoseconds()
            if due > now { usleep(UInt32((due - now) / 1000)) }
        }
        sleep(until: windowStart)
        if traceSites { cbs_trace_thread(tid) }
        let a0 = cbs_thread_allocation_count(tid)
        let c0 = threadRunNanoseconds(tid)
        sleep(until: windowEnd)
        let a1 = cbs_thread_allocation_count(tid)
        let c1 = threadRunNanoseconds(tid)
        if traceSites { cbs_trace_thread(0) }
        return LoopWindow(allocations: a1 - a0, cpuNanoseconds: c1 &- c0)
    }

    /// The kernel id of this process's thread named `gestured` (the daemon's event loop).
    static func loopThreadID() -> Int32? {
        guard let dir = opendir("/proc/self/task") else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let tid = Int32(name), let comm = try? Files.readText(path: "/proc/self/task/\(name)/comm") else { continue }
            if comm == "gestured\n" { return tid }
        }
        return nil
    }

    /// A thread's run time so far (the first field of /proc/self/task/TID/schedstat, ns).
    static func threadRunNanoseconds(_ tid: Int32) -> UInt64 {
        guard let text = try? Files.readText(path: "/proc/self/task/\(tid)/schedstat") else { return 0 }
        return UInt64(text.split(separator: " ").first ?? "") ?? 0
    }

    /// Connects and subscribes `count` clients, then reads them on a few threads until the
    /// daemon closes them.
    static func runClients(path: String, count: Int, origins: OriginSink, firstTimes: [Int64]) -> [Received] {
        let cpu0 = cbs_thread_cpu_nanoseconds()
        var connected: [IPCClient] = []
        for i in 0..<count {
            do {
                let client = try IPCClient(path: path, clientName: "bench-\(i)")
                _ = try client.request(.subscribe(SubscribeRequest()))
                connected.append(client)
            } catch {
                writeStandardError("gestured-bench: client \(i): \(error)\n")
                break
            }
        }
        // One probe client on its own thread parses every line for latency; the others are
        // read by a few threads that only count lines, to leave the cores to the daemon.
        let group = DispatchGroup()
        let results = Mutex<[Received]>([])
        var sets: [(clients: [IPCClient], probe: Bool)] = [([connected[0]], true)]
        let bulkReaders = 3
        for r in 0..<bulkReaders {
            sets.append((stride(from: 1 + r, to: connected.count, by: bulkReaders).map { connected[$0] }, false))
        }
        for (r, set) in sets.enumerated() where !set.clients.isEmpty {
            group.enter()
            DispatchQueue(label: "bench-reader-\(r)").async {
                let got = read(set.clients, origins: origins, firstTimes: firstTimes, probe: set.probe)
                results.withLock { $0.append(got) }
                group.leave()
            }
        }
        group.wait()
        for c in connected { c.close() }
        var connecting = Received()
        connecting.cpu = cbs_thread_cpu_nanoseconds() - cpu0
        return results.withLock { $0 } + [connecting]
    }

    /// Reads raw lines from `clients` until every one is closed. On the probe, a line with
    /// `"time_us":` is a gesture event; its latency is its arrival minus the frame's due time
    /// (the replay's origin plus the frame's offset in the recording).
    static func read(_ clients: [IPCClient], origins: OriginSink, firstTimes: [Int64], probe: Bool) -> Received {
        var result = Received()
        let cpu0 = cbs_thread_cpu_nanoseconds()
        result.linesPerClient = Array(repeating: 0, count: clients.count)
        var fds = clients.map { pollfd(fd: $0.connection.fileDescriptor, events: Int16(POLLIN), revents: 0) }
        var partial = [[UInt8]](repeating: [], count: clients.count)
        var open = clients.count
        let timeKey = Array("\"time_us\":".utf8)
        let deviceKey = Array("\"device\":\"replay:".utf8)
        var originCache: [Int: UInt64] = [:]
        while open > 0 {
            let n = poll(&fds, nfds_t(fds.count), 1000)
            if n <= 0 { continue }
            let arrival = monotonicNanoseconds()
            for k in fds.indices where fds[k].revents != 0 && fds[k].fd >= 0 {
                fds[k].revents = 0
                guard case .bytes(let bytes) = (try? clients[k].connection.read()) ?? .endOfFile else {
                    fds[k].fd = -1
                    open -= 1
                    continue
                }
                result.first = min(result.first, arrival)
                result.last = max(result.last, arrival)
                if probe {
                    result.writes += 1
                    result.bytes += bytes.count
                }
                if !probe {
                    result.linesPerClient[k] += bytes.count { $0 == UInt8(ascii: "\n") }
                    continue
                }
                var start = 0
                for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
                    let line = partial[k].isEmpty ? Array(bytes[start..<i]) : partial[k] + bytes[start..<i]
                    partial[k].removeAll()
                    start = i + 1
                    result.linesPerClient[k] += 1
                    guard let time = number(after: timeKey, in: line) else { continue }
                    result.events += 1
                    guard let device = number(after: deviceKey, in: line) else { continue }
                    let origin: UInt64
                    if let o = originCache[Int(device)] {
                        origin = o
                    } else if let o = origins.origins.withLock({ $0["replay:\(device)"] }) {
                        originCache[Int(device)] = o
                        origin = o
                    } else {
                        continue
                    }
                    let due = Int64(origin) + (time - firstTimes[Int(device)]) * 1000
                    result.latencies.append(UInt64(max(0, Int64(arrival) - due)))
                }
                if start < bytes.count { partial[k] += bytes[start...] }
            }
        }
        result.cpu = cbs_thread_cpu_nanoseconds() - cpu0
        return result
    }

    /// The decimal integer right after `key` in `line`.
    static func number(after key: [UInt8], in line: [UInt8]) -> Int64? {
        guard line.count > key.count else { return nil }
        var i = 0
        search: while i + key.count <= line.count {
            for j in key.indices where line[i + j] != key[j] {
                i += 1
                continue search
            }
            var k = i + key.count
            var value: Int64 = 0
            var digits = 0
            while k < line.count, line[k] >= 48, line[k] <= 57 {
                value = value * 10 + Int64(line[k] - 48)
                k += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        return nil
    }

    // MARK: - Idle

    /// Runs `gestured --no-udev` as a child with no devices and reads its CPU ticks before and
    /// after `idleSeconds` of idleness.
    func runIdle() {
        let path = gesturedPath ?? Self.siblingGestured()
        guard let path, Files.exists(path) else {
            print("idle: no gestured binary (build it: swift build -c release --product gestured, or pass --gestured PATH)")
            return
        }
        guard let dir = Files.makeTemporaryDirectory(prefix: "/tmp/gestured-bench-idle-") else { return }
        defer { Files.removeDirectory(dir) }
        guard idleSeconds > 0 else { return }
        // Ready once the socket exists (a test connection would wake worker threads that
        // then time out inside the measured window); then let start-up settle.
        guard let pid = Self.startIdleDaemon(path, in: dir, label: "idle") else { return }
        defer { Self.stop(pid) }
        sleep(2)
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard let before = Self.cpuTicks(pid: pid) else { return }
        let runtimeBefore = Self.threadTotals(pid: pid)
        var perSecond: [Int] = []
        var previous = runtimeBefore.nanoseconds
        for _ in 0..<idleSeconds {
            sleep(1)
            let now = Self.threadTotals(pid: pid).nanoseconds
            perSecond.append(now - previous)
            previous = now
        }
        guard let after = Self.cpuTicks(pid: pid) else { return }
        let runtimeAfter = Self.threadTotals(pid: pid)
        let rss = Self.status(pid: "\(pid)", field: "VmRSS") ?? 0
        let hwm = Self.status(pid: "\(pid)", field: "VmHWM") ?? 0
        print("")
        print("idle: \(path) --no-udev, no devices, no clients, for \(idleSeconds) s")
        print("  CPU ticks (utime+stime, \(ticksPerSecond)/s): \(after - before) (before \(before), after \(after))")
        print(
            "  CPU time (schedstat, all \(runtimeAfter.threads) threads): \(runtimeAfter.nanoseconds - runtimeBefore.nanoseconds) ns; "
                + "context switches: \(runtimeAfter.switches - runtimeBefore.switches)"
        )
        print("  CPU ns in each second: \(perSecond.map(String.init).joined(separator: " "))")
        print("  RSS \(rss / 1024) MiB, peak RSS (VmHWM) \(hwm / 1024) MiB")
        if let smaps = SmapsBreakdown(pid: pid) { print("  \(smaps.summary) (the table: gestured-bench rss)") }
    }

    /// `gestured` next to this executable (both are built into the same directory).
    static func siblingGestured() -> String? {
        guard let me = Files.executablePath(), let slash = me.lastIndex(of: "/") else { return nil }
        return String(me[..<slash]) + "/gestured"
    }

    /// Starts `path --no-udev` with the shipped defaults, its files in `dir`, and returns its
    /// pid once its socket exists; nil (said with `label`) if it does not start or never
    /// creates the socket. Readiness is the socket file, not a connection, so no worker thread
    /// is woken inside what the caller measures next.
    static func startIdleDaemon(_ path: String, in dir: String, label: String) -> pid_t? {
        let config = dir + "/gestured.conf"
        try? Files.writeText(EmbeddedResources.defaultConfiguration, path: config)
        let socket = dir + "/gestured.sock"
        guard let pid = spawn([path, "--no-udev", "--config", config, "--socket", socket], log: dir + "/gestured.log") else {
            print("\(label): could not start \(path)")
            return nil
        }
        for _ in 0..<200 {
            if Files.exists(socket) { return pid }
            usleep(50_000)
        }
        print("\(label): \(path) did not create its socket")
        stop(pid)
        return nil
    }

    /// Stops a daemon started by `startIdleDaemon` and reaps it.
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Starts `arguments[0]` with its output and log (stderr) sent to `log`.
    static func spawn(_ arguments: [String], log: String) -> pid_t? {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let rc = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        return rc == 0 ? pid : nil
    }

    /// utime + stime of `pid` (fields 14 and 15 of /proc/PID/stat), in clock ticks.
    static func cpuTicks(pid: pid_t) -> Int? {
        guard let text = try? Files.readText(path: "/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else {
            return nil
        }
        // Fields after the command name, which is in parentheses and may contain spaces.
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); utime is field 14, stime field 15.
        guard fields.count > 12, let utime = Int(fields[11]), let stime = Int(fields[12]) else { return nil }
        return utime + stime
    }

    /// Run time (`/proc/PID/task/TID/schedstat`, ns) and context switches (voluntary and not,
    /// from `status`) summed over the threads of `pid`: exact, where stat's ticks are rounded.
    static func threadTotals(pid: pid_t) -> (nanoseconds: Int, switches: Int, threads: Int) {
        var nanoseconds = 0
        var switches = 0
        let tasks = Files.listDirectory("/proc/\(pid)/task", suffix: "")
        for task in tasks {
            if let text = try? Files.readText(path: task + "/schedstat"), let first = text.split(separator: " ").first {
                nanoseconds += Int(first) ?? 0
            }
            let tid = String(task.split(separator: "/").last ?? "")
            switches += (status(pid: "\(pid)/task/\(tid)", field: "voluntary_ctxt_switches") ?? 0)
            switches += (status(pid: "\(pid)/task/\(tid)", field: "nonvoluntary_ctxt_switches") ?? 0)
        }
        return (nanoseconds, switches, tasks.count)
    }

    /// A `kB` field of /proc/PID/status, in KiB.
    static func status(pid: String, field: String) -> Int? {
        guard let text = try? Files.readText(path: "/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
