import GesturedConfig
import GesturedRandom
import Testing

/// ``ConfigText/lines(_:)`` walks UTF-8 bytes for speed; it must give exactly the lines that
/// splitting the text's Characters at `"\n"` and `"\r\n"` gives (what the lexer and the
/// actions.conf parser did before), for texts mixing CR, LF, CRLF, combining marks,
/// multi-byte characters and invalid UTF-8.
@Suite("Configuration text lines")
struct ConfigTextTests {
    static func characterLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    @Test("the same lines as a Character split", arguments: 0..<200)
    func sameAsCharacterSplit(seed: UInt64) {
        let pieces: [[UInt8]] = [
            [0x0A], [0x0D], [0x0D, 0x0A], [0x0D, 0x0D, 0x0A], Array("a".utf8), Array("Key=1".utf8), Array("é".utf8),
            Array("\u{301}".utf8), Array("👍🏽".utf8), [0xFF], [0xE2, 0x82], Array(" ".utf8), Array("[Gesture x]".utf8),
        ]
        var random = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        for _ in 0..<random.nextIndex(30) { bytes += pieces[random.nextIndex(pieces.count)] }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = ConfigText.lines(text)
        #expect(lines == Self.characterLines(text), "text \(bytes)")
    }

    @Test("CRLF, a lone CR, a CR before CRLF, and a last line without newline")
    func examples() {
        #expect(ConfigText.lines("a\r\nb\nc") == ["a", "b", "c"])
        #expect(ConfigText.lines("a\rb\n") == ["a\rb", ""])
        #expect(ConfigText.lines("a\r\r\n") == ["a\r", ""])
        #expect(ConfigText.lines("") == [""])
    }
}
