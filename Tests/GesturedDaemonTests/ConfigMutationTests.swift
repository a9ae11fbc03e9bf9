import Foundation
import GestureEngine
import GesturedClient
import GesturedDaemon
import GesturedProtocol
import Testing

/// Random mutations of the shipped `config/gestured.conf` and `config/actions.conf`
/// (issue 16): through the `--check-config` code, the `gestured --check-config` and
/// `gesturectl run --check` binaries, and a live daemon's reload (the `reload` request, and
/// SIGHUP, which run the same `Daemon.reload`). Never a crash; every problem reported as
/// `file:line:column: error|warning: …`; a failed reload keeps the old configuration.
/// `GESTURED_MUTATIONS=N` changes the number of configuration mutations (default 1000).
@Suite("Mutated configuration files", .timeLimit(.minutes(10)))
struct ConfigMutationTests {
    static var mutationCount: Int {
        ProcessInfo.processInfo.environment["GESTURED_MUTATIONS"].flatMap(Int.init) ?? 1000
    }

    static func isValid(_ path: String) -> Bool {
        if case .success = ConfigLoader.load(mainPath: path) { return true }
        return false
    }

    /// A diagnostic line as gestured.conf(5) and actions.conf(5) promise them.
    static func isDiagnostic(_ line: String, file: String) -> Bool {
        guard line.hasPrefix(file + ":") else { return false }
        let rest = line.dropFirst(file.count + 1).split(separator: ":", maxSplits: 2)
        guard rest.count == 3, let l = Int(rest[0]), let c = Int(rest[1]), l >= 1, c >= 1 else { return false }
        return rest[2].hasPrefix(" error: ") || rest[2].hasPrefix(" warning: ")
    }

    @Test("mutated gestured.conf: check-config and a live reload agree, report file:line:column, keep the old configuration")
    func mutatedDaemonConfiguration() throws {
        let shipped = try String(contentsOf: BinaryTests.packageRoot.appendingPathComponent("config/gestured.conf"), encoding: .utf8)
        let dir = BinaryTests.temporaryDirectory()
        let config = dir.appendingPathComponent("gestured.conf")
        try shipped.write(to: config, atomically: true, encoding: .utf8)
        let recording = dir.appendingPathComponent("hold.evemu")
        try BinaryTests.synthesize({ s in s.longPress(duration: 120) }, to: recording)
        let socket = dir.appendingPathComponent("s.sock").path
        let daemon = try BinaryTests.startDaemon(config: config, socket: socket, replay: recording)
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        let client = try BinaryTests.connect(socket, process: daemon)
        func gestureCount() throws -> Int? {
            if case .status(let s) = try client.request(.status) { return s.gestures }
            return nil
        }
        var inForce = try #require(try gestureCount())
        var random = Mutator(seed: 16)
        var failures = 0
        var binaryChecks = 0
        for round in 0..<Self.mutationCount {
            let text = random.mutate(shipped)
            try text.write(to: config, atomically: true, encoding: .utf8)
            // The code behind `gestured --check-config`, in process.
            let checked = ConfigLoader.load(mainPath: config.path)
            var failed = false
            switch checked {
            case .failure(let failure):
                failed = true
                failures += 1
                for line in failure.lines {
                    #expect(Self.isDiagnostic(line, file: config.path), "round \(round): '\(line)'")
                }
            case .success(let loaded):
                for line in loaded.warnings {
                    #expect(Self.isDiagnostic(line, file: config.path), "round \(round): '\(line)'")
                }
            }
            // Every 25th: the binary itself, whose exit says the same.
            if round % 25 == 0 {
                binaryChecks += 1
                let result = try BinaryTests.run(["--check-config", config.path])
                #expect(result.status == (failed ? 78 : 0), "round \(round): exit \(result.status)\n\(result.stderr)")
                for line in result.stderr.split(separator: "\n") where line.hasPrefix("/") {
                    #expect(Self.isDiagnostic(String(line), file: config.path), "round \(round): '\(line)'")
                }
            }
            // The live daemon: refused with the same first problem, or taken.
            let reply = try client.request(.reload)
            if failed {
                guard case .error(let e) = reply else {
                    Issue.record("round \(round): a broken configuration was accepted: \(reply)")
                    break
                }
                #expect(e.message.contains(config.path + ":"), "round \(round): \(e.message)")
                #expect(try gestureCount() == inForce, "round \(round): the old configuration stays in force")
            } else {
                guard case .ok = reply else {
                    Issue.record("round \(round): a configuration check-config accepts was refused: \(reply)")
                    break
                }
                if case .success(let loaded) = checked { inForce = loaded.gestureCount }
                #expect(try gestureCount() == inForce, "round \(round)")
            }
            #expect(daemon.isRunning, "round \(round): the daemon died")
            guard daemon.isRunning else { break }
        }
        // SIGHUP: a broken file, then the shipped one with one gesture more; once the second
        // shows, the first was handled (signals are handled in order), and the daemon lives.
        for round in 0..<10 {
            repeat {
                try random.mutate(shipped).write(to: config, atomically: true, encoding: .utf8)
            } while Self.isValid(config.path)
            kill(daemon.processIdentifier, SIGHUP)
            let marker = shipped + "\n[Gesture soak-marker-\(round)]\nKind=tap\n"
            // Give the broken file time to be read before the good one replaces it: wait until
            // the daemon has answered a request sent after the signal.
            _ = try client.request(.ping)
            try marker.write(to: config, atomically: true, encoding: .utf8)
            let expected = try #require({ if case .success(let l) = ConfigLoader.load(mainPath: config.path) { l.gestureCount } else { nil } }())
            kill(daemon.processIdentifier, SIGHUP)
            var count = try gestureCount()
            for _ in 0..<500 where count != expected {
                usleep(10_000)
                count = try gestureCount()
            }
            #expect(count == expected, "SIGHUP round \(round)")
            #expect(daemon.isRunning)
        }
        // The mutations must have made both outcomes, or the test tested little.
        #expect(failures > Self.mutationCount / 10)
        #expect(failures < Self.mutationCount)
        #expect(binaryChecks > 0)
    }

    @Test("mutated actions.conf: gesturectl run --check never crashes and reports file:line:column")
    func mutatedActionsFile() throws {
        let shipped = try String(contentsOf: BinaryTests.packageRoot.appendingPathComponent("config/actions.conf"), encoding: .utf8)
        let dir = BinaryTests.temporaryDirectory()
        let file = dir.appendingPathComponent("actions.conf")
        let gesturectl = (BinaryTests.binary as NSString).deletingLastPathComponent + "/gesturectl"
        var random = Mutator(seed: 1616)
        var refused = 0
        let rounds = max(1, Self.mutationCount / 5)
        for round in 0..<rounds {
            try random.mutate(shipped).write(to: file, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: gesturectl)
            process.arguments = ["run", "--check", "--actions", file.path]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit, "round \(round): gesturectl was killed by a signal")
            #expect([0, 78].contains(process.terminationStatus), "round \(round): exit \(process.terminationStatus)\n\(stderr)")
            if process.terminationStatus == 78 { refused += 1 }
            for line in stderr.split(separator: "\n") {
                #expect(Self.isDiagnostic(String(line), file: file.path), "round \(round): '\(line)'")
            }
        }
        #expect(refused > 0 && refused < rounds)
    }
}

/// Random edits of a configuration text: what a hand, an editor or a disk can do to it.
struct Mutator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(1, bound)))
    }

    static let values = [
        "", "-1", "0", "1e309", "nan", "inf", "banana", "99999999999999999999", "yes", "no", "5mm", "-0", "0x10",
        "rect:10%,0%,80%", "edge:left:5mm", "ü", "\"", "1,2,,3", " ", "2..1", "3-2",
    ]

    /// One to three edits: a line deleted, duplicated or moved; a value replaced; a byte
    /// changed, inserted or removed; the file cut short; a stray header or key added.
    mutating func mutate(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0...next(3) {
            let i = next(lines.count)
            switch next(9) {
            case 0: lines.remove(at: i)
            case 1: lines.insert(lines[i], at: i)
            case 2: lines.swapAt(i, next(lines.count))
            case 3:
                if let eq = lines[i].firstIndex(of: "=") {
                    lines[i] = String(lines[i][...eq]) + Self.values[next(Self.values.count)]
                } else {
                    lines[i] = "Key" + "=" + Self.values[next(Self.values.count)]
                }
            case 4:
                var scalars = Array(lines[i].unicodeScalars)
                if !scalars.isEmpty { scalars[next(scalars.count)] = Unicode.Scalar(UInt8(32 + next(95))) }
                lines[i] = String(String.UnicodeScalarView(scalars))
            case 5:
                var scalars = Array(lines[i].unicodeScalars)
                scalars.insert(["[", "]", "=", "#", "\t", "\r", "\u{0}", "é"][next(8)], at: next(scalars.count + 1))
                lines[i] = String(String.UnicodeScalarView(scalars))
            case 6:
                var scalars = Array(lines[i].unicodeScalars)
                if !scalars.isEmpty { scalars.remove(at: next(scalars.count)) }
                lines[i] = String(String.UnicodeScalarView(scalars))
            case 7: lines = Array(lines.prefix(max(1, next(lines.count))))
            default: lines.insert(["[Gesture]", "[Device x]", "[Action]", "Kind=pan", "[", "=x", "[Gesture a b]"][next(7)], at: i)
            }
            if lines.isEmpty { lines = [""] }
        }
        return lines.joined(separator: "\n")
    }
}
