import Dispatch
import GestureEngine
import Glibc
import GesturedClient
import GesturedConfig
import GesturedDaemon
import GesturedProtocol
import GesturedSystem
import Synchronization

/// `gestured-bench soak`: the real `gestured` binary as a child, four synthesized
/// touchscreens replaying at 240 Hz (`--replay-device` × 4), and on its loopback Unix socket:
/// steady clients subscribed from the start, clients connecting and leaving at random, and
/// misbehaving clients (never read, read one byte a second, 64 KiB lines, random bytes,
/// close mid-write, half-open). Bounded by the replays' length and a connection count; stops
/// by itself. Prints what was delivered and lost, and the daemon's RSS and descriptors before
/// and after (docs/hostile-input.md). Exits 1 when a check fails.
struct SocketSoak {
    var churnConnections: Int
    var steadyClients: Int
    var gesturedPath: String?

    /// What the soak's checks found.
    final class Findings: Sendable {
        let problems = Mutex<[String]>([])
        let churnConnected = Mutex(0)
        let churnEvents = Mutex(0)
        let misbehavers = Mutex<[String]>([])
        /// Gesture lines per device node, per steady client and per churn connection.
        let steady = Mutex<[[String: [[UInt8]]]]>([])
        let churned = Mutex<[[String: [[UInt8]]]]>([])
        /// Steady clients subscribed so far.
        let subscribed = Mutex(0)
        /// Set when the replays have ended: every client stops.
        let done = Mutex(false)

        var isDone: Bool { done.withLock { $0 } }

        func problem(_ text: String) { problems.withLock { $0.append(text) } }
    }

    func run() -> Int32 {
        guard let path = gesturedPath ?? DaemonBenchmark.siblingGestured(), Files.exists(path) else {
            print("soak: no gestured binary (swift build --product gestured, or pass --gestured PATH)")
            return 1
        }
        guard let dir = Files.makeTemporaryDirectory(prefix: "/tmp/gestured-soak-") else { return 1 }
        defer { Files.removeDirectory(dir) }
        let configText = EmbeddedResources.defaultConfiguration
        let config = dir + "/gestured.conf"
        var arguments = [path, "--no-udev", "--config", config, "--socket", dir + "/gestured.sock"]
        arguments += ["--replay-wait-clients", "\(steadyClients)"]
        var expected: [String: (all: Int, milestones: Int)] = [:]
        do {
            try Files.writeText(configText, path: config)
            for index in 0..<4 {
                let recording = DaemonBenchmark.recording(device: index)
                let file = dir + "/device\(index).evemu"
                try Files.writeText(EvemuWriter.recording(device: recording.device, events: recording.events), path: file)
                arguments += ["--replay-device", file]
                expected["replay:" + file] = Self.expectedGestureEvents(recording, configText: configText)
            }
        } catch {
            print("soak: \(error)")
            return 1
        }
        let socket = dir + "/gestured.sock"
        guard let pid = DaemonBenchmark.spawn(arguments, log: dir + "/gestured.log") else {
            print("soak: could not start \(path)")
            return 1
        }
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        guard Self.waitForSocket(socket) else {
            print("soak: the daemon did not create its socket")
            return 1
        }
        // Warm-up: a few clients say hello and leave, so the "before" figures include what the
        // first connection allocates once.
        for i in 0..<20 { _ = try? IPCClient(path: socket, clientName: "warm-up-\(i)").request(.ping) }
        usleep(200_000)
        let before = (rss: DaemonBenchmark.status(pid: "\(pid)", field: "VmRSS") ?? 0, fds: Self.descriptorCount(pid))

        let findings = Findings()
        let group = DispatchGroup()
        // Steady clients: subscribed before the replays start (the daemon waits for them).
        // Every client has a thread of its own: they block, and Dispatch's pool is bounded.
        for i in 0..<steadyClients {
            group.enter()
            startThread {
                let lines = Self.readGestures(socket: socket, name: "steady-\(i)", deadline: nil, findings: findings)
                findings.steady.withLock { $0.append(lines) }
                group.leave()
            }
        }
        while findings.subscribed.withLock({ $0 }) < steadyClients { usleep(10_000) }
        // Then the misbehaving clients, there while everything else happens.
        for kind in Misbehaver.allCases {
            group.enter()
            startThread {
                let outcome = kind.run(socket: socket, findings: findings)
                findings.misbehavers.withLock { $0.append("\(kind): \(outcome)") }
                group.leave()
            }
        }
        // Churn: clients connecting and leaving at random while the devices replay.
        let perThread = churnConnections / 8
        for t in 0..<8 {
            group.enter()
            startThread {
                var random = SplitMix(seed: UInt64(t + 1))
                for i in 0..<perThread where !findings.isDone {
                    let stay = Int(random.next() % 120)
                    let lines = Self.readGestures(
                        socket: socket, name: "churn-\(t)-\(i)", deadline: monotonicNanoseconds() + UInt64(stay) * 1_000_000,
                        findings: findings)
                    findings.churnConnected.withLock { $0 += 1 }
                    findings.churned.withLock { $0.append(lines) }
                }
                group.leave()
            }
        }
        // The replays last about nine seconds; the steady clients return when all four
        // devices are removed. Then the others are told to stop.
        let steadyDone = DispatchGroup()
        steadyDone.enter()
        startThread {
            while findings.steady.withLock({ $0.count }) < steadyClients { usleep(50_000) }
            steadyDone.leave()
        }
        if steadyDone.wait(timeout: .now() + 60) == .timedOut { findings.problem("steady clients still reading after 60 s") }
        findings.done.withLock { $0 = true }
        if group.wait(timeout: .now() + 30) == .timedOut { findings.problem("clients still running 30 s after the replays ended") }

        // After: every client is gone; give the daemon a moment to notice the last closes.
        var after = (rss: 0, fds: 0)
        for _ in 0..<50 {
            after = (DaemonBenchmark.status(pid: "\(pid)", field: "VmRSS") ?? 0, Self.descriptorCount(pid))
            if after.fds <= before.fds { break }
            usleep(100_000)
        }
        let alive = kill(pid, 0) == 0
        if let log = try? Files.readText(path: dir + "/gestured.log") {
            let notable = log.split(separator: "\n").filter { !$0.contains("Replay") && !$0.contains("Client") }
            for line in notable.suffix(12) { print("  daemon log: \(line)") }
        }
        return report(
            findings: findings, expected: expected, steady: findings.steady.withLock { $0 }, churned: findings.churned.withLock { $0 },
            before: before, after: after, alive: alive)
    }

    func report(
        findings: Findings, expected: [String: (all: Int, milestones: Int)], steady: [[String: [[UInt8]]]], churned: [[String: [[UInt8]]]],
        before: (rss: Int, fds: Int), after: (rss: Int, fds: Int), alive: Bool
    ) -> Int32 {
        // The daemon's contract (Outbox, gestured-ipc(7)): a client that falls behind gets
        // fewer `changed` updates, coalesced, but every other event. So: every steady client
        // has, per device, exactly the reference's other events and as many as the same
        // recordings make through the pipeline in-process; and its `changed` lines are the
        // reference's in order, some perhaps left out.
        let reference = steady.first ?? [:]
        var delivered = 0
        var coalesced = 0
        for (index, lines) in steady.enumerated() {
            delivered += lines.values.reduce(0) { $0 + $1.count }
            for (node, count) in expected.sorted(by: { $0.key < $1.key }) {
                let got = lines[node] ?? []
                let kept = Self.milestones(got)
                if kept.count != count.milestones {
                    findings.problem("steady client \(index), \(node): \(kept.count) began/ended/recognized/cancelled events, the pipeline makes \(count.milestones)")
                }
                if kept != Self.milestones(reference[node] ?? []) {
                    findings.problem("steady client \(index), \(node): other began/ended/recognized/cancelled events than steady client 0")
                }
                if !Self.isOrdered(got) { findings.problem("steady client \(index), \(node): events out of order") }
                coalesced += max(0, count.all - got.count)
            }
        }
        // A churn client must see, per device, a contiguous run of the reference's milestones:
        // nothing lost in the middle, nothing out of order.
        var churnEvents = 0
        var gaps = 0
        let referenceMilestones = reference.mapValues { Self.milestones($0) }
        for lines in churned {
            for (node, all) in lines where !all.isEmpty {
                churnEvents += all.count
                let got = Self.milestones(all)
                guard !got.isEmpty else { continue }
                guard Self.isOrdered(all), let ref = referenceMilestones[node], let start = ref.firstIndex(of: got[0]),
                    start + got.count <= ref.count, Array(ref[start..<(start + got.count)]) == got
                else {
                    gaps += 1
                    continue
                }
            }
        }
        if gaps > 0 { findings.problem("\(gaps) churn client streams were not a contiguous run of the reference") }
        if !alive { findings.problem("the daemon died") }
        if after.fds != before.fds { findings.problem("descriptors: \(before.fds) before, \(after.fds) after") }
        // RSS: the allocator keeps freed pages; allow 2 MiB of slack over the start.
        if after.rss > before.rss + 2048 { findings.problem("RSS grew from \(before.rss) KiB to \(after.rss) KiB") }

        let expectedTotal = expected.values.reduce(0) { $0 + $1.all }
        print("gestured-bench soak: 4 devices replaying at 240 Hz, \(steady.count) steady clients, \(churned.count) churn connections, \(Misbehaver.allCases.count) misbehaving clients")
        let milestones = expected.values.reduce(0) { $0 + $1.milestones }
        print("expected gesture events per client: \(expectedTotal), of which \(milestones) began/ended/recognized/cancelled")
        print("delivered to \(steady.count) steady clients: \(delivered); changed updates coalesced for slow readers: \(coalesced); other events lost: \(findings.problems.withLock { $0 }.count { $0.contains("began/ended") })")
        print("delivered to churn clients: \(churnEvents) events, streams with a gap or reordering: \(gaps)")
        for line in findings.misbehavers.withLock({ $0 }).sorted() { print("  misbehaver \(line)") }
        print("daemon RSS: \(before.rss) KiB before, \(after.rss) KiB after; descriptors: \(before.fds) before, \(after.fds) after; running: \(alive)")
        let problems = findings.problems.withLock { $0 }
        for problem in problems { print("FAIL: \(problem)") }
        print(problems.isEmpty ? "soak: passed" : "soak: \(problems.count) problems")
        return problems.isEmpty ? 0 : 1
    }

    /// Gesture events the daemon should publish for one recording: the same pipeline, in process.
    static func expectedGestureEvents(_ recording: LoadedRecording, configText: String) -> (all: Int, milestones: Int) {
        let configuration = Configuration.parse(configText, fileName: "gestured.conf").configuration
        var pipeline = GesturePipeline(
            node: "soak", device: recording.device, configuration: configuration.engineConfiguration(for: recording.device))
        var outputs = pipeline.feed(recording.events)
        outputs += pipeline.finishReplay()
        let gestures = outputs.compactMap { if case .gesture(let event) = $0 { event } else { nil } }
        return (gestures.count, gestures.count { $0.state != .changed })
    }

    /// The lines that are not `changed` updates (the ones the daemon never coalesces).
    static func milestones(_ lines: [[UInt8]]) -> [[UInt8]] {
        let changed = Array("\"state\":\"changed\"".utf8)
        return lines.filter { !contains($0, changed) }
    }

    /// Whether the lines' `time_us` never decrease.
    static func isOrdered(_ lines: [[UInt8]]) -> Bool {
        let key = Array("\"time_us\":".utf8)
        var last: Int64 = .min
        for line in lines {
            guard let time = DaemonBenchmark.number(after: key, in: line) else { return false }
            if time < last { return false }
            last = time
        }
        return true
    }

    /// Connects, subscribes to every gesture and reads until the deadline, or (without one)
    /// until all four replay devices are removed. Returns the gesture lines per device node.
    static func readGestures(socket: String, name: String, deadline: UInt64?, findings: Findings) -> [String: [[UInt8]]] {
        var byDevice: [String: [[UInt8]]] = [:]
        let client: IPCClient
        do {
            client = try IPCClient(path: socket, clientName: name)
            guard case .ok = try client.request(.subscribe(SubscribeRequest())) else {
                findings.problem("\(name): subscribe was not acknowledged")
                return [:]
            }
            if deadline == nil { findings.subscribed.withLock { $0 += 1 } }
        } catch {
            findings.problem("\(name): \(error)")
            return [:]
        }
        defer { client.close() }
        var framer = LineFramer()
        var removed = 0
        let gestureKey = Array("\"type\":\"gesture\"".utf8)
        let overflowKey = Array("\"type\":\"overflow\"".utf8)
        let removedKey = Array("\"type\":\"device_removed\"".utf8)
        while true {
            let now = monotonicNanoseconds()
            if let deadline, now >= deadline { break }
            let wait = deadline.map { Int32(min(1000, ($0 - now) / 1_000_000 + 1)) } ?? 1000
            guard client.connection.waitReadable(timeoutMilliseconds: wait) else { continue }
            guard case .bytes(let bytes) = (try? client.connection.read()) ?? .endOfFile else {
                if deadline == nil && removed < 4 { findings.problem("\(name): the daemon closed the connection") }
                break
            }
            for event in framer.append(bytes) {
                guard case .line(let line) = event else { continue }
                if contains(line, removedKey) { removed += 1 }
                if contains(line, overflowKey) { findings.problem("\(name): the daemon said it overflowed") }
                guard contains(line, gestureKey), let node = string(after: "\"device\":\"", in: line) else { continue }
                byDevice[node, default: []].append(line)
            }
            if deadline == nil && removed >= 4 { break }
        }
        return byDevice
    }

    static func contains(_ line: [UInt8], _ key: [UInt8]) -> Bool {
        guard line.count >= key.count else { return false }
        return (0...(line.count - key.count)).contains { i in key.indices.allSatisfy { line[i + $0] == key[$0] } }
    }

    static func string(after key: String, in line: [UInt8]) -> String? {
        let key = Array(key.utf8)
        guard line.count > key.count else { return nil }
        for i in 0...(line.count - key.count) where key.indices.allSatisfy({ line[i + $0] == key[$0] }) {
            let start = i + key.count
            guard let end = line[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return String(decoding: line[start..<end], as: UTF8.self)
        }
        return nil
    }

    static func waitForSocket(_ path: String) -> Bool {
        for _ in 0..<400 {
            if Files.exists(path) { return true }
            usleep(50_000)
        }
        return false
    }

    static func descriptorCount(_ pid: pid_t) -> Int {
        Files.listDirectory("/proc/\(pid)/fd", suffix: "").count
    }
}

/// Clients that break the protocol's rules, each in its own way.
enum Misbehaver: String, CaseIterable, CustomStringConvertible {
    case neverReads = "never reads"
    case readsOneBytePerSecond = "reads one byte a second"
    case sends64KiBLines = "sends 64 KiB lines"
    case sendsRandomBytes = "sends random bytes"
    case closesMidWrite = "closes mid-write"
    case halfOpen = "half-open (shut its writing side)"
    case silent = "connects and says nothing"

    var description: String { rawValue }

    /// Misbehaves until `done`; returns what the daemon did about it.
    func run(socket: String, findings: SocketSoak.Findings) -> String {
        var random = SplitMix(seed: UInt64(rawValue.utf8.count))
        var rounds = 0
        var closedByDaemon = 0
        while !findings.isDone {
            guard let connection = try? UnixConnection.connect(path: socket) else { return "could not connect" }
            rounds += 1
            let subscribe = Array("{\"type\":\"hello\",\"protocol_version\":1,\"client_name\":\"bad\"}\n{\"type\":\"subscribe\",\"touches\":true}\n".utf8)
            switch self {
            case .neverReads:
                try? connection.writeAll(subscribe)
                while !findings.isDone { usleep(100_000) }
            case .readsOneBytePerSecond:
                try? connection.writeAll(subscribe)
                while !findings.isDone {
                    var byte: UInt8 = 0
                    if Glibc.read(connection.fileDescriptor, &byte, 1) <= 0 {
                        closedByDaemon += 1
                        break
                    }
                    sleep(1)
                }
            case .sends64KiBLines:
                let line = [UInt8](repeating: UInt8(ascii: "x"), count: 65_537) + [UInt8(ascii: "\n")]
                for _ in 0..<8 where (try? connection.writeAll(line)) != nil {}
                if Self.drainUntilClosed(connection, seconds: 2) { closedByDaemon += 1 }
            case .sendsRandomBytes:
                let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                try? connection.writeAll(bytes)
                if Self.drainUntilClosed(connection, seconds: 1) { closedByDaemon += 1 }
            case .closesMidWrite:
                try? connection.writeAll(Array(subscribe.prefix(Int(random.next() % UInt64(subscribe.count)))))
            case .halfOpen:
                try? connection.writeAll(subscribe)
                shutdown(connection.fileDescriptor, Int32(SHUT_WR))
                if Self.drainUntilClosed(connection, seconds: 1) { closedByDaemon += 1 }
            case .silent:
                usleep(500_000)
            }
            connection.close()
            // At most 20 connections a second: a client that reconnects as fast as it can is
            // what MaxClients= bounds, not a misbehaviour the others must not notice.
            usleep(50_000)
        }
        return "\(rounds) connections, \(closedByDaemon) closed by the daemon"
    }

    /// Reads and discards until the peer closes (true) or `seconds` pass (false).
    static func drainUntilClosed(_ connection: UnixConnection, seconds: Int) -> Bool {
        let end = monotonicNanoseconds() + UInt64(seconds) * 1_000_000_000
        while monotonicNanoseconds() < end {
            guard connection.waitReadable(timeoutMilliseconds: 100) else { continue }
            guard case .bytes = (try? connection.read()) ?? .endOfFile else { return true }
        }
        return false
    }
}

/// Runs `body` on a new thread of its own (pthread), detached.
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { pointer in
        let box = Unmanaged<AnyObject>.fromOpaque(pointer!).takeRetainedValue()
        (box as! Box).body()
        return nil
    }, box)
    precondition(rc == 0, "pthread_create failed: \(rc)")
    pthread_detach(thread)
}

/// A small deterministic random source (splitmix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
