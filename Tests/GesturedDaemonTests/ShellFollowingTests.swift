import GestureEngine
import GesturedCLISupport
import GesturedClient
import GesturedProtocol
import Synchronization
import Testing

@testable import GesturedDaemon

/// What a shell needs to follow a gesture (issue 15), end to end: synthesized touchscreen
/// input replayed by the daemon, read by a real client over a real socket.
@Suite("Following a gesture over the socket", .timeLimit(.minutes(2)))
struct ShellFollowingTests {
    static let config = """
        [Gesture pan3]
        Kind=pan
        MinimumNumberOfTouches=3
        MaximumNumberOfTouches=3

        """

    /// A three-finger drag across half the demo touchscreen; with `liftingAt`, its middle
    /// finger lifts at that script time while the others drag on.
    static func drag(liftingAt lift: Double? = nil) -> LoadedRecording {
        DaemonSocketTests.recording { s in
            var script = s.drag(fingers: 3, from: .fraction(x: 0.2, y: 0.5), to: .fraction(x: 0.7, y: 0.5), duration: 0.6)
            if let lift {
                let stroke = script.strokes[1]
                var keyframes = stroke.keyframes.filter { $0.time < lift }
                keyframes.append(.init(time: lift, position: stroke.position(at: lift)))
                script.strokes[1] = GestureScript.Stroke(keyframes: keyframes)
            }
            return script
        }
    }

    static func gestures(of recording: LoadedRecording) async -> [GestureEventMessage] {
        let received = Mutex<[GestureEventMessage]>([])
        let code = await DaemonSocketTests.withDaemon(replays: [recording], config: Self.config, waitClients: 1) { path in
            let client = try IPCClient(path: path, clientName: "shell")
            _ = try client.request(.subscribe(SubscribeRequest(gestures: ["pan3"])))
            let read = DaemonSocketTests.readGestures(client)
            #expect(read.sawShutdown)
            received.withLock { $0 = read.gestures }
        }
        #expect(code == .success)
        return received.withLock { $0 }
    }

    @Test("a three-finger drag: deltas add up to dx_mm, fractions of the surface, the fling on ended")
    func wholeDrag() async throws {
        let events = await Self.gestures(of: Self.drag())
        #expect(events.first?.state == .began)
        let ended = try #require(events.last)
        #expect(ended.state == .ended)
        #expect(!events.contains { $0.state == .cancelled })
        var sum = 0.0
        for e in events {
            let delta = try #require(e.dxDeltaMM, "\(e.state) has dx_delta_mm")
            sum += delta
            #expect(abs(sum - (e.dxMM ?? .nan)) < 1e-9, "deltas add up to dx_mm at \(e.timeUS)")
            let width = GestureSynthesizer.demoTouchscreen.widthMillimeters
            #expect(abs((e.dxFraction ?? .nan) - (e.dxMM ?? 0) / width) < 1e-4)
            #expect(e.scaleDelta == nil && e.rotationDelta == nil)
        }
        #expect(events.dropLast().allSatisfy { $0.flingS == nil && $0.restXMM == nil })
        // The fling of the release velocity, v·|v|/(2a) farther along x.
        let vx = try #require(ended.vxMMPerS)
        let vy = try #require(ended.vyMMPerS)
        let speed = (vx * vx + vy * vy).squareRoot()
        #expect(speed > 150)
        let slide = vx * speed / (2 * GestureMotion.flingDeceleration)
        #expect(abs(try #require(ended.restXMM) - (ended.xMM + slide)) < 0.02)
        #expect(abs(try #require(ended.flingS) - speed / GestureMotion.flingDeceleration) < 0.002)
        let width = GestureSynthesizer.demoTouchscreen.widthMillimeters
        #expect(abs(try #require(ended.restDxFraction) - ((ended.dxMM ?? 0) + slide) / width) < 1e-3)
    }

    @Test("a finger lifting halfway through a three-finger drag: cancelled 0.1 s later, nothing after")
    func fingerLifts() async throws {
        let events = await Self.gestures(of: Self.drag(liftingAt: 0.3))
        #expect(events.first?.state == .began)
        let last = try #require(events.last)
        #expect(last.state == .cancelled)
        #expect(last.fingers == 2)
        #expect(last.flingS == nil)
        #expect(events.filter { $0.state == .cancelled }.count == 1)
        #expect(!events.contains { $0.state == .ended })
        // All of one attempt.
        #expect(Set(events.map(\.gestureID)).count == 1)
        // Cancelled 100 ms after the lift frame; the replay starts at 1 s (script time 0).
        #expect(abs(Double(last.timeUS) - 1_400_000) <= 11_000)
    }
}
