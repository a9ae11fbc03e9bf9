import CBenchSupport
import Dispatch
import Glibc
import GesturedSystem
import Synchronization

/// The floor under the daemon's fan-out: a bare loop that writes the same bytes to as many
/// connected Unix stream sockets (`socketpair(2)`), read by the same number of polling reader
/// threads, as the daemon benchmark's clients. Its CPU per `send(2)` is what the kernel's
/// socket path costs on this machine, so the daemon's figure per delivered message can be
/// read against it in the same run (docs/benchmarks.md, "daemon").
struct BareSend {
    /// Sockets (one per client).
    var sockets: Int
    /// Bytes of one write (the run's mean bytes per write).
    var bytesPerWrite: Int
    /// Lines in one write (reported only; the bytes decide the cost).
    var linesPerWrite: Double
    /// Rounds per second (the run's writes per second per client) and how many rounds.
    var roundsPerSecond: Double
    var rounds: Int

    struct Result {
        /// Writer thread CPU per write, ns.
        var cpuPerWrite: Double
        /// Writes made.
        var writes: Int
    }

    func run() -> Result? {
        var writers: [Int32] = []
        var readers: [Int32] = []
        for _ in 0..<sockets {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                print("bare send: socketpair failed (errno \(errno))")
                for fd in writers + readers { close(fd) }
                return nil
            }
            _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
            writers.append(pair[0])
            readers.append(pair[1])
        }
        defer { for fd in writers { close(fd) } }
        // Readers as in the benchmark: one thread for the first socket, three for the rest.
        let group = DispatchGroup()
        var sets: [[Int32]] = [[readers[0]]]
        for r in 0..<3 { sets.append(stride(from: 1 + r, to: readers.count, by: 3).map { readers[$0] }) }
        for (r, set) in sets.enumerated() where !set.isEmpty {
            group.enter()
            DispatchQueue(label: "bare-reader-\(r)").async {
                Self.drain(set)
                group.leave()
            }
        }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: max(1, bytesPerWrite - 1)) + [UInt8(ascii: "\n")]
        let interval = UInt64(1e9 / max(roundsPerSecond, 1))
        var writes = 0
        var cpu: UInt64 = 0
        var due = cbs_monotonic_nanoseconds()
        for _ in 0..<rounds {
            due += interval
            let now = cbs_monotonic_nanoseconds()
            if due > now { usleep(UInt32((due - now) / 1000)) }
            let c0 = cbs_thread_cpu_nanoseconds()
            line.withUnsafeBytes { buffer in
                for fd in writers where send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) > 0 { writes += 1 }
            }
            cpu += cbs_thread_cpu_nanoseconds() - c0
        }
        // EOF to every reader, then wait for them.
        for fd in writers { shutdown(fd, Int32(SHUT_WR)) }
        group.wait()
        return Result(cpuPerWrite: Double(cpu) / Double(max(writes, 1)), writes: writes)
    }

    /// Reads `fds` until each reaches end of file.
    static func drain(_ fds: [Int32]) {
        var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var open = fds.count
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            guard poll(&polls, nfds_t(polls.count), 1000) > 0 else { continue }
            for k in polls.indices where polls[k].revents != 0 && polls[k].fd >= 0 {
                polls[k].revents = 0
                let n = buffer.withUnsafeMutableBytes { recv(polls[k].fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 {
                    close(polls[k].fd)
                    polls[k].fd = -1
                    open -= 1
                }
            }
        }
    }
}
