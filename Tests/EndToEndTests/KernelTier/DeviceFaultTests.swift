import Foundation
import GesturedProtocol
import Testing

extension KernelTierTests {
    /// One boot of `Guest/device-faults.sh` (issue 16): 50 unplug/replug cycles mid-pinch on two
    /// touchscreens at once, SYN_DROPPED provoked in 10 pinches, a touchscreen sending garbage
    /// and one with zero and negative axis ranges, while a steady touchpad replays its
    /// gestures and a socket client records everything.
    @Suite("The daemon under device faults")
    struct DeviceFaults {
        static let cycles = 50
        static let drops = 10

        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/device-faults.sh",
                environment: [
                    "GESTURED_BIN": KernelTier.shippedGesturedExecutable.path,
                    "GESTURED_FAULT_CYCLES": String(cycles),
                    "GESTURED_FAULT_DROPS": String(drops),
                ],
                // 50 cycles took 1 085 s of the guest's time on 2026-12-02, the whole suite
                // 714 s the session before on much the same code: the emulator's speed varies
                // from machine to machine, and this bounds a hang, not the speed.
                timeout: 2400
            )
        }

        static let steadyName = "Logitech Rechargeable Touchpad T650"

        @Test("every unplug mid-pinch, on two devices at once, cancels each pinch once; the devices plugged back are used")
        func unplugCycles() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let sessions = try Sessions(run)
            for name in ["Fault Touchscreen A", "Fault Touchscreen B"] {
                let plugs = sessions.of(name)
                #expect(plugs.count == Self.cycles, "\(name): \(plugs.count) plugs")
                for (index, plug) in plugs.enumerated() {
                    let outcomes = ClientTranscript.outcomes(plug.gestures)
                    #expect(outcomes == ["pinch fingers=2 began…cancelled grew"], "\(name), plug \(index + 1) on \(plug.node)")
                }
            }
            #expect(run.values("daemon", "alive-after").map(\.first) == ["start", "warm", "cycles", "drops", "garbage"], run.diagnosis)
            #expect(run.integer("daemon", "exit") == 0, run.diagnosis)
        }

        @Test("the steady touchpad's gestures all arrive, complete, while the other devices fail")
        func nothingLostOnTheOtherDevice() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let plays = try #require(run.integer("steady", "plays"), run.diagnosis)
            #expect(plays >= 2, "the steady touchpad played \(plays) times")
            let sessions = try Sessions(run).of(Self.steadyName)
            #expect(sessions.count == 1)
            let live = ClientTranscript.outcomes(sessions.first?.gestures ?? [])
            // What the kernel delivered on the touchpad, recorded by gesturectl record beside the
            // daemon and replayed through the same pipeline after it: the daemon, busy with the
            // failing devices, must have lost none of it. (The script's own gestures are not the
            // reference: evemu-play runs late on a loaded host and a stretched swipe may honestly
            // be recognized as something else, by both.)
            #expect(run.values("steady", "replay").first == ["exit", "0"], run.diagnosis)
            let decoder = MessageDecoder()
            let replayed = try run.lines("steady", "replay-json").compactMap { line -> GestureEventMessage? in
                if case .gesture(let gesture) = try decoder.decodeDaemonMessage(Array(line.utf8)) { return gesture }
                return nil
            }
            // Lost events show as SYN_DROPPED on the steady node in the daemon's log: the
            // daemon fell behind the device (its evdev buffer overflowed).
            let dropped = run.integer("steady", "syn-dropped").map(String.init) ?? "unknown"
            #expect(
                live == ClientTranscript.outcomes(replayed),
                "live \(live.count) gestures, replayed \(ClientTranscript.outcomes(replayed).count), SYN_DROPPED on the steady node \(dropped), daemon \(KernelTier.shippedGesturedExecutable.path)")
            // and they are, nearly all, the scripted ones: three a play
            let scripted = [
                "touchpad-three-finger-swipe fingers=3 left",
                "touchpad-four-finger-swipe fingers=4 right",
                "touchpad-pinch fingers=2 began…ended shrank",
            ]
            let matching = live.count { scripted.contains($0) }
            #expect(matching * 10 >= 3 * plays * 9, "\(matching) of \(3 * plays) scripted gestures")
        }

        @Test("every gesture of every device ends exactly once, and nothing follows its end")
        func everyGestureEndsOnce() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let sessions = try Sessions(run)
            var checked = 0
            for session in sessions.all {
                var order: [String] = []
                var states: [String: [WireGestureState]] = [:]
                for gesture in session.gestures {
                    if states[gesture.gestureID] == nil { order.append(gesture.gestureID) }
                    states[gesture.gestureID, default: []].append(gesture.state)
                }
                for id in order {
                    let sequence = states[id] ?? []
                    let terminal = sequence.filter { [.ended, .cancelled, .recognized].contains($0) }
                    let valid =
                        sequence == [.recognized]
                        || (sequence.first == .began && terminal.count == 1 && [.ended, .cancelled].contains(sequence.last)
                            && sequence.dropFirst().dropLast().allSatisfy { $0 == .changed })
                    #expect(valid, "\(session.name) on \(session.node), gesture \(id): \(sequence.map(\.rawValue))")
                    checked += 1
                }
            }
            // 100 cancelled pinches, 10 pinches cut by SYN_DROPPED, the steady device's…
            #expect(checked >= 2 * Self.cycles + Self.drops + 3)
        }

        @Test("a replugged device's gesture ids are new: no gesture_id of one appearance of a node comes back in a later one")
        func gestureIDsUniqueAcrossReplugs() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            var seenOn: [String: Set<String>] = [:]
            var reusedNodes = 0
            var reused: [String] = []
            for session in try Sessions(run).all {
                let ids = Set(session.gestures.map(\.gestureID))
                if seenOn[session.node] != nil { reusedNodes += 1 }
                reused += ids.intersection(seenOn[session.node, default: []]).sorted()
                seenOn[session.node, default: []].formUnion(ids)
            }
            // the kernel hands a freed event node to the next device: the cycles reuse nodes
            #expect(reusedNodes >= Self.cycles / 2, "only \(reusedNodes) appearances on a node seen before")
            #expect(reused.isEmpty, "gesture ids given out again after a replug: \(reused.prefix(10))")
        }

        @Test("SYN_DROPPED in the middle of each pinch cancels it once and is logged with the node; the device recovers")
        func synDroppedDuringPinches() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            // a reader stopped alongside the daemon lost events each round: the overflows are real
            let dropped = try #require(run.integer("drops", "reference-syn-dropped"), run.diagnosis)
            #expect(dropped >= Self.drops, "the stopped reference reader saw \(dropped) SYN_DROPPED in \(Self.drops) rounds")
            let node = try #require(run.values("drops", "node").first?.first, run.diagnosis)
            let session = try #require(try Sessions(run).of("Fault Touchscreen C").first, run.diagnosis)
            let outcomes = ClientTranscript.outcomes(session.gestures)
            // each round's pinch began, then the resync cancelled it (its fingers are stale until they lift)
            #expect(
                outcomes == Array(repeating: "pinch fingers=2 began…cancelled grew", count: Self.drops) + ["tap fingers=1"],
                "\(outcomes)")
            let logged = sessionLog(run, device: "Fault Touchscreen C").filter { $0.contains("SYN_DROPPED") && $0.contains("device.node=\(node)") }
            #expect(logged.count >= 1, "no log line names \(node) for its lost events")
        }

        @Test("a device sending garbage is survived, logged with its node, and works again afterwards")
        func garbageDevice() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let node = try #require(run.values("garbage", "node").first?.first, run.diagnosis)
            let written = try #require(run.integer("garbage", "events"), run.diagnosis)
            #expect(written > 10_000)
            let session = try #require(try Sessions(run).of("Fault Garbage Touchscreen").first, run.diagnosis)
            #expect(ClientTranscript.outcomes(session.gestures).last == "tap fingers=1", "\(ClientTranscript.outcomes(session.gestures))")
            let log = sessionLog(run, device: "Fault Garbage Touchscreen").filter { $0.contains("device.node=\(node)") }
            // the values outside the axes, noted once per axis
            #expect(log.contains { $0.contains("warning:") && $0.contains("ABS_MT_POSITION_X value") && $0.contains("outside the device's range") }, "\(log)")
            #expect(log.contains { $0.contains("warning:") && $0.contains("ABS_MT_POSITION_Y value") && $0.contains("outside the device's range") }, "\(log)")
            // (the 10 000-event frame overflows the daemon's buffer only when the daemon falls
            // behind the writer; whether it does is the scheduler's choice, so not asserted)
            // the zero-range touchscreen is refused, with the reason, by node
            let zero = try #require(run.values("zero-range", "node").first?.first, run.diagnosis)
            let refusal = daemonLog(run).filter { $0.contains(zero) && $0.contains("Touch device cannot be used") }
            #expect(refusal.count == 1 && refusal.allSatisfy { $0.contains("warning:") && $0.contains("empty range") }, "\(daemonLog(run).filter { $0.contains(zero) })")
        }

        @Test("the daemon's memory and descriptors stay flat across the faults")
        func memoryAndDescriptorsFlat() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            func figure(_ key: String, _ phase: String) -> Int? {
                run.values("daemon", key).first { $0.first == phase }.flatMap { $0.count > 1 ? Int($0[1]) : nil }
            }
            let phases = ["start", "warm", "cycles", "drops", "garbage"]
            let fds = phases.map { figure("fds", $0) }
            let rss = phases.map { figure("rss-kib", $0) }
            #expect(fds.allSatisfy { $0 != nil } && rss.allSatisfy { $0 != nil }, run.diagnosis)
            // From the warm-up on (the engines' timer exists by then) the same devices are open
            // at each phase, the steady touchpad only: as many descriptors each time.
            #expect(Set(fds.dropFirst().compactMap { $0 }).count == 1, "descriptors by phase \(phases): \(fds)")
            // after 5 cycles' warm-up, 45 more cycles, the drops and the garbage: at most 2 MiB more
            if let warm = rss[1], let end = rss.last ?? nil {
                #expect(end - warm <= 2048, "RSS \(warm) KiB after 5 cycles, \(end) KiB at the end")
            }
        }
    }
}

/// The daemon's log lines, as the guest script printed them (`log <line>`).
func daemonLog(_ run: GuestRun) -> [String] {
    run.stdout.split(separator: "\n").filter { $0.hasPrefix("log ") }.map { String($0.dropFirst(4)) }
}

/// The daemon's log lines from the first `Device added` of the device named `name` to its
/// `Device removed` (nodes are reused: this tells one device's lines from another's).
func sessionLog(_ run: GuestRun, device name: String) -> [String] {
    let log = daemonLog(run)
    guard let start = log.firstIndex(where: { $0.contains("Device added") && $0.contains("device.name='\(name)'") }) else { return [] }
    let end = log[start...].firstIndex { $0.contains("Device removed") && $0.contains("device.name='\(name)'") } ?? log.endIndex
    return Array(log[start..<end])
}

/// The gesture events of a guest run grouped by device session: from a device_added to
/// the device_removed of the same node (nodes and gesture ids are reused after a removal).
struct Sessions {
    struct Session {
        var node: String
        var name: String
        var gestures: [GestureEventMessage] = []
    }

    var all: [Session] = []

    init(_ run: GuestRun) throws {
        var open: [String: Int] = [:]
        for message in try ClientTranscript.received(run) {
            switch message {
            case .deviceAdded(let info):
                open[info.device] = all.count
                all.append(Session(node: info.device, name: info.name))
            case .deviceRemoved(let removed):
                open[removed.device] = nil
            case .gesture(let gesture):
                if let index = open[gesture.device] { all[index].gestures.append(gesture) }
            default:
                break
            }
        }
    }

    func of(_ name: String) -> [Session] { all.filter { $0.name == name } }
}
