import Foundation
import GesturedProtocol
import Testing

extension KernelTierTests {
    /// One boot of `Guest/daemon-hotplug.sh touchscreen clickpad`: the daemon
    /// socket-activated as its units would start it, a socket client subscribed, and then
    /// the touchscreen and the clickpad plugged in one after the other (found
    /// through udev), given the gestures of `Guest/<device>.gestures` (made by
    /// `gesturectl synthesize`, played in real time), and unplugged.
    @Suite("The daemon with hot-plugged uinput devices")
    struct DaemonHotplug {
        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/daemon-hotplug.sh",
                arguments: ["touchscreen", "clickpad"],
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 200
            )
        }

        static let touchscreenName = "ELAN Touchscreen"
        static let clickpadName = "Logitech Rechargeable Touchpad T650"

        static let directions = ["left", "right", "up", "down"]

        @Test("the socket-activated daemon signals readiness, serves the client and stops cleanly on SIGTERM")
        func lifecycle() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.values("daemon", "ready").count == 1, run.diagnosis)
            #expect(run.values("daemon", "socket-activated").count == 1, run.diagnosis)
            #expect(run.integer("daemon", "exit") == 0, run.diagnosis)
            let messages = try ClientTranscript.received(run)
            guard case .hello(let hello)? = messages.first else {
                Issue.record("the first reply is not hello: \(String(describing: messages.first))")
                return
            }
            #expect(hello.capabilities.contains(Capability.hotplug))
            guard case .shutdown(let shutdown)? = messages.last else {
                Issue.record("the last message is not shutdown: \(String(describing: messages.last))")
                return
            }
            #expect(shutdown.reason == "SIGTERM")
        }

        @Test("devices plugged in after the daemon started are announced and their removal too, in order")
        func hotplugIsFollowed() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            let nodes = [
                try #require(run.values("touchscreen", "node").first?.first, run.diagnosis),
                try #require(run.values("clickpad", "node").first?.first, run.diagnosis),
            ]
            let plugging = try ClientTranscript.received(run).compactMap { message -> String? in
                switch message {
                case .deviceAdded(let info): "added \(info.kind) \(info.name) \(info.device)"
                case .deviceRemoved(let removed): "removed \(removed.name) \(removed.device)"
                default: nil
                }
            }
            #expect(
                plugging == [
                    "added touchscreen \(Self.touchscreenName) \(nodes[0])",
                    "removed \(Self.touchscreenName) \(nodes[0])",
                    "added touchpad \(Self.clickpadName) \(nodes[1])",
                    "removed \(Self.clickpadName) \(nodes[1])",
                ],
                run.diagnosis
            )
        }

        @Test("every scripted touchscreen gesture reaches the client as the gesture it is")
        func touchscreenGestures() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            // Guest/touchscreen.gestures, line by line
            let swipes = ["swipe", "two-finger-swipe", "three-finger-swipe", "four-finger-swipe"]
            let expected =
                [
                    "tap fingers=1",
                    "double-tap fingers=1",
                    "long-press fingers=1 began…ended",
                ]
                + swipes.enumerated().flatMap { index, name in
                    Self.directions.map { "\(name) fingers=\(index + 1) \($0)" }
                }
                + [
                    "pinch fingers=2 began…ended shrank",
                    "pinch fingers=2 began…ended grew",
                    "rotate fingers=2 began…ended clockwise",
                    "edge-left fingers=1 began…ended from left",
                    "edge-right fingers=1 began…ended from right",
                    "edge-top fingers=1 began…ended from top",
                    "edge-bottom fingers=1 began…ended from bottom",
                ]
            let gestures = try ClientTranscript.gestures(run, device: Self.touchscreenName)
            #expect(ClientTranscript.outcomes(gestures) == expected, run.diagnosis)
            #expect(gestures.first { $0.name == "double-tap" }?.taps == 2)
        }

        @Test("the touchscreen's pinches and rotation have the scripted size")
        func touchscreenMagnitudes() async throws {
            let run = try await Self.boot.value
            let gestures = try ClientTranscript.gestures(run, device: Self.touchscreenName)
            let ends = gestures.filter { $0.state == .ended }
            // pinch scale=0.5, pinch scale=2: the recognizer starts counting a few
            // mm in (hysteresis), so the reported scales fall a little short
            let pinches = ends.filter { $0.kind == "pinch" }.compactMap(\.scale)
            #expect(pinches.count == 2)
            if pinches.count == 2 {
                #expect((0.45...0.6).contains(pinches[0]), "\(pinches)")
                #expect((1.75...2.05).contains(pinches[1]), "\(pinches)")
            }
            // rotation angle=90: π/2 clockwise, less the part spent on hysteresis
            let rotation = try #require(ends.first { $0.kind == "rotation" }?.rotation, "\(ends)")
            #expect((1.2...1.65).contains(rotation), "\(rotation) rad")
        }

        @Test("every scripted clickpad gesture reaches the client as the gesture it is")
        func clickpadGestures() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            // Guest/clickpad.gestures, line by line
            let expected =
                [
                    "touchpad-two-finger-tap fingers=2",
                    "touchpad-three-finger-tap fingers=3",
                ]
                + [3, 4].flatMap { fingers in
                    Self.directions.map { "touchpad-\(fingers == 3 ? "three" : "four")-finger-swipe fingers=\(fingers) \($0)" }
                }
                + [
                    "touchpad-pinch fingers=2 began…ended shrank",
                    "touchpad-pinch fingers=2 began…ended grew",
                    "touchpad-hold fingers=3 began…ended",
                ]
            let gestures = try ClientTranscript.gestures(run, device: Self.clickpadName)
            #expect(ClientTranscript.outcomes(gestures) == expected, run.diagnosis)
        }
    }
}
