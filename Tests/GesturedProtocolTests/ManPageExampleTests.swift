import FoundationEssentials
import Testing

@testable import GesturedProtocol

/// The man page is the protocol's specification (STYLE.md B10), so its example session is
/// checked against the module: what the page shows is what the code writes.
@Suite("gestured-ipc(7) example session")
struct ManPageExampleTests {
    static func transcript(filePath: String = #filePath) throws -> [String] {
        var components = filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        let path = components.joined(separator: "/") + "/docs/man/gestured-ipc.7.scd"
        let page = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        // The transcript is the literal block that starts with the socat command.
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("$ socat - UNIX-CONNECT:") }) else { return [] }
        return Array(lines[(start + 1)...].prefix { $0 != "```" })
    }

    /// The line with its error message's "client 1, request 5: " removed: the daemon's session
    /// names the client and the line (ClientSessionMachine), the decoder's error is the rest.
    /// The whole line is checked against the daemon's session in GesturedDaemonTests
    /// ("the man page's example errors are what the session writes").
    static func withoutDaemonPrefix(_ line: String) -> String {
        let marker = #""message":"client "#
        guard let start = line.firstRange(of: marker) else { return line }
        let rest = line[start.upperBound...]
        guard let colon = rest.firstRange(of: ": ") else { return line }
        return String(line[..<start.lowerBound]) + #""message":""# + String(rest[colon.upperBound...])
    }

    @Test("every daemon line of the example is byte-identical to what the encoder writes")
    func daemonLines() throws {
        let lines = try Self.transcript()
        let daemonLines = lines.filter { !$0.hasPrefix("> ") }
        #expect(daemonLines.count >= 6)
        for line in daemonLines {
            let message = try MessageDecoder().decodeDaemonMessage(Array(line.utf8))
            if case .unknown(let type) = message { Issue.record("the example shows an unknown type \(type)") }
            #expect(try MessageEncoder().encodeString(message) == line + "\n")
        }
    }

    @Test("every typed line decodes, or fails with exactly the error shown after it")
    func typedLines() throws {
        let lines = try Self.transcript()
        var typed = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("> ") {
            typed += 1
            do {
                _ = try MessageDecoder().decodeRequest(Array(line.dropFirst(2).utf8))
            } catch {
                let reply = try MessageEncoder().encodeString(error.reply)
                #expect(index + 1 < lines.count && Self.withoutDaemonPrefix(lines[index + 1]) + "\n" == reply)
            }
        }
        #expect(typed == 5)
    }
}
