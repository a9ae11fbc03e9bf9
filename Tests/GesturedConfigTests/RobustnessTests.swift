import GesturedRandom
import Testing

@testable import GesturedConfig

@Suite("Parser robustness")
struct RobustnessTests {
    static let pieces = [
        "[", "]", "=", "\n", "\r\n", "#", ";", " ", "\t", "\"", "mm", "ms", "deg", "%", ",", ":", "-", "0x", "7.5",
        "1e9",
        "infinity", "[Gesture x]", "[Device d]", "[Daemon]", "Kind=tap", "Kind=pinch", "Taps=", "Edges=",
        "Region=rect:",
        "RequireFailureOf=x", "é", "\u{0}",
    ]

    @Test("mutated copies of the shipped configuration never crash and point inside the file", arguments: 0..<40)
    func mutations(seed: Int) throws {
        let original = Array(try repositoryFile("config/gestured.conf"))
        var random = SplitMix64(seed: UInt64(seed))
        var text = original
        for _ in 0..<(1 + random.nextIndex(20)) where !text.isEmpty {
            let at = random.nextIndex(text.count)
            switch random.nextIndex(3) {
            case 0: text.removeSubrange(at..<min(text.count, at + random.nextIndex(40)))
            case 1: text.insert(contentsOf: Self.pieces[random.nextIndex(Self.pieces.count)], at: at)
            default: text[at] = Character(Unicode.Scalar(UInt8(32 + random.nextIndex(95))))
            }
        }
        let mutated = String(text)
        let result = Configuration.parse(mutated, fileName: "m.conf")
        let lineCount = mutated.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .count
        for diagnostic in result.diagnostics {
            #expect(diagnostic.file == "m.conf")
            #expect((1...lineCount).contains(diagnostic.line), "\(diagnostic.rendered)")
            #expect(diagnostic.column >= 1, "\(diagnostic.rendered)")
        }
        // Whatever survived must render to text that parses without errors.
        if !result.hasErrors {
            #expect(!Configuration.parse(result.configuration.rendered(), fileName: "r").hasErrors)
        }
    }

    @Test("random sequences of syntax pieces never crash", arguments: 0..<40)
    func soup(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &+ 1000)
        var text = ""
        for _ in 0..<(random.nextIndex(200)) { text += Self.pieces[random.nextIndex(Self.pieces.count)] }
        let result = Configuration.parse(text, fileName: "soup")
        #expect(result.diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 })
    }
}
