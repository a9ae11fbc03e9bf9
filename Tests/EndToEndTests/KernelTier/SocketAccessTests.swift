import Foundation
import GesturedProtocol
import Testing

extension KernelTierTests {
    /// One boot of `Guest/socket-access.sh`: the daemon's socket with its
    /// shipped owner group and mode, tried by a user in that group and by one
    /// outside it.
    @Suite("Who may use the daemon's socket")
    struct SocketAccess {
        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/socket-access.sh",
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 60
            )
        }

        @Test("the socket belongs to the gestured group and only the group may write to it")
        func socketPermissions() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            #expect(run.values("socket", "mode") == [["660", "group", "gestured"]], run.diagnosis)
        }

        @Test("a user in the gestured group connects and is greeted")
        func memberConnects() async throws {
            let run = try await Self.boot.value
            #expect(run.integer("member", "connect-exit") == 0, run.diagnosis)
            let reply = try #require(run.lines("member", "json").first, run.diagnosis)
            guard case .hello(let hello) = try MessageDecoder().decodeDaemonMessage(Array(reply.utf8)) else {
                Issue.record("the member's first reply is not hello: \(reply)")
                return
            }
            #expect(hello.protocolVersion == ProtocolVersion.major)
            // raw touches are for privileged clients only
            #expect(!hello.capabilities.contains(Capability.rawTouches), "\(hello.capabilities)")
        }

        @Test("a user outside the gestured group cannot connect")
        func outsiderIsRefused() async throws {
            let run = try await Self.boot.value
            #expect(run.integer("outsider", "connect-exit") != 0, run.diagnosis)
            #expect(run.values("outsider", "connect-error").map { $0.joined(separator: " ") } == ["Permission denied"], run.diagnosis)
            #expect(run.lines("outsider", "json").isEmpty, run.diagnosis)
        }
    }
}
