import GestureEngine
import GesturedRandom
import Testing

@testable import GesturedDaemon
@testable import GesturedProtocol

/// The daemon's encoder writes each engine event straight into bytes (DESIGN.md "Daemon, event loop and socket protocol" ›
/// "The wire"). Its lines must be the bytes the old chain wrote — the event mapped to a
/// `GestureEventMessage` and encoded by the generic `Encodable` path with sorted keys — and
/// must decode back to that message, for every kind of gesture and every optional key.
@Suite("Wire encoder")
struct WireEncoderTests {
    /// The shared SplitMix64 (GesturedRandom), with the value shapes these tests draw.
    struct Generator {
        var random: SplitMix64
        init(state: UInt64) { random = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { random.next() }
        mutating func double() -> Double {
            switch next() % 5 {
            case 0: return Double(Int64(bitPattern: next()) % 1000)
            case 1: return Double(Int64(bitPattern: next()) % 100_000) / 997
            case 2: return Double(bitPattern: next() & 0x3FEF_FFFF_FFFF_FFFF) * (next() % 2 == 0 ? 1 : -1)
            case 3: return Double(next() % 1_000_000) * 1e-7
            default: return 0
            }
        }
        mutating func point() -> PhysicalPoint { PhysicalPoint(x: double(), y: double()) }
        mutating func maybe<T>(_ make: (inout Generator) -> T) -> T? { next() % 3 == 0 ? nil : make(&self) }
    }

    static let kinds: [GestureKind] = [.tap, .longPress, .pan, .swipe, .pinch, .rotation, .edgePan, .custom("tickle")]

    static func event(_ g: inout Generator, kind: GestureKind) -> GestureEvent {
        var e = GestureEvent(
            name: ["swipe-left-3", "pinch \"zoom\"", "back\\slash", "é✓"][Int(g.next() % 4)], kind: kind,
            state: GestureState.allCases[Int(g.next() % 7)], timestamp: Timestamp(microseconds: Int64(g.next() % 1_000_000_000_000)),
            sequence: g.next() % 100_000, fingers: Int(g.next() % 6), location: g.point(), locationFraction: g.point(),
            taps: g.maybe { Int($0.next() % 4) }, direction: g.maybe { Direction.allCases[Int($0.next() % 4)] },
            edge: g.maybe { Edge.allCases[Int($0.next() % 4)] }, scale: g.maybe { $0.double() }, rotation: g.maybe { $0.double() },
            translation: g.maybe { $0.point() }, velocity: g.maybe { $0.point() }, scalarVelocity: g.maybe { $0.double() },
            values: kind == .custom("tickle") && g.next() % 2 == 0 ? ["strokes": g.double(), "a/b": g.double(), "z": 1] : [:])
        e.translationDelta = g.maybe { $0.point() }
        e.translationFraction = g.maybe { $0.point() }
        e.scaleDelta = g.maybe { $0.double() }
        e.rotationDelta = g.maybe { $0.double() }
        if g.next() % 3 == 0 {
            e.fling = Fling(displacement: g.point(), duration: g.double(), restLocation: g.point(), restTranslationFraction: g.point())
        }
        return e
    }

    @Test("every kind of gesture encodes to the old chain's bytes and decodes back to its message", arguments: 0..<8)
    func gestureLines(seed: UInt64) throws {
        var g = Generator(state: seed)
        // The last two need escapes: the device's literals are spelled once, escaped as the
        // generic encoder escapes them.
        let nodes = ["/dev/input/event5", "replay:demo.evemu", "/dev/input/event12/", "replay:a \"b\".evemu", "replay:c\\d\tx"]
        let devices = [GestureSynthesizer.demoTouchscreen, GestureSynthesizer.demoClickpad]
        for kind in Self.kinds {
            for _ in 0..<60 {
                let e = Self.event(&g, kind: kind)
                let node = nodes[Int(g.next() % UInt64(nodes.count))]
                let device = devices[Int(g.next() % 2)]
                let locked = g.next() % 2 == 0
                let consumed = g.next() % 4 == 0
                let batch = EncodedBatch()
                #expect(WireMapping.appendGesture(e, device: WireDevice(node: node, device: device), locked: locked, consumed: consumed, to: batch))
                var message = WireMapping.gestureMessage(e, node: node, device: device)
                message.locked = locked
                if consumed { message.touchesConsumed = true }
                let reference = try MessageEncoder().line("gesture", message)
                let line = Array(try #require(batch.events.first.map { batch.line($0) }))
                #expect(String(decoding: line, as: UTF8.self) == String(decoding: reference, as: UTF8.self))
                guard case .gesture(let decoded) = try MessageDecoder().decodeDaemonMessage(line.dropLast()) else {
                    Issue.record("not a gesture line")
                    continue
                }
                #expect(decoded == message)
                // What the filters read is what the line says.
                let facts = try #require(batch.events.first)
                #expect(facts.name == message.name && facts.gestureKind == message.kind && facts.state == message.state)
                #expect(facts.device == message.device && facts.deviceName == message.deviceName)
                #expect((facts.coalesceKey != nil) == (message.state == .changed))
            }
        }
    }

    @Test("the cancelled the others get of a gesture a lock cut is the same line with another state")
    func stateOverride() throws {
        var g = Generator(state: 99)
        var e = Self.event(&g, kind: .pan)
        e.state = .changed
        let batch = EncodedBatch()
        let device = WireDevice(node: "/dev/input/event5", device: GestureSynthesizer.demoTouchscreen)
        WireMapping.appendGesture(e, device: device, locked: true, consumed: false, audience: .root, to: batch)
        WireMapping.appendGesture(e, device: device, locked: true, consumed: false, audience: .others, state: .cancelled, to: batch)
        #expect(batch.events.map(\.audience) == [.root, .others])
        let decoder = MessageDecoder()
        guard case .gesture(let root) = try decoder.decodeDaemonMessage(batch.line(batch.events[0]).dropLast()),
            case .gesture(let others) = try decoder.decodeDaemonMessage(batch.line(batch.events[1]).dropLast())
        else {
            Issue.record("not gesture lines")
            return
        }
        #expect(root.state == .changed && others.state == .cancelled)
        var same = others
        same.state = .changed
        #expect(same == root)
        #expect(batch.events[1].coalesceKey == nil, "a cancelled is never coalesced away")
    }

    @Test("raw touches encode to the old chain's bytes")
    func touchLines() throws {
        var g = Generator(state: 7)
        let device = WireDevice(node: "/dev/input/event7", device: GestureSynthesizer.demoTouchscreen)
        let batch = EncodedBatch()
        var expected: [UInt8] = []
        for phase in [TouchPhase.began, .moved, .stationary, .ended, .cancelled] {
            let t = SinkTouchEvent(touch: TouchID(g.next() % 1000), phase: phase, timestamp: Timestamp(microseconds: 12345), position: g.point())
            #expect(WireMapping.appendTouch(t, device: device, to: batch))
            expected += try MessageEncoder().line("touch", WireMapping.touchMessage(t, node: device.node))
        }
        #expect(String(decoding: batch.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(batch.events.allSatisfy { $0.kind == .touch })
    }

    @Test("rounded values that are not finite are written as 0, as before; a custom value that is not finite writes nothing")
    func notFinite() {
        var g = Generator(state: 3)
        var e = Self.event(&g, kind: .custom("tickle"))
        e.scale = .infinity
        let device = WireDevice(node: "/dev/input/event5", device: GestureSynthesizer.demoTouchscreen)
        let batch = EncodedBatch()
        #expect(WireMapping.appendGesture(e, device: device, locked: false, consumed: false, to: batch))
        #expect(String(decoding: batch.bytes, as: UTF8.self).contains("\"scale\":0,"))
        e.values = ["strokes": .nan]
        let refused = EncodedBatch()
        #expect(!WireMapping.appendGesture(e, device: device, locked: false, consumed: false, to: refused))
        #expect(refused.isEmpty && refused.bytes.isEmpty)
    }

    @Test("the gesture id is the node's last component and the attempt's sequence")
    func gestureID() throws {
        var g = Generator(state: 5)
        for (node, prefix) in [
            ("/dev/input/event5", "event5"), ("/dev/input/event5/", "event5"), ("replay:demo.evemu", "replay:demo.evemu"), ("/", "/"),
            ("replay:\"q\"\\", "replay:\"q\"\\"),
        ] {
            var e = Self.event(&g, kind: .tap)
            e.sequence = 12
            let batch = EncodedBatch()
            WireMapping.appendGesture(e, device: WireDevice(node: node, device: GestureSynthesizer.demoTouchscreen), locked: false, consumed: false, to: batch)
            guard case .gesture(let m) = try MessageDecoder().decodeDaemonMessage(batch.bytes.dropLast()) else {
                Issue.record("not a gesture")
                continue
            }
            #expect(m.gestureID == "\(prefix):12")
            #expect(m.gestureID == GestureEventMessage.gestureID(device: node, sequence: 12))
        }
    }

    @Test("a value rounded and spelled in one pass is the rounded value as number() spells it", arguments: 0..<4)
    func fixedPoint(seed: UInt64) {
        var g = Generator(state: seed &+ 1234)
        var values: [Double] = [0, -0.0, 0.004, -0.004, 0.005, -0.005, 0.00005, 1e11, -1e11, 99_999_999_999.994, 1e300, -1e-300, .infinity, -.infinity, .nan]
        for _ in 0..<20_000 {
            let magnitude = [1e-4, 1.0, 1e3, 1e6, 1e10, 1e12][Int(g.next() % 6)]
            values.append(Double(Int64(bitPattern: g.next()) % 1_000_000_000) / 1e9 * magnitude)
            values.append(g.double())
        }
        for value in values {
            for places in 0...4 {
                var fast = [UInt8](repeating: 0, count: 64)
                let count = fast.withUnsafeMutableBufferPointer { buffer in
                    var c = WireCursor(buffer.baseAddress!)
                    c.fixed(value, places: places)
                    return c.count
                }
                var reference: [UInt8] = []
                #expect(WireWriter.number(WireMapping.rounded(value, places: places), &reference))
                #expect(Array(fast[..<count]) == reference, "\(value) at \(places) places")
            }
        }
    }
}
