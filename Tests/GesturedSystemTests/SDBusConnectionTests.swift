import Foundation
import Glibc
import GesturedSystem
import Synchronization
import Testing

/// ``SDBusConnection`` (sd-bus on the daemon's event loop) against a real, private
/// dbus-daemon: replies decoded into ``BusValue``s, error replies by name, signals through a
/// match, a lost bus reported once, and a missing one refused at connect. No sleeps: each
/// step waits for the next thing the connection reports.
@Suite("sd-bus connection", .serialized, .timeLimit(.minutes(1)))
struct SDBusConnectionTests {
    /// A dbus-daemon of its own (session configuration: this user may do everything).
    final class PrivateBus: @unchecked Sendable {
        let process = Process()
        let address: String

        init() throws {
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            process.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
            process.standardOutput = output
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw SystemError(operation: "start dbus-daemon (scripts/setup-deps.sh)", errno: .ioError) }
                line += chunk
            }
            address = String(decoding: line.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        }

        /// SIGKILL: a process spawned from the test runner inherits its blocked SIGTERM.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// What the connections report, in order, as text.
    final class Reports: Sendable {
        let stream: AsyncStream<String>
        let continuation: AsyncStream<String>.Continuation
        /// The connections, kept alive (only touched on the loop thread).
        let connections = Mutex<[SDBusConnection]>([])

        init() {
            (stream, continuation) = AsyncStream.makeStream(of: String.self)
        }

        func say(_ text: String) { continuation.yield(text) }
    }

    static func onLoop(_ loop: EventLoop, _ body: @escaping @Sendable () -> Void) {
        loop.execute(body)
    }

    static func text(_ result: Result<BusMessage, BusError>) -> String {
        switch result {
        case .success(let reply): "reply \(reply.body)"
        case .failure(let error): "error \(error.name)"
        }
    }

    @Test("a reply's a{sv} is decoded, an error reply is named, a match delivers its signal, and a lost bus is said once")
    func callsSignalsAndLoss() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = EventLoop(name: "test-sdbus")
        defer { loop.stop() }
        let reports = Reports()
        var next = reports.stream.makeAsyncIterator()
        let address = bus.address
        let driver = "org.freedesktop.DBus"

        Self.onLoop(loop) {
            do {
                let a = try SDBusConnection(address: address, loop: loop) { reports.say("a closed: \($0)") }
                reports.connections.withLock { $0.append(a) }
                try a.addMatch("type='signal',sender='\(driver)',member='NameOwnerChanged',arg0='org.gestured.Test'") { signal in
                    reports.say("signal \(signal.member ?? "") from \(signal.sender ?? "") \(signal.body.prefix(2))")
                }
                a.call(destination: driver, path: "/org/freedesktop/DBus", interface: driver, member: "GetConnectionCredentials", arguments: [.string(driver)]) { result in
                    guard case .success(let reply) = result, let credentials = reply.body.first?.dictionary else { return reports.say(Self.text(result)) }
                    reports.say("credentials uid \(credentials["UnixUserID"]?.uint32Value.map(String.init) ?? "-") pid \(credentials["ProcessID"]?.uint32Value.map(String.init) ?? "-")")
                }
                a.call(destination: driver, path: "/org/freedesktop/DBus", interface: driver, member: "GetNameOwner", arguments: [.string("org.gestured.Nobody")]) {
                    reports.say(Self.text($0))
                }
            } catch {
                reports.say("a failed: \(error)")
            }
        }
        // One connection's messages are handled in order: the match is in place before the reply.
        #expect(await next.next() == "credentials uid \(getuid()) pid \(bus.process.processIdentifier)")
        #expect(await next.next() == "error org.freedesktop.DBus.Error.NameHasNoOwner")

        Self.onLoop(loop) {
            do {
                let b = try SDBusConnection(address: address, loop: loop) { reports.say("b closed: \($0)") }
                reports.connections.withLock { $0.append(b) }
                b.call(destination: driver, path: "/org/freedesktop/DBus", interface: driver, member: "RequestName", arguments: [.string("org.gestured.Test"), .uint32(0)]) {
                    reports.say(Self.text($0))
                }
            } catch {
                reports.say("b failed: \(error)")
            }
        }
        // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER; the signal (old owner "") may come first.
        let two = [await next.next(), await next.next()].compactMap { $0 }.sorted()
        #expect(two == ["reply [GesturedSystem.BusValue.uint32(1)]", "signal NameOwnerChanged from \(driver) [GesturedSystem.BusValue.string(\"org.gestured.Test\"), GesturedSystem.BusValue.string(\"\")]"])

        bus.stop()
        let lost = [await next.next(), await next.next()].compactMap { $0 }.sorted()
        #expect(lost.count == 2 && lost[0].hasPrefix("a closed: ") && lost[1].hasPrefix("b closed: "), "each connection says once that it lost the bus: \(lost)")
        let closedAfterwards = await withCheckedContinuation { done in
            Self.onLoop(loop) { done.resume(returning: reports.connections.withLock { $0.map(\.isOpen) }) }
        }
        #expect(closedAfterwards == [false, false])
        // A call on the closed connection is answered, later, with an error.
        Self.onLoop(loop) {
            reports.connections.withLock { $0[0] }.call(destination: driver, path: "/", interface: driver, member: "Ping") { reports.say(Self.text($0)) }
        }
        #expect(await next.next() == "error org.freedesktop.DBus.Error.Disconnected")
    }

    @Test("no bus at the address: the connection is refused, naming the address and why")
    func noBus() async {
        let loop = EventLoop(name: "test-sdbus-none")
        defer { loop.stop() }
        let address = "unix:path=/nonexistent/gestured-test-bus"
        let error = await withCheckedContinuation { done in
            loop.execute {
                do throws(SystemError) {
                    _ = try SDBusConnection(address: address, loop: loop) { _ in }
                    done.resume(returning: SystemError?.none)
                } catch {
                    done.resume(returning: error)
                }
            }
        }
        #expect(error == SystemError(operation: "connect to the system bus", path: address, errno: .noSuchFileOrDirectory))
    }
}
