import Foundation
import Testing

extension KernelTierTests {
    /// One boot of `Guest/grab-clone.sh`: the touchscreen grabbed by the daemon
    /// (`Grab=yes`), `libinput debug-events` reading its uinput clone as a
    /// compositor would, against libinput reading the source directly.
    @Suite("Grab=yes: the compositor reads a clone that gets only unclaimed touches")
    struct GrabClone {
        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/grab-clone.sh",
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 240
            )
        }

        /// libinput's touch lines (event, slot, positions) of one part of the run.
        static func touches(_ run: GuestRun, _ part: String) -> [String] {
            run.lines(part, "touch")
        }

        static func count(_ run: GuestRun, _ part: String, _ event: String) -> Int {
            run.values(part, "count").first { $0.first == event }.flatMap { $0.last }.flatMap { Int($0) } ?? 0
        }

        @Test("the clone has the source's name and ids, a gestured-clone phys, and udev marks it")
        func cloneIdentity() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.lines("clone", "name") == run.lines("source", "name"))
            #expect(run.lines("clone", "ids") == run.lines("source", "ids"))
            let phys = try #require(run.lines("clone", "phys").first, run.diagnosis)
            #expect(phys.hasPrefix("gestured-clone/event"))
            let udev = run.lines("clone", "udev").first ?? ""
            #expect(udev.contains("GESTURED_CLONE=1") && udev.contains("ID_INPUT_TOUCHSCREEN=1"), "\(udev)")
            #expect(!udev.contains("GESTURED_DEVICE="), "the shipped rule does not hand the clone to the daemon")
        }

        @Test("an unclaimed one-finger drag and a two-finger scroll reach libinput exactly as from the source")
        func passThroughIsIdentical() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            for part in ["drag", "scroll"] {
                let reference = Self.touches(run, "reference.\(part)")
                #expect(reference.count > 50, "\(part): the reference saw the gesture (\(reference.count) lines)")
                #expect(Self.touches(run, "grab.\(part)") == reference, "\(part) through the clone differs")
            }
            #expect(run.facts.contains(["grab.source-events", "0"]), "libinput on the grabbed source read nothing")
        }

        @Test("a three-finger swipe: libinput sees its touches begin, then cancelled, never lifted")
        func threeFingerSwipeIsCancelled() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(Self.count(run, "grab.swipe3", "TOUCH_DOWN") == 3, run.diagnosis)
            #expect(Self.count(run, "grab.swipe3", "TOUCH_CANCEL") == 3)
            #expect(Self.count(run, "grab.swipe3", "TOUCH_UP") == 0)
            let json = run.lines("client", "json")
            #expect(json.contains { $0.contains("\"name\":\"three-finger-swipe\"") && $0.contains("\"touches_consumed\":true") })
            // unclaimed gestures say nothing of the kind
            #expect(json.contains { $0.contains("\"name\":\"swipe\"") && !$0.contains("touches_consumed") })
        }

        @Test("an edge swipe shows libinput nothing; a tap in the edge band reaches it late, whole, in order")
        func edgeBand() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let json = run.lines("client", "json")
            #expect(json.contains { $0.contains("\"name\":\"edge-left\"") && $0.contains("\"state\":\"ended\"") }, run.diagnosis)
            #expect(Self.touches(run, "grab.edge").isEmpty, "\(Self.touches(run, "grab.edge"))")
            let tap = Self.touches(run, "grab.edgetap").filter { !$0.hasPrefix("TOUCH_FRAME") }
            #expect(tap.count == 2 && tap.first?.hasPrefix("TOUCH_DOWN") == true && tap.last?.hasPrefix("TOUCH_UP") == true, "\(tap)")
            // down where the tap was: in the edge band (5.1 mm), half-way down the screen
            let down = try #require(tap.first.flatMap(Self.millimeters), "\(tap)")
            #expect(down.x < 5.142 && abs(down.y - 93.6) < 1, "\(down)")
            // the slow drag along the edge: held until the edge pan failed, then replayed as a
            // touch-down where it began and a jump to where it was, then followed to its lift
            let drag = Self.touches(run, "grab.edgedrag").filter { !$0.hasPrefix("TOUCH_FRAME") }
            let start = try #require(drag.first.flatMap(Self.millimeters), "\(drag)")
            #expect(drag.first?.hasPrefix("TOUCH_DOWN") == true && drag.last?.hasPrefix("TOUCH_UP") == true, "\(drag)")
            #expect(abs(start.y - 0.3 * 187.2) < 1, "down at the drag's start: \(start)")
            let first = try #require(drag.dropFirst().first.flatMap(Self.millimeters), "\(drag)")
            // one played frame moves 0.56 mm; the edge pan needs 2.3 mm to fail
            #expect(first.y - start.y > 2, "the held-back motion arrives in one step: \(start) → \(first)")
            #expect(drag.count > 30, "then every frame follows")
        }

        /// The millimetres of a libinput touch line ("… 0.51/49.97 ( 1.70/93.60mm)").
        static func millimeters(_ line: String) -> (x: Double, y: Double)? {
            guard let open = line.lastIndex(of: "("), line.hasSuffix("mm)") else { return nil }
            let inner = line[line.index(after: open)...].dropLast(3).trimmingCharacters(in: .whitespaces)
            let parts = inner.split(separator: "/").compactMap { Double($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }

        @Test("SIGTERM mid-touch: the clone's touch is cancelled, none is left down, the daemon exits 0")
        func sigtermLeavesNoTouchDown() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.integer("daemon", "exit") == 0)
            let down = Self.count(run, "sigterm.drag", "TOUCH_DOWN")
            #expect(down == 1, run.diagnosis)
            #expect(Self.count(run, "sigterm.drag", "TOUCH_UP") + Self.count(run, "sigterm.drag", "TOUCH_CANCEL") == down)
        }

        @Test("SIGKILL mid-touch: the kernel removes the clone and a fresh reader of the source gets the next touches")
        func sigkillGivesTheSourceBack() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.facts.contains(["sigkill", "clone-gone", "yes"]), run.diagnosis)
            #expect(Self.count(run, "sigkill.drag", "TOUCH_DOWN") == 1)
            #expect(Self.count(run, "sigkill.tap", "TOUCH_DOWN") == 1)
            #expect(Self.count(run, "sigkill.tap", "TOUCH_UP") == 1)
        }
    }
}
