import Foundation
import Testing

extension KernelTierTests {
    /// One boot of `Guest/libinput-reference.sh`: the project's touchscreen and
    /// clickpad descriptions made into uinput devices, classified by
    /// systemd-udevd, given scripted touches with real timing, and read back
    /// by `evemu-record` and `libinput debug-events`. It shows that what the
    /// later tests feed gestured is what real hardware would give the kernel.
    @Suite("Devices and libinput in the guest")
    struct LibinputReference {
        /// The guest is booted once for the tests below, on first use.
        static let boot = Task {
            // gesturectl (beside gestured) synthesizes the recordings
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/libinput-reference.sh",
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 120
            )
        }

        @Test("udev and the project's rules classify the ELAN description as a 331 x 187 mm touchscreen")
        func touchscreenIsClassified() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let udev = Set(try #require(run.values("touchscreen", "udev").first, run.diagnosis))
            #expect(udev.isSuperset(of: ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"]), run.diagnosis)
            #expect(udev.isSuperset(of: ["ID_INPUT_WIDTH_MM=331", "ID_INPUT_HEIGHT_MM=187"]), run.diagnosis)
            #expect(!udev.contains("ID_INPUT_TOUCHPAD=1"), run.diagnosis)
            // udev-rules/70-gestured.rules, applied by the guest's systemd-udevd
            #expect(udev.contains("GESTURED_DEVICE=touchscreen"), run.diagnosis)
        }

        @Test("every scripted touchscreen contact passes the kernel and reaches libinput")
        func touchscreenContactsArrive() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            // a tap, a two-finger tap, a three-finger swipe = 1 + 2 + 3 contacts
            #expect(run.integer("touchscreen", "kernel-contacts") == 6, run.diagnosis)
            let libinput = Dictionary(
                uniqueKeysWithValues: run.values("touchscreen", "libinput").compactMap { fields in
                    fields.count == 2 ? (fields[0], Int(fields[1]) ?? -1) : nil
                }
            )
            #expect(libinput["TOUCH_DOWN"] == 6, run.diagnosis)
            #expect(libinput["TOUCH_UP"] == 6, run.diagnosis)
            #expect((libinput["TOUCH_MOTION"] ?? 0) > 0, run.diagnosis)
            // a touchscreen has no libinput gestures
            #expect(run.values("touchscreen", "gesture").isEmpty, run.diagnosis)
        }

        @Test("udev and the project's rules classify the T650 description as a touchpad")
        func clickpadIsClassified() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let udev = Set(try #require(run.values("clickpad", "udev").first, run.diagnosis))
            #expect(udev.isSuperset(of: ["ID_INPUT=1", "ID_INPUT_TOUCHPAD=1"]), run.diagnosis)
            #expect(udev.isSuperset(of: ["ID_INPUT_WIDTH_MM=123", "ID_INPUT_HEIGHT_MM=102"]), run.diagnosis)
            #expect(!udev.contains("ID_INPUT_TOUCHSCREEN=1"), run.diagnosis)
            #expect(udev.contains("GESTURED_DEVICE=touchpad"), run.diagnosis)
        }

        @Test("libinput reports the clickpad's 3- and 4-finger swipes and the pinch, in order")
        func clickpadGesturesAreRecognized() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            // 3- and 4-finger swipes and a two-finger pinch = 3 + 4 + 2 contacts
            #expect(run.integer("clickpad", "kernel-contacts") == 9, run.diagnosis)
            // libinput starts a gesture whose fingers land without moving as a hold,
            // which it cancels once they move (the pinch here): holds are not counted
            let gestures = run.values("clickpad", "gesture").map { $0.joined(separator: " ") }
            #expect(gestures.filter { !$0.hasPrefix("HOLD ") } == ["SWIPE 3", "SWIPE 4", "PINCH 2"], run.diagnosis)
        }
    }
}
