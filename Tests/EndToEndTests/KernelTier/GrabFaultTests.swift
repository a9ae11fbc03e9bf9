import Foundation
import Testing

extension KernelTierTests {
    /// One boot of `Guest/grab-faults.sh`: the grabbed touchscreen unplugged mid-drag, its
    /// events lost (SYN_DROPPED) with a finger down, and `Grab=` turned off and on by reloads
    /// with and without a finger down.
    @Suite("Grab=yes when things go wrong: no touch lost, none stuck")
    struct GrabFaults {
        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/grab-faults.sh",
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 300
            )
        }

        static func count(_ run: GuestRun, _ part: String, _ event: String) -> Int {
            run.values(part, "count").first { $0.first == event }.flatMap { $0.last }.flatMap { Int($0) } ?? 0
        }

        /// Every touch that went down in the clone ended there (up or cancel).
        static func balanced(_ run: GuestRun, _ part: String) -> Bool {
            let down = count(run, part, "TOUCH_DOWN")
            return down > 0 && down == count(run, part, "TOUCH_UP") + count(run, part, "TOUCH_CANCEL")
        }

        @Test("the source unplugged mid-drag: the clone's touch is cancelled and the clone goes with it")
        func unplugRemovesTheClone() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.facts.contains(["unplug", "clone-gone", "yes"]), run.diagnosis)
            #expect(Self.count(run, "unplug", "TOUCH_DOWN") == 1)
            #expect(Self.balanced(run, "unplug"), run.diagnosis)
        }

        @Test("events lost with a finger down: the clone cancels it and nothing stays down")
        func synDroppedResynchronises() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.facts.contains(["dropped", "logged", "yes"]), "the buffer did not overflow; the test proves nothing")
            #expect(Self.balanced(run, "dropped"), run.diagnosis)
            #expect(Self.count(run, "dropped", "TOUCH_CANCEL") >= 1, "the drag cut off by the drop is cancelled")
            // A tap wholly between the overflow and the resync is invisible by libevdev's
            // contract; the drag's cancel is all the clone gets meanwhile.
            let gap = run.values("dropped", "during-gap").first ?? []
            #expect(gap.contains("TOUCH_CANCEL") && !gap.contains("TOUCH_DOWN"), run.diagnosis)
            // Once the daemon has resynchronised, the next tap reaches the clone whole.
            #expect(run.values("dropped", "tap-after").first == ["TOUCH_DOWN", "TOUCH_UP"], run.diagnosis)
        }

        @Test("reloads turn Grab= off and on: at once with no finger down, never in the middle of a touch")
        func reloadTogglesTheGrab() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.facts.contains(["reload.off-idle", "clone-gone", "yes"]), run.diagnosis)
            #expect(run.facts.contains(["reload.on-idle", "clone-present", "yes"]), run.diagnosis)
            // off with a finger down: the clone goes only once its touch has ended there
            #expect(run.facts.contains(["reload.off-lifted", "clone-gone", "yes"]), run.diagnosis)
            #expect(Self.balanced(run, "reload-off"), run.diagnosis)
            // ... and the reload lost nothing: the drag is lifted in the clone, not cancelled
            #expect(run.facts.contains(["reload.off-down", "announced", "yes"]), run.diagnosis)
            #expect(run.integer("reload.off-down", "events-lost") == 0, run.diagnosis)
            #expect(Self.count(run, "reload-off", "TOUCH_DOWN") == 1, run.diagnosis)
            #expect(Self.count(run, "reload-off", "TOUCH_UP") == 1, "lifted, not cancelled")
            #expect(Self.count(run, "reload-off", "TOUCH_CANCEL") == 0, "lifted, not cancelled")
            // on with a finger down: the source is not taken mid-touch; libinput on it sees the end
            #expect(run.facts.contains(["reload.on-down", "announced", "yes"]), run.diagnosis)
            #expect(run.facts.contains(["reload.on-down", "clone-present", "no"]), run.diagnosis)
            #expect(Self.count(run, "reload-on", "TOUCH_DOWN") == 1)
            #expect(Self.count(run, "reload-on", "TOUCH_UP") == 1, "libinput on the source saw the drag end")
            #expect(run.facts.contains(["reload.on-lifted", "clone-present", "yes"]), run.diagnosis)
            #expect(run.integer("daemon", "exit") == 0, run.diagnosis)
        }

        @Test("a device another process has grabbed is logged with the holder's pid and used without grab")
        func busyDeviceIsUsedUngrabbed() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.facts.contains(["busy", "holder-named", "yes"]), run.diagnosis)
            #expect(run.facts.contains(["busy", "clone-present", "no"]), run.diagnosis)
            #expect(run.facts.contains(["busy", "device-used", "yes"]), run.diagnosis)
        }
    }
}
