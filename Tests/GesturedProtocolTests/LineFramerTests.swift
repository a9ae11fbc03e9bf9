import Testing

@testable import GesturedProtocol

private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
private func line(_ s: String) -> LineFramer.Event { .line(Array(s.utf8)) }

@Suite("Line framing")
struct LineFramerTests {
    @Test("a line split across chunks is yielded once, when its newline arrives")
    func splitLine() {
        var framer = LineFramer()
        #expect(framer.append(bytes("{\"type\":")) == [])
        #expect(framer.bufferedByteCount == 8)
        #expect(framer.append(bytes("\"ping\"}")) == [])
        #expect(framer.append(bytes("\n")) == [line("{\"type\":\"ping\"}")])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("several lines in one chunk come out in order, the tail stays buffered")
    func severalLines() {
        var framer = LineFramer()
        let events = framer.append(bytes("a\nbb\nccc\nde"))
        #expect(events == [line("a"), line("bb"), line("ccc")])
        #expect(framer.append(bytes("f\n")) == [line("def")])
    }

    @Test("CRLF terminators lose the carriage return, a lone CR inside a line stays")
    func crlf() {
        var framer = LineFramer()
        #expect(framer.append(bytes("ping\r\na\rb\n")) == [line("ping"), line("a\rb")])
    }

    @Test("empty lines and bare CRLFs are skipped")
    func emptyLines() {
        var framer = LineFramer()
        #expect(framer.append(bytes("\n\r\n\nx\n\n")) == [line("x")])
    }

    @Test("a line of exactly the maximum is accepted, with or without CR")
    func exactlyMaximum() {
        var framer = LineFramer(maximumLineLength: 4)
        #expect(framer.append(bytes("abcd\nabcd\r\n")) == [line("abcd"), line("abcd")])
    }

    @Test("an over-long line is reported as soon as it crosses the bound, then discarded")
    func overLong() {
        var framer = LineFramer(maximumLineLength: 4)
        #expect(framer.append(bytes("abc")) == [])
        #expect(framer.append(bytes("de")) == [.tooLong(length: 5)])
        // The rest of that line is dropped without buffering; the next line is whole.
        #expect(framer.append(bytes("fghijklmnop")) == [])
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.append(bytes("q\nok\n")) == [line("ok")])
    }

    @Test("a CR right at the bound followed by other bytes is over-long")
    func crAtBound() {
        var framer = LineFramer(maximumLineLength: 4)
        #expect(framer.append(bytes("abcd\r")) == [])
        #expect(framer.append(bytes("x")) == [.tooLong(length: 6)])
    }

    @Test("the default maximum is 64 KiB")
    func defaultMaximum() {
        var framer = LineFramer()
        #expect(framer.maximumLineLength == 65_536)
        let ok = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
        #expect(framer.append(ok + [10]) == [.line(ok)])
        #expect(framer.append(ok + [UInt8(ascii: "x")]) == [.tooLong(length: 65_537)])
    }

    @Test("finish returns a final unterminated line, and nothing after an over-long one")
    func finish() {
        var framer = LineFramer(maximumLineLength: 4)
        _ = framer.append(bytes("ab"))
        #expect(framer.finish() == line("ab"))
        #expect(framer.finish() == nil)
        _ = framer.append(bytes("abcdefg"))
        #expect(framer.finish() == nil)
    }

    @Test("byte-at-a-time feeding gives the same lines as one chunk")
    func byteAtATime() {
        let input = bytes("{\"type\":\"hello\"}\r\n\n{\"type\":\"ping\",\"id\":2}\n")
        var whole = LineFramer()
        var single = LineFramer()
        let expected = whole.append(input)
        var got: [LineFramer.Event] = []
        for byte in input { got += single.append([byte]) }
        #expect(got == expected)
        #expect(got.count == 2)
    }
}
