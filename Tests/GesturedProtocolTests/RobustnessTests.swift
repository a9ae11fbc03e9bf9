import GesturedRandom
import Testing

@testable import GesturedProtocol

@Suite("Protocol robustness")
struct ProtocolRobustnessTests {
    static let stream = Array(
        (#"{"type":"hello","id":1,"protocol_version":1,"client_name":"x"}"# + "\r\n\n"
            + #"{"type":"subscribe","kinds":["swipe"],"states":["began"]}"# + "\n" + String(repeating: "y", count: 300)
            + "\n" + #"{"type":"ping"}"# + "\n" + "tail").utf8
    )

    @Test("any chunking of a stream yields the same lines as one chunk", arguments: 0..<50)
    func chunking(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        var whole = LineFramer(maximumLineLength: 200)
        let expected = whole.append(Self.stream)
        var framer = LineFramer(maximumLineLength: 200)
        var got: [LineFramer.Event] = []
        var index = 0
        while index < Self.stream.count {
            let size = 1 + random.nextIndex(64)
            got += framer.append(Self.stream[index..<min(Self.stream.count, index + size)])
            index += size
        }
        #expect(got == expected)
        #expect(framer.finish() == whole.finish())
        #expect(expected.count == 4)  // three lines and one over-long line
    }

    @Test("mutated requests decode or fail with a protocol error, never crash", arguments: 0..<50)
    func mutatedRequests(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &+ 77)
        var bytes = Array(#"{"type":"subscribe","id":3,"gestures":["a"],"states":["began"],"raw_touches":true}"#.utf8)
        for _ in 0..<(1 + random.nextIndex(6)) {
            let at = random.nextIndex(bytes.count)
            if random.nextIndex(2) == 0 {
                bytes[at] = UInt8(random.nextIndex(256))
            } else {
                bytes.remove(at: at)
            }
        }
        do {
            let message = try MessageDecoder().decodeRequest(bytes)
            // A request that still decodes must encode to one line that decodes to itself.
            let line = try MessageEncoder().encode(message)
            #expect(try MessageDecoder().decodeRequest(line.dropLast()) == message)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }
}
