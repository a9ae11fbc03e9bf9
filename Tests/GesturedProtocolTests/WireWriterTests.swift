import GesturedRandom
import Testing

@testable import GesturedProtocol

/// The table-driven event writer (``WireWriter``, keys in ``GestureEventMessage/wireOrder``)
/// must produce exactly the generic `Encodable` path's bytes (keys sorted by the JSON writer):
/// clients and goldens cannot tell which path wrote a line.
@Suite("Wire writer")
struct WireWriterTests {
    /// The shared seeded generator (SplitMix64), with the value shapes these tests draw.
    struct Generator {
        var random: SplitMix64
        init(state: UInt64) { random = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { random.next() }
        mutating func double() -> Double {
            switch next() % 6 {
            case 0: return Double(Int64(bitPattern: next()) % 1000)
            case 1: return Double(Int64(bitPattern: next()) % 100_000) / 100
            case 2: return Double(bitPattern: next() & 0x3FEF_FFFF_FFFF_FFFF) * (next() % 2 == 0 ? 1 : -1)
            case 3: return Double(next() % 1_000_000) * 1e-9
            case 4: return 1e15 * Double(next() % 100_000)
            default: return 0
            }
        }
        mutating func maybe<T>(_ make: (inout Generator) -> T) -> T? { next() % 3 == 0 ? nil : make(&self) }
        mutating func text() -> String {
            let pieces = ["tap", "three-finger swipe", "ELAN \"Touch\" screen", "/dev/input/event5", "back\\slash", "é✓", "ü/ä"]
            return pieces[Int(next() % UInt64(pieces.count))]
        }
    }

    @Test("gesture and touch lines equal the generic path's, byte for byte", arguments: 0..<20)
    func matchesJSONEncoder(seed: UInt64) throws {
        var g = Generator(state: seed)
        let encoder = MessageEncoder()
        for _ in 0..<200 {
            var message = GestureEventMessage(
                name: g.text(), kind: ["tap", "pinch", "edge_pan", "tickle"][Int(g.next() % 4)],
                state: WireGestureState.allCases[Int(g.next() % 5)], device: g.text(), deviceName: g.text(),
                timeUS: Int64(g.next() % 1_000_000_000_000), gestureID: "event5:\(g.next() % 1000)", fingers: Int(g.next() % 10),
                centroidMM: WireVector(x: g.double(), y: g.double()), centroidFraction: WireVector(x: g.double(), y: g.double()),
                taps: g.maybe { Int($0.next() % 4) }, direction: g.maybe { _ in "left" }, edge: g.maybe { _ in "top" },
                translationMM: g.maybe { WireVector(x: $0.double(), y: $0.double()) },
                velocityMMPerS: g.maybe { WireVector(x: $0.double(), y: $0.double()) },
                scale: g.maybe { $0.double() }, scaleVelocity: g.maybe { $0.double() }, rotation: g.maybe { $0.double() },
                rotationVelocity: g.maybe { $0.double() }, approximateUnits: g.next() % 2 == 0,
                values: g.next() % 3 == 0 ? ["strokes": g.double(), "a/b": g.double()] : [:],
                locked: g.maybe { $0.next() % 2 == 0 }
            )
            if g.next() % 2 == 0 { message.touchesConsumed = true }
            let fast = try encoder.encode(.gesture(message))
            let reference = try encoder.line("gesture", message)
            #expect(String(decoding: fast, as: UTF8.self) == String(decoding: reference, as: UTF8.self))
            let touch = TouchEventMessage(
                device: g.text(), timeUS: Int64(g.next() % 1_000_000_000), touchID: g.next() % 1000,
                phase: WireTouchPhase.allCases[Int(g.next() % 4)], xMM: g.double(), yMM: g.double())
            let fastTouch = try encoder.encode(.touch(touch))
            #expect(String(decoding: fastTouch, as: UTF8.self) == String(decoding: try encoder.line("touch", touch), as: UTF8.self))
        }
    }

    @Test("the wire order is the decoder's table sorted, with type in its place")
    func wireOrderIsSorted() {
        let names = GestureEventMessage.wireOrder.map(\.name)
        #expect(names == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(names.count == GestureEventMessage.CodingKeys.allCases.count + 1)
        #expect(names.contains("type"))
        #expect(TouchEventMessage.wireOrder.map(\.name) == ["device", "phase", "time_us", "touch_id", "type", "x_mm", "y_mm"])
    }

    @Test("rounded values are spelled from their digits exactly as Swift's shortest description", arguments: 0..<4)
    func shortDecimals(seed: UInt64) {
        var g = Generator(state: seed &+ 77)
        for _ in 0..<20_000 {
            var value = g.double()
            // Most values as the daemon sends them: rounded to 0…4 places, over many magnitudes.
            if g.next() % 4 != 0 {
                var scale = 1.0
                for _ in 0..<Int(g.next() % 5) { scale *= 10 }
                let magnitude = [1.0, 1e3, 1e6, 1e10, 1e12][Int(g.next() % 5)]
                value = ((Double(Int64(bitPattern: g.next()) % 1_000_000_000) / 1e9 * magnitude) * scale).rounded() / scale
            }
            var fast: [UInt8] = []
            _ = WireWriter.number(value, &fast)
            #expect(String(decoding: fast, as: UTF8.self) == JSONWriter.spell(value), "\(value)")
        }
        // The digits path is the one taken for such values.
        for value in [12.34, 0.07, -3.1416, 250, 0.0001, 1.5] {
            var bytes: [UInt8] = []
            #expect(WireWriter.shortDecimal(value, &bytes), "\(value)")
        }
        for value in [0.0, -0.0, 0.0001, -0.0001, 0.3, 0.1 + 0.2, 12.5, 99_999_999_999.9999, 1e11, 1e-5, 100, -7.25] {
            var fast: [UInt8] = []
            _ = WireWriter.number(value, &fast)
            #expect(String(decoding: fast, as: UTF8.self) == JSONWriter.spell(value), "\(value)")
        }
    }

    @Test("integers are spelled without building a string, at the extremes too")
    func integers() {
        for value: Int64 in [0, 7, 10, 99, 100, -1, -10, 1_000_000_000_000, .max, .min] {
            var bytes: [UInt8] = []
            WireWriter.integer(value, &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
        var bytes: [UInt8] = []
        WireWriter.unsigned(.max, &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == String(UInt64.max))
    }

    @Test("strings with control characters are escaped as the generic path does; a NaN is refused")
    func controlCharactersAndNaN() throws {
        var nan = JSONGoldenTests.swipe
        nan.scale = .nan
        #expect(throws: ProtocolError.self) { try MessageEncoder().encode(.gesture(nan)) }
        var odd = JSONGoldenTests.swipe
        odd.name = "a\u{1}b\n"
        #expect(try MessageEncoder().encode(.gesture(odd)) == MessageEncoder().line("gesture", odd))
        let line = try MessageEncoder().encodeString(
            .touch(TouchEventMessage(device: "odd\u{1}name", timeUS: 1, touchID: 2, phase: .began, xMM: 1, yMM: 2)))
        #expect(line.contains("\\u0001"))
    }

    @Test("the cursor copies every length byte for byte, at every offset, and nothing past the end")
    func cursorCopies() {
        let source = (0..<80).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...70 {
            for offset in 0..<3 {
                var out = [UInt8](repeating: 0xEE, count: 100)
                let count = out.withUnsafeMutableBufferPointer { buffer in
                    source.withUnsafeBufferPointer { from in
                        var c = WireCursor(buffer.baseAddress! + offset)
                        c.bytes(UnsafeBufferPointer(rebasing: from[offset..<(offset + length)]))
                        return c.count
                    }
                }
                #expect(count == length)
                #expect(Array(out[offset..<(offset + length)]) == Array(source[offset..<(offset + length)]), "\(length) bytes at \(offset)")
                #expect(out[..<offset].allSatisfy { $0 == 0xEE } && out[(offset + length)...].allSatisfy { $0 == 0xEE }, "\(length) bytes at \(offset): written outside")
            }
        }
    }
}
