import Foundation
import Testing

extension KernelTierTests {
    /// One boot of `Guest/key-injection.sh`: a three-finger swipe played on a uinput
    /// touchscreen makes `gesturectl run` ask the daemon for super+Page_Up, which the daemon
    /// presses on the virtual keyboard it creates for it; libinput (watching seat0 as a
    /// compositor does) and evemu-record (on the keyboard's node) read the keys. Then a
    /// client of another uid is refused, through `gesturectl run` and `gesturectl send-keys`.
    /// The daemon runs as a plain user with the unit's supplementary groups, so the keyboard
    /// exists only if the udev rule gave it /dev/uinput.
    @Suite("Key actions through the daemon's virtual keyboard")
    struct KeyInjection {
        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/key-injection.sh",
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 240
            )
        }

        static let superPageUp = [
            ["KEY_LEFTMETA", "pressed"], ["KEY_PAGEUP", "pressed"], ["KEY_PAGEUP", "released"], ["KEY_LEFTMETA", "released"],
        ]

        @Test("the project's udev rule gives /dev/uinput to gestured-uinput, so the daemon needs no root, as its unit runs it")
        func uinputBelongsToTheDaemonsGroup() async throws {
            let run = try await Self.boot.value
            #expect(run.values("uinput", "mode") == [["660", "group", "gestured-uinput"]], run.diagnosis)
            // uid 993 with the input group and gestured-uinput (994) only, as SupplementaryGroups= gives
            let daemon = try #require(run.values("daemon", "uid").first, run.diagnosis)
            #expect(daemon.first == "993", run.diagnosis)
            #expect(daemon.contains("994"), run.diagnosis)
        }

        @Test("the daemon creates its virtual keyboard on the first request, and a compositor's libinput sees the combination")
        func libinputSeesTheKeys() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.lines("keyboard", "name") == ["gestured virtual keyboard"], run.diagnosis)
            #expect(run.values("keyboard", "node").first?.first?.hasPrefix("/dev/input/event") == true, run.diagnosis)
            // both swipes of root's gesturectl run, nothing from the outsider's
            #expect(run.values("libinput", "key") == Self.superPageUp + Self.superPageUp, run.diagnosis)
        }

        @Test("an evdev reader on the virtual keyboard sees exactly super down, Page_Up down, Page_Up up, super up, one frame each")
        func evdevSeesTheSequence() async throws {
            let run = try await Self.boot.value
            // KEY_LEFTMETA 125 = 0x7d, KEY_PAGEUP 104 = 0x68 (linux/input-event-codes.h)
            #expect(run.values("evdev", "key") == [["007d", "0001"], ["0068", "0001"], ["0068", "0000"], ["007d", "0000"]], run.diagnosis)
            #expect(run.integer("evdev", "frames") == 4, run.diagnosis)
        }

        @Test("gesturectl click left makes the daemon create its pointer, and libinput sees BTN_LEFT pressed and released")
        func clickReachesLibinput() async throws {
            let run = try await Self.boot.value
            #expect(run.integer("root", "click-exit") == 0, run.diagnosis)
            #expect(run.values("libinput", "button") == [["BTN_LEFT", "pressed"], ["BTN_LEFT", "released"]], run.diagnosis)
        }

        @Test("gesturectl run as root carries out Keys= for each swipe and hears the daemon's ok")
        func rootRunIsServed() async throws {
            let run = try await Self.boot.value
            let lines = run.lines("root", "run")
            #expect(lines.filter { $0.hasPrefix("gesturectl: gestured sent keys super+Page_Up for action 'switch'") }.count == 2, run.diagnosis)
            #expect(!lines.contains { $0.contains("refused") }, run.diagnosis)
        }

        @Test("another user is refused with the reason and its client id, through gesturectl run and send-keys")
        func outsiderIsRefused() async throws {
            let run = try await Self.boot.value
            let reason = "(uid 992): logind is not available, so no user is known to be active on seat0 and only root may send input [not_permitted]"
            let refusals = run.lines("outsider", "run").filter { $0.contains("gestured refused keys super+Page_Up for action 'switch'") }
            #expect(refusals.count == 1, run.diagnosis)
            #expect(refusals.first?.contains(": client ") == true, "the refusal names the client id: \(run.diagnosis)")
            #expect(refusals.first?.hasSuffix(reason) == true, run.diagnosis)
            #expect(run.integer("outsider", "send-keys-exit") == 1, run.diagnosis)
            let direct = run.lines("outsider", "send-keys")
            #expect(direct.count == 1 && direct[0].hasPrefix("gesturectl: gestured refused send_keys super+Page_Up: client "), run.diagnosis)
            #expect(direct.first?.hasSuffix(reason) == true, run.diagnosis)
            #expect(run.integer("daemon", "exit") == 0, run.diagnosis)
        }
    }
}
