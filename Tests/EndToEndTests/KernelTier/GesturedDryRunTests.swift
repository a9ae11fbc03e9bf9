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

        /// What gestured printed for `device`, decoded with the protocol module.
        static func messages(_ run: GuestRun, _ device: String) throws -> [DaemonMessage] {
            let decoder = MessageDecoder()
            return try run.lines(device, "json").map { line in
                try decoder.decodeDaemonMessage(Array(line.utf8))
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
