import Testing

@testable import GesturedProtocol

/// JSON strings: the fast path (no escape: made from the input's bytes) and the escaping
/// path give the same values, and errors keep their offsets whichever path finds them.
@Suite("JSON strings")
struct JSONStringTests {
    static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        do throws(JSONSyntaxError) { return .success(try JSONParser.parse(bytes)) } catch { return .failure(error) }
    }

    @Test("plain, escaped, and mixed strings decode to the same text")
    func values() throws {
        let cases: [(String, String)] = [
            (#""abc""#, "abc"), (#""""#, ""), (#""é✓""#, "é✓"), (#""a\nb""#, "a\nb"), (#""ab\u00e9""#, "abé"),
            (#""\"x\"""#, "\"x\""), (#""x\\""#, "x\\"), (#""\ud83d\ude00 ok""#, "😀 ok"),
        ]
        for (text, expected) in cases {
            guard case .success(.string(let value)) = Self.parse(Array(text.utf8)) else {
                Issue.record("\(text) did not parse to a string")
                continue
            }
            #expect(value == expected, "\(text)")
        }
    }

    @Test("errors name the same byte on either path")
    func errorOffsets() {
        let cases: [([UInt8], String, Int)] = [
            ([0x22, 0xFF, 0x22], "invalid UTF-8 in a string", 3),
            ([0x22, 0x61, 0x01, 0x22], "control character in a string", 2),
            (Array(#""abc"#.utf8), "unterminated string", 4),
            (Array(#""ab\"#.utf8), "unterminated escape", 4),
            (Array(#""ab\q""#.utf8), "invalid escape", 5),
            ([0x22, 0x5C, 0x6E, 0xFF, 0x22], "invalid UTF-8 in a string", 5),
        ]
        for (bytes, reason, offset) in cases {
            guard case .failure(let error) = Self.parse(bytes) else {
                Issue.record("\(bytes) parsed")
                continue
            }
            #expect(error.reason == reason, "\(bytes)")
            #expect(error.offset == offset, "\(bytes): \(error)")
        }
    }
}
