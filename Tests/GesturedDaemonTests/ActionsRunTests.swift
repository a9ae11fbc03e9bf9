import Foundation
import GestureEngine
import GesturedProtocol
import Testing

/// `gesturectl run` and `gesturectl listen` as a user runs them: the built binaries, a daemon
/// replaying a synthesized recording on a private socket, and an actions.conf whose commands
/// leave a trace in a temporary directory. Nothing sleeps: the replay starts when the client
/// has subscribed (`--replay-wait-clients 1`), the daemon exits after it
/// (`--exit-after-replay`), `gesturectl run --exit-on-shutdown` then reaps its commands and
/// exits, and the test waits for that exit.
@Suite("gesturectl run and listen", .timeLimit(.minutes(2)))
struct ActionsRunTests {
    static var binDirectory: String {
        ProcessInfo.processInfo.environment["GESTURED_BIN_DIR"] ?? BinaryTests.packageRoot.appendingPathComponent(".build/debug").path
    }

    /// A small daemon configuration, so the test does not depend on the shipped gesture names.
    static let daemonConfig = """
        [Gesture pinch]
        Kind=pinch

        [Gesture swipe3]
        Kind=swipe
        Directions=left,right,up,down
        Fingers=3

        [Gesture double-tap]
        Kind=tap
        Taps=2

        """

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        var daemonStatus: Int32
    }

    /// Replays `script` to a daemon and runs `gesturectl arguments` against it until both exit.
    static func runAgainstDaemon(
        _ arguments: [String],
        in dir: URL,
        script: (GestureSynthesizer) -> GestureScript
    ) throws -> Outcome {
        let recording = dir.appendingPathComponent("gestures.evemu")
        try BinaryTests.synthesize(script, to: recording)
        let config = dir.appendingPathComponent("gestured.conf")
        try daemonConfig.write(to: config, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("s.sock").path

        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: binDirectory + "/gestured")
        daemon.arguments = [
            "--config", config.path, "--socket", socket, "--no-udev", "--replay-device", recording.path,
            "--replay-wait-clients", "1", "--exit-after-replay",
        ]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()

        let client = Process()
        client.executableURL = URL(fileURLWithPath: binDirectory + "/gesturectl")
        client.arguments = ["--socket", socket] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GESTURED_NAME"] = "stale value that must not reach commands"
        client.environment = environment
        // Files rather than pipes: nothing has to drain them while the processes run.
        let outPath = dir.appendingPathComponent("gesturectl.out")
        let errPath = dir.appendingPathComponent("gesturectl.err")
        _ = FileManager.default.createFile(atPath: outPath.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath.path, contents: nil)
        client.standardOutput = try FileHandle(forWritingTo: outPath)
        client.standardError = try FileHandle(forWritingTo: errPath)
        try client.run()
        client.waitUntilExit()
        // A client that failed never subscribed: the daemon would wait for it forever.
        if client.terminationStatus != 0 { daemon.terminate() }
        daemon.waitUntilExit()
        return Outcome(
            status: client.terminationStatus,
            stdout: try String(contentsOf: outPath, encoding: .utf8),
            stderr: try String(contentsOf: errPath, encoding: .utf8),
            daemonStatus: daemon.terminationStatus
        )
    }

    static func gestures(_ s: GestureSynthesizer) -> GestureScript {
        GestureScript.sequence([
            s.pinch(scale: 2, span: 40),
            s.swipe(fingers: 3, direction: .left, distance: 60),
            s.doubleTap(at: .fraction(x: 0.5, y: 0.5)),
        ], gap: 1)
    }

    @Test("run executes the matching commands with the gesture's values, once where asked, and logs failures")
    func runExecutesMatchingCommands() throws {
        let dir = BinaryTests.temporaryDirectory()
        let trace = dir.appendingPathComponent("trace.txt").path
        let actions = dir.appendingPathComponent("actions.conf")
        // Each command appends one line; detached commands may finish in any order, so the
        // test compares the lines as a set and counts them.
        try """
            # pinch: once per gesture, as soon as the fingers have spread by 30 %
            [Action zoom-in]
            Gesture=pinch
            State=changed
            When=scale>1.3
            Once=yes
            Command=echo "$GESTURED_ACTION $GESTURED_NAME $GESTURED_STATE $GESTURED_KIND" >> \(trace)

            [Action pinch-done]
            Kind=pinch
            State=ended
            When=scale >= 1.5
            Command=echo "$GESTURED_ACTION $GESTURED_NAME $GESTURED_STATE scale-ok=$(awk "BEGIN{print ($GESTURED_SCALE > 1.5)}")" >> \(trace)

            [Action swipe-left]
            Kind=swipe
            Direction=left
            Fingers=3-4
            Command=echo "$GESTURED_ACTION $GESTURED_NAME $GESTURED_STATE $GESTURED_DIRECTION $GESTURED_FINGERS $GESTURED_DX_MM" >> \(trace)

            # the swipe's velocity at recognition is on the wire (gestured-ipc(7)): speed works
            [Action fast-swipe]
            Kind=swipe
            When=speed>1mm/s
            Command=echo "$GESTURED_ACTION $GESTURED_VX_MM_S" >> \(trace)

            [Action swipe-right]
            Kind=swipe
            Direction=right
            Command=echo "$GESTURED_ACTION must not run" >> \(trace)

            [Action double]
            Gesture=double-tap
            Command=echo "$GESTURED_ACTION $GESTURED_NAME $GESTURED_STATE taps=$GESTURED_TAPS" >> \(trace)

            [Action stale-environment]
            Gesture=double-tap
            Command=test "$GESTURED_NAME" = double-tap && echo "$GESTURED_ACTION ok" >> \(trace)

            # fails on purpose: logged with its status, and run goes on
            [Action failing]
            Kind=pinch
            State=began
            Command=exit 7

            """.write(to: actions, atomically: true, encoding: .utf8)

        let outcome = try Self.runAgainstDaemon(["run", "--actions", actions.path, "--exit-on-shutdown"], in: dir, script: Self.gestures)
        #expect(outcome.status == 0, "gesturectl run: \(outcome.stderr)")
        #expect(outcome.daemonStatus == 0)
        #expect(outcome.stderr.contains("action 'failing'"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("exited with status 7"), "\(outcome.stderr)")

        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let swipe = try #require(lines.first { $0.hasPrefix("swipe-left ") }, "\(lines)")
        // The swipe is recognized once it has gone left some way: dx is negative, and written
        // as a plain decimal that shell tools read.
        let dx = try #require(Double(swipe.split(separator: " ").last.map(String.init) ?? ""), "\(swipe)")
        #expect(dx < -1)
        let fast = try #require(lines.first { $0.hasPrefix("fast-swipe ") }, "an action with When=speed>1mm/s fires on the swipe: \(lines)")
        let vx = try #require(Double(fast.split(separator: " ").last.map(String.init) ?? ""), "\(fast)")
        #expect(vx < -50, "the swipe went left at its real speed: \(fast)")
        let expected: Set<String> = [
            "zoom-in pinch changed pinch",
            "pinch-done pinch ended scale-ok=1",
            "swipe-left swipe3 recognized left 3 \(swipe.split(separator: " ").last ?? "")",
            "double double-tap recognized taps=2",
            fast,
            "stale-environment ok",
        ]
        #expect(Set(lines) == expected)
        #expect(lines.count == expected.count, "each action ran exactly once: \(lines)")
    }

    /// `gesturectl run --check` on `file`: exit status and standard error.
    static func check(_ file: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binDirectory + "/gesturectl")
        process.arguments = ["run", "--actions", file, "--check"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    static let desktops = ["gnome", "kde", "sway", "hyprland", "niri", "generic"]

    @Test(
        "run --check accepts the shipped example actions.conf and each desktop's, without a warning",
        arguments: ["actions.conf"] + desktops.map { "actions/\($0).conf" })
    func shippedExampleIsValid(file: String) throws {
        let result = try Self.check(BinaryTests.packageRoot.appendingPathComponent("config/\(file)").path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no warnings either: \(result.stderr)")
    }

    @Test("the example actions file of each desktop uses its own commands or keys", arguments: desktops)
    func desktopExampleUsesItsOwnInterface(desktop: String) throws {
        let text = try String(contentsOf: BinaryTests.packageRoot.appendingPathComponent("config/actions/\(desktop).conf"), encoding: .utf8)
        let own: [String: String] = [
            "kde": "org.kde.kglobalaccel.Component.invokeShortcut", "sway": "Command=swaymsg workspace next",
            "hyprland": "Command=hyprctl dispatch workspace +1", "niri": "Command=niri msg action focus-workspace-down",
        ]
        if let command = own[desktop] {
            #expect(text.contains(command), "\(desktop) uses its own command interface")
        } else {
            #expect(text.contains("\nKeys="), "\(desktop) uses keys")
        }
    }

    @Test("the example directory holds exactly the documented desktops")
    func desktopExamplesAreTheDocumentedOnes() throws {
        let directory = BinaryTests.packageRoot.appendingPathComponent("config/actions").path
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".conf") }.sorted()
        #expect(files == Self.desktops.map { "\($0).conf" }.sorted())
    }

    /// An actions.conf that `gesturectl run --check` must judge: its exit status, the
    /// diagnostics it must print (each after the file's path), and text it must not print.
    struct CheckCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let text: String
        let status: Int32
        let diagnostics: [String]
        var absent: [String] = []
        /// How many warnings, when the case counts them.
        var warnings: Int? = nil
    }

    static let checkCases = [
        CheckCase(
            testDescription: "a malformed file: errors with file:line:column and the closest name, status 78",
            text: """
                [Action zoom]
                Gesture=pinch
                State=chagned
                When=scale>>1.3
                Comand=echo hi

                [Acton other]
                Command=true

                [Action no-command]
                Kind=tap

                """,
            status: 78,
            diagnostics: [
                ":3:7: error: unknown state 'chagned' (did you mean 'changed'?)",
                ":4:12: error: expected a number after 'scale>'",
                ":5:1: error: unknown key 'Comand' in [Action zoom] (did you mean 'Command'?)",
                ":7:2: error: unknown section type '[Acton]'",
                ":10:1: error: [Action no-command] has no Command=",
            ]),
        CheckCase(
            testDescription: "a WhenLocked= that is not yes or no, at its line and column",
            text: "[Action keyboard]\nGesture=osk\nWhenLocked=sometimes\nCommand=true\n",
            status: 78,
            diagnostics: [":3:12: error: WhenLocked= takes yes or no, not 'sometimes'"]),
        CheckCase(
            testDescription: "bad Keys= and Click= values, with file:line:column and the closest name",
            text: """
                [Action typo]
                Kind=swipe
                Keys=super+Page_Upp

                [Action empty-part]
                Kind=swipe
                Keys=ctrl++

                [Action button]
                Kind=tap
                Click=lefft

                [Action two-effects]
                Kind=tap
                Click=left
                Command=true

                [Action fine]
                Kind=tap
                Keys=ctrl+alt+Delete

                """,
            status: 78,
            diagnostics: [
                ":3:12: error: unknown key 'Page_Upp' in Keys= (did you mean 'KEY_PAGEUP'?)",
                ":7:11: error: empty key name in Keys=ctrl++",
                ":11:7: error: unknown button 'lefft' in Click= (did you mean 'left'?)",
                ":16:1: error: Command= given after Click= (line 15) in [Action two-effects]",
            ],
            // Keys=ctrl+alt+Delete is fine
            absent: [":20:"]),
        CheckCase(
            testDescription: "Keys= on every event of a continuous gesture: a warning, not once per gesture",
            text: """
                [Action zoom-every-event]
                Kind=pinch
                State=changed
                Keys=ctrl+plus

                [Action pan-any-state]
                Kind=pan
                Click=left

                [Action zoom-once]
                Kind=pinch
                State=changed
                Once=yes
                Keys=ctrl+plus

                [Action pan-ended]
                Kind=pan
                State=ended
                Keys=super

                [Action hold-any-state]
                Kind=long_press
                Keys=super+a

                """,
            status: 0,
            diagnostics: [
                // a long press goes began, changed…, ended too
                ":23:1: warning: [Action hold-any-state] presses Keys=super+a on every event",
                ":4:1: warning: [Action zoom-every-event] presses Keys=ctrl+plus on every event of a continuous gesture",
                ":8:1: warning: [Action pan-any-state] presses Click=left on every event",
            ],
            warnings: 3),
    ]

    @Test("run --check judges an actions.conf: its diagnostics at file:line:column, its exit status", arguments: checkCases)
    func checkReports(_ c: CheckCase) throws {
        let dir = BinaryTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let actions = dir.appendingPathComponent("actions.conf")
        try c.text.write(to: actions, atomically: true, encoding: .utf8)
        let result = try Self.check(actions.path)
        #expect(result.status == c.status, "\(result.stderr)")
        for diagnostic in c.diagnostics {
            #expect(result.stderr.contains(actions.path + diagnostic), "\(result.stderr)")
        }
        for text in c.absent {
            #expect(!result.stderr.contains(text), "\(result.stderr)")
        }
        if let warnings = c.warnings {
            #expect(result.stderr.split(separator: "\n").count { $0.contains("warning:") } == warnings, "\(result.stderr)")
        }
    }

    @Test("listen --json prints the daemon's lines unchanged, filtered by --kind and --state")
    func listenJSONFilters() throws {
        let dir = BinaryTests.temporaryDirectory()
        let outcome = try Self.runAgainstDaemon(["listen", "--wait", "--json", "--kind", "pinch,swipe", "--state", "began,recognized"], in: dir, script: Self.gestures)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let decoder = MessageDecoder()
        let encoder = MessageEncoder()
        var seen: [String] = []
        for line in lines {
            let message = try decoder.decodeDaemonMessage(Array(line.utf8))
            // The daemon writes with the same encoder: a line printed as received is
            // byte-identical to the encoding of what it decodes to.
            #expect(try encoder.encodeString(message) == line + "\n")
            switch message {
            case .gesture(let g): seen.append("\(g.kind) \(g.state.rawValue)")
            case .shutdown, .deviceAdded, .deviceRemoved: seen.append(message.type)
            default: Issue.record("unexpected message \(line)")
            }
        }
        #expect(seen == ["device_added", "pinch began", "swipe recognized", "device_removed", "shutdown"])
    }
}
