import Foundation
import GesturedProtocol
import Testing

extension KernelTierTests {
    /// One boot of `Guest/record-replay.sh touchscreen clickpad touchscreen-used`: a live
    /// `gestured --dry-run` with `gesturectl record` and `libinput record`
    /// reading the same uinput device, then both recordings replayed with
    /// `gestured --replay`.
    @Suite("Recordings of a live device replay to the same gestures")
    struct RecordReplay {
        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/record-replay.sh",
                arguments: ["touchscreen", "clickpad", "touchscreen-used"],
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 200
            )
        }

        /// The gesture events one source printed for one device.
        static func gestures(_ run: GuestRun, _ device: String, _ source: String) throws -> [GestureEventMessage] {
            let decoder = MessageDecoder()
            return try run.lines(device, "\(source) json").compactMap { line in
                if case .gesture(let gesture) = try decoder.decodeDaemonMessage(Array(line.utf8)) { return gesture }
                return nil
            }
        }

        /// A gesture without what names its source: the device (a node or a file)
        /// and the prefix of its id; times moved by `offset` microseconds.
        static func normalized(_ gesture: GestureEventMessage, offset: Int64 = 0) -> GestureEventMessage {
            var gesture = gesture
            gesture.device = ""
            gesture.gestureID = String(gesture.gestureID.split(separator: ":").last ?? "")
            gesture.timeUS -= offset
            return gesture
        }

        @Test(
            "gesturectl record of a live device replays to exactly the live gestures, timestamps included",
            arguments: ["touchscreen", "clickpad", "touchscreen-used"]
        )
        func gesturectlRecordReplays(device: String) async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.values(device, "live").first == ["exit", "0"], run.diagnosis)
            #expect(run.values(device, "gesturectl-replay").first == ["exit", "0"], run.diagnosis)
            let live = try Self.gestures(run, device, "live")
            let replayed = try Self.gestures(run, device, "gesturectl-replay")
            // five scripted gestures, each recognized or begun and ended
            #expect(ClientTranscript.outcomes(live).count == 5, "\(ClientTranscript.outcomes(live))")
            #expect(replayed.map { Self.normalized($0) } == live.map { Self.normalized($0) })
        }

        @Test(
            "libinput record of a live device replays to the live gestures, shifted in time",
            arguments: ["touchscreen", "clickpad"]
        )
        func libinputRecordReplays(device: String) async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.values(device, "libinput-replay").first == ["exit", "0"], run.diagnosis)
            let live = try Self.gestures(run, device, "live")
            let replayed = try Self.gestures(run, device, "libinput-replay")
            try #require(!live.isEmpty && !replayed.isEmpty, run.diagnosis)
            // libinput record writes times relative to its start: one constant shift
            let shift = replayed[0].timeUS - live[0].timeUS
            #expect(replayed.map { Self.normalized($0, offset: shift) } == live.map { Self.normalized($0) })
        }
    }
}
