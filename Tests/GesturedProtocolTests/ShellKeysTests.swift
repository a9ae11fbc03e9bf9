import Testing

@testable import GesturedProtocol

/// The keys a shell needs to follow a gesture (issue 15; gestured-ipc(7) "Following a
/// gesture"): written by both writers alike and read back.
@Suite("Shell keys of gesture events")
struct ShellKeysTests {
    static func message(_ g: inout WireWriterTests.Generator) -> GestureEventMessage {
        var m = GestureEventMessage(
            name: g.text(), kind: "pan", state: WireGestureState.allCases[Int(g.next() % 5)], device: g.text(),
            deviceName: g.text(), timeUS: Int64(g.next() % 1_000_000_000), gestureID: "event5:\(g.next() % 1000)",
            fingers: Int(g.next() % 5), centroidMM: WireVector(x: g.double(), y: g.double()),
            centroidFraction: WireVector(x: g.double(), y: g.double()),
            translationMM: WireVector(x: g.double(), y: g.double()), velocityMMPerS: WireVector(x: g.double(), y: g.double())
        )
        m.dxDeltaMM = g.maybe { $0.double() }
        m.dyDeltaMM = g.maybe { $0.double() }
        m.dxFraction = g.maybe { $0.double() }
        m.dyFraction = g.maybe { $0.double() }
        m.scaleDelta = g.maybe { $0.double() }
        m.rotationDelta = g.maybe { $0.double() }
        m.restXMM = g.maybe { $0.double() }
        m.restYMM = g.maybe { $0.double() }
        m.restDxFraction = g.maybe { $0.double() }
        m.restDyFraction = g.maybe { $0.double() }
        m.flingS = g.maybe { $0.double() }
        return m
    }

    @Test("the wire writer writes the shell keys as the generic path does, and they decode back", arguments: 0..<10)
    func fastWriterAndDecoder(seed: UInt64) throws {
        var g = WireWriterTests.Generator(state: seed &+ 1000)
        for _ in 0..<100 {
            let m = Self.message(&g)
            let fast = try MessageEncoder().encode(.gesture(m))
            let reference = try MessageEncoder().line("gesture", m)
            #expect(String(decoding: fast, as: UTF8.self) == String(decoding: reference, as: UTF8.self))
            guard case .gesture(let decoded) = try MessageDecoder().decodeDaemonMessage(fast) else {
                Issue.record("not a gesture")
                continue
            }
            #expect(decoded == m)
        }
    }

    @Test("each key has its documented wire name and is omitted when absent")
    func names() throws {
        var m = GestureEventMessage(
            name: "pan3", kind: "pan", state: .ended, device: "/dev/input/event5", deviceName: "pad", timeUS: 1,
            gestureID: "event5:1", fingers: 3, centroidMM: WireVector(x: 1, y: 2), centroidFraction: WireVector(x: 0.1, y: 0.2)
        )
        let bare = try MessageEncoder().encodeString(.gesture(m))
        for key in ["dx_delta_mm", "dx_fraction", "scale_delta", "rotation_delta", "rest_x_mm", "rest_dx_fraction", "fling_s"] {
            #expect(!bare.contains("\"\(key)\""))
        }
        m.dxDeltaMM = 1.5
        m.dyDeltaMM = -0.25
        m.dxFraction = 0.125
        m.dyFraction = 0
        m.scaleDelta = 0.02
        m.rotationDelta = -0.01
        m.restXMM = 40
        m.restYMM = 2
        m.restDxFraction = 0.5
        m.restDyFraction = 0
        m.flingS = 0.642
        let line = try MessageEncoder().encodeString(.gesture(m))
        for fragment in [
            "\"dx_delta_mm\":1.5", "\"dy_delta_mm\":-0.25", "\"dx_fraction\":0.125", "\"dy_fraction\":0",
            "\"scale_delta\":0.02", "\"rotation_delta\":-0.01", "\"rest_x_mm\":40", "\"rest_y_mm\":2",
            "\"rest_dx_fraction\":0.5", "\"rest_dy_fraction\":0", "\"fling_s\":0.642",
        ] {
            #expect(line.contains(fragment), "\(fragment) in \(line)")
        }
    }
}
