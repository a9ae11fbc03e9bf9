import Foundation
import GesturedProtocol
import Testing

extension KernelTierTests {
    /// One boot of `Guest/daemon-resilience.sh`: the daemon and a socket client
    /// while the touchscreen is unplugged in the middle of a pinch, plugged
    /// back, and then made to lose events for real (SYN_DROPPED).
    @Suite("The daemon when devices misbehave")
    struct DaemonResilience {
        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/daemon-resilience.sh",
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 150
            )
        }

        @Test("a pinch cut off by unplugging is cancelled, and the daemon keeps running")
        func unplugMidPinch() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let gestures = try ClientTranscript.gestures(run, plug: 1)
            #expect(ClientTranscript.outcomes(gestures) == ["pinch fingers=2 began…cancelled grew"], run.diagnosis)
            #expect(run.values("daemon", "alive-after-plug1").count == 1, run.diagnosis)
        }

        @Test("the device plugged back in is used again")
        func pluggedBackIsUsed() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let nodes = [1, 2].map { run.values("plug\($0)", "node").first?.first }
            #expect(nodes[0] != nil && nodes[1] != nil, run.diagnosis)
            let gestures = try ClientTranscript.gestures(run, plug: 2)
            #expect(ClientTranscript.outcomes(gestures) == ["tap fingers=1"], run.diagnosis)
            #expect(gestures.allSatisfy { $0.device == nodes[1] })
            #expect(run.values("daemon", "alive-after-plug2").count == 1, run.diagnosis)
        }

        @Test("after events are lost (SYN_DROPPED) the daemon resynchronises and recognizes what follows")
        func recoversFromSynDropped() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            // a reader stopped alongside the daemon did lose events: the overflow is real
            let dropped = try #require(run.integer("plug3", "reference-syn-dropped"), run.diagnosis)
            #expect(dropped >= 1, "the kernel's buffer did not overflow; the test proves nothing")
            let outcomes = ClientTranscript.outcomes(try ClientTranscript.gestures(run, plug: 3))
            // whatever survived of the flood is a complete gesture, never one left open
            #expect(outcomes.allSatisfy { !$0.contains("began,") && !$0.hasSuffix(" began") }, "\(outcomes)")
            // the tap played after the daemon resumed
            #expect(outcomes.contains("tap fingers=1"), run.diagnosis)
            // then the three-finger swipe: its fingers land in slots the drop left stale
            #expect(Array(outcomes.suffix(2)) == ["tap fingers=1", "three-finger-swipe fingers=3 left"], run.diagnosis)
            #expect(run.values("daemon", "alive-after-plug3").count == 1, run.diagnosis)
            #expect(run.integer("daemon", "exit") == 0, run.diagnosis)
        }
    }
}
