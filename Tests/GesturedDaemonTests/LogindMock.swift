import Foundation
import Synchronization
import Testing

@testable import GesturedDaemon

/// python-dbusmock's logind template on a private system bus (a real dbus-daemon), driven by
/// `logind-mock.py` one command at a time; each command returns once its D-Bus calls have
/// returned. Needs Debian's python3-dbusmock and dbus-daemon (scripts/setup-deps.sh).
///
/// `@unchecked Sendable`: a test may hand it to the task that drives the daemon; commands are
/// sent one at a time, each waiting for its answer, and nothing uses it concurrently.
final class LogindMock: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("logind-mock.py").path

    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()
    /// The private bus (`DBUS_SYSTEM_BUS_ADDRESS` for the daemon).
    private(set) var address = ""

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let first = try readLine()
        guard first.hasPrefix("address ") else {
            throw Failure(description: "logind-mock.py did not start a bus (is python3-dbusmock installed? scripts/setup-deps.sh): \(first)")
        }
        address = String(first.dropFirst("address ".count))
    }

    /// Sends one command (`start`, `lock 2`, …) and waits for its `ok`.
    func send(_ command: String) throws {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        let answer = try readLine()
        guard answer == "ok" else { throw Failure(description: "logind-mock.py '\(command)': \(answer)") }
    }

    /// Ends the mock and its bus.
    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "logind-mock.py exited (status \(process.isRunning ? -1 : process.terminationStatus))") }
            buffer.append(chunk)
        }
    }
}

/// Waits for a ``SeatSessions`` state without sleeping: woken by every change the tracker
/// makes, bounded by a timeout that fails loudly.
final class SeatWatcher: Sendable {
    private let sessions: SeatSessions
    /// Changes seen so far, and the wait to wake at the next one.
    private let changes = Mutex<(count: Int, waiter: CheckedContinuation<Void, Never>?)>((0, nil))

    init(_ sessions: SeatSessions) {
        self.sessions = sessions
        sessions.onChange { [self] in self.poke() }
    }

    private func poke() {
        let waiter = changes.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    private func nextChange(after count: Int) async {
        await withCheckedContinuation { continuation in
            let now = changes.withLock { state -> Bool in
                if state.count != count { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Returns once `condition` holds; throws after `timeoutSeconds` without it.
    func wait(_ what: String, timeoutSeconds: Double = 30, until condition: (SeatSessions) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        // The bound: wakes the wait at the deadline (it is not what the test waits for).
        let bound = Task { [self] in
            try? await Task.sleep(until: deadline)
            self.poke()
        }
        defer { bound.cancel() }
        while true {
            let seen = changes.withLock { $0.count }
            if condition(sessions) { return }
            guard ContinuousClock.now < deadline else {
                throw LogindMock.Failure(
                    description: "timed out after \(timeoutSeconds) s waiting for \(what); now \(sessions.availability): \(sessions.activeSessions)")
            }
            await nextChange(after: seen)
        }
    }
}
