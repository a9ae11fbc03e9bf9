import Foundation
import GesturedProtocol
import Testing

extension KernelTierTests {
    /// One boot of `Guest/gestured-dry-run.sh`: `gestured --dry-run NODE --json`
    /// (this build's binary) on the project's touchscreen and clickpad, made
    /// with uinput, with scripted touches played onto them in real time.
    @Suite("gestured --dry-run on uinput devices")
    struct GesturedDryRun {
        /// The guest is booted once for the tests below, on first use.
        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/gestured-dry-run.sh",
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 150
            )
        }

        /// What gestured printed for `device`, decoded with the protocol module
        /// (blank lines skipped: their framing has its own test).
        static func messages(_ run: GuestRun, _ device: String) throws -> [DaemonMessage] {
            let decoder = MessageDecoder()
            return try run.lines(device, "json").filter { !$0.isEmpty }.map { line in
                try decoder.decodeDaemonMessage(Array(line.utf8))
            }
        }

        /// The gesture events gestured printed for `device`, in order.
        static func gestures(_ run: GuestRun, _ device: String) throws -> [GestureEventMessage] {
            try messages(run, device).compactMap { message in
                if case .gesture(let gesture) = message { return gesture }
                return nil
            }
        }

        /// A discrete gesture as the tests compare it: configured name, fingers, direction.
        struct Recognized: Equatable, CustomStringConvertible {
            var name: String
            var fingers: Int
            var direction: String?
            var description: String { "\(name) \(fingers)\(direction.map { " " + $0 } ?? "")" }
        }

        static func recognized(_ gestures: [GestureEventMessage]) -> [Recognized] {
            gestures.filter { $0.state == .recognized }.map {
                Recognized(name: $0.name, fingers: $0.fingers, direction: $0.direction)
            }
        }

        /// The device_added message of `device`, exactly one, first.
        static func announcement(_ run: GuestRun, _ device: String) throws -> DeviceInfo {
            let messages = try messages(run, device)
            let added = messages.compactMap { message -> DeviceInfo? in
                if case .deviceAdded(let info) = message { return info }
                return nil
            }
            #expect(added.count == 1, run.diagnosis)
            guard case .deviceAdded(let info)? = messages.first else {
                Issue.record("the first message for the \(device) is not device_added\n\(run.diagnosis)")
                throw KernelTierError.missingFact("\(device) device_added")
            }
            return info
        }

        @Test("gestured describes the uinput touchscreen as the kernel reports it")
        func touchscreenIsAnnounced() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let node = try #require(run.values("touchscreen", "node").first?.first, run.diagnosis)
            let info = try Self.announcement(run, "touchscreen")
            #expect(info.device == node)
            #expect(info.name == "ELAN Touchscreen")
            #expect(info.kind == "touchscreen")
            #expect(info.vendor == 0x04f3 && info.product == 0x010c)
            #expect(info.slots == 10)
            // 3312 x 1872 units at 10 units/mm
            #expect(abs(info.widthMM - 331.2) < 0.15 && abs(info.heightMM - 187.2) < 0.15, "\(info)")
            #expect(!info.approximateUnits)
        }

        @Test("gestured describes the uinput clickpad as the kernel reports it")
        func clickpadIsAnnounced() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let node = try #require(run.values("clickpad", "node").first?.first, run.diagnosis)
            let info = try Self.announcement(run, "clickpad")
            #expect(info.device == node)
            #expect(info.name == "Logitech Rechargeable Touchpad T650")
            #expect(info.kind == "touchpad")
            #expect(info.vendor == 0x046d && info.product == 0x4101)
            #expect(info.slots == 10)
            // 2832 x 2364 units at 23 units/mm
            #expect(abs(info.widthMM - 123.1) < 0.15 && abs(info.heightMM - 102.8) < 0.15, "\(info)")
            #expect(!info.approximateUnits)
        }

        @Test("a finger already resting when gestured opens the device is a touch where it rests")
        func restingFingerIsSeeded() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.values("resting", "exit").first?.first == "0", run.diagnosis)
            // It rested from before the open until after the announcement: a tap or, if the
            // guest took longer than half a second, a long press; either is at (150, 90) mm.
            let gestures = try Self.gestures(run, "resting")
            let first = try #require(gestures.first, "no gesture from the resting finger\n\(run.diagnosis)")
            #expect(["tap", "long-press"].contains(first.name), "\(gestures)")
            #expect(first.fingers == 1)
            #expect(abs(first.xMM - 150) < 0.5 && abs(first.yMM - 90) < 0.5, "\(first)")
        }

        @Test("taps and a three-finger swipe on the touchscreen are recognized, in order")
        func touchscreenGestures() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let gestures = try Self.gestures(run, "touchscreen")
            // the script: a tap, a two-finger tap, a three-finger swipe right
            #expect(
                Self.recognized(gestures) == [
                    Recognized(name: "tap", fingers: 1, direction: nil),
                    Recognized(name: "two-finger-tap", fingers: 2, direction: nil),
                    Recognized(name: "three-finger-swipe", fingers: 3, direction: "right"),
                ],
                run.diagnosis
            )
            #expect(gestures.allSatisfy { $0.state == .recognized }, "only discrete gestures: \(gestures)")
            #expect(gestures.map(\.kind) == ["tap", "tap", "swipe"])
        }

        @Test("swipes and a pinch on the clickpad are recognized, in order")
        func clickpadGestures() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let gestures = try Self.gestures(run, "clickpad")
            // the script: 3-finger swipe up, 4-finger swipe left, pinch out (scale 2)
            #expect(
                Self.recognized(gestures) == [
                    Recognized(name: "touchpad-three-finger-swipe", fingers: 3, direction: "up"),
                    Recognized(name: "touchpad-four-finger-swipe", fingers: 4, direction: "left"),
                ],
                run.diagnosis
            )
            let pinch = gestures.filter { $0.kind == "pinch" }
            #expect(pinch.map(\.name).allSatisfy { $0 == "touchpad-pinch" })
            let states = pinch.map(\.state)
            #expect(states.first == .began && states.last == .ended, "\(states)")
            #expect(states.dropFirst().dropLast().allSatisfy { $0 == .changed }, "\(states)")
            #expect(Set(pinch.map(\.gestureID)).count == 1, "one pinch, one id")
            // the fingers spread to twice their distance: the scale only grows and
            // ends near 2 (the first mm go to the recognizer's hysteresis)
            let scales = pinch.compactMap(\.scale)
            #expect(scales.count == pinch.count)
            #expect(zip(scales, scales.dropFirst()).allSatisfy { $0 <= $1 }, "\(scales)")
            #expect((1.75...2.05).contains(scales.last ?? 0), "\(scales)")
        }

        @Test("gestured --json prints one JSON object per line, without blank lines")
        func jsonFraming() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            for device in ["touchscreen", "clickpad"] {
                let lines = run.lines(device, "json")
                #expect(!lines.isEmpty, run.diagnosis)
                // every non-blank line decodes (Self.messages throws otherwise)
                #expect(try Self.messages(run, device).count == lines.filter { !$0.isEmpty }.count)
                #expect(lines.allSatisfy { !$0.isEmpty }, "\(device): blank lines in gestured's output")
            }
        }

        @Test(
            "the dry run ends by itself when its device is removed",
            arguments: ["touchscreen", "clickpad"]
        )
        func dryRunEndsWithItsDevice(device: String) async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let node = try #require(run.values(device, "node").first?.first, run.diagnosis)
            #expect(run.integer(device, "exit") == 0, run.diagnosis)
            let last = try Self.messages(run, device).last
            guard case .deviceRemoved(let removed)? = last else {
                Issue.record("the last message for the \(device) is not device_removed: \(String(describing: last))")
                return
            }
            #expect(removed.device == node)
        }
    }
}

/// A fact a guest script should have printed and did not.
enum KernelTierError: Error {
    case missingFact(String)
}
