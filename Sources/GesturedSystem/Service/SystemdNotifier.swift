internal import CLinuxInput
internal import Glibc

/// `sd_notify(3)` without libsystemd: one datagram to `$NOTIFY_SOCKET` (systemd recommends
/// reimplementing it; STYLE.md B5).
public struct SystemdNotifier: Sendable {
    /// The socket path (a leading `@` means the abstract namespace), or nil outside systemd.
    public let socketPath: String?

    /// - Parameter environment: the process environment, read once in `main`.
    public init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"] ?? ""
        socketPath = path.isEmpty ? nil : path
    }

    public var isEnabled: Bool { socketPath != nil }

    /// Sends `state` (for example `READY=1\nSTATUS=…`). Failures are returned, not thrown: a
    /// notification that cannot be sent must not stop the daemon.
    @discardableResult
    public func notify(_ state: String) -> Errno? {
        guard let socketPath else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return Errno.current }
        defer { _ = close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return .nameTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let payload = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                payload.withUnsafeBytes { sendto(fd, $0.baseAddress, payload.count, Int32(MSG_NOSIGNAL), sockaddrPointer, length) }
            }
        }
        return sent < 0 ? Errno.current : nil
    }
}

/// `sd_listen_fds(3)` without libsystemd: descriptors passed by socket activation.
public enum ListenFDs {
    /// The first passed descriptor (`SD_LISTEN_FDS_START`).
    public static let start: Int32 = 3

    /// Descriptors passed to process `pid`, or empty when `LISTEN_PID` names another process
    /// or the variables are absent or malformed.
    public static func descriptors(environment: [String: String], pid: Int32) -> [Int32] {
        guard let pidText = environment["LISTEN_PID"], Int32(pidText) == pid,
            let countText = environment["LISTEN_FDS"], let count = Int32(countText), count > 0
        else { return [] }
        return (0..<count).map { start + $0 }
    }

    /// The current process id.
    public static var currentPID: Int32 { getpid() }
}

/// The monotonic clock of the kernel's evdev timestamps (`CLOCK_MONOTONIC`).
public enum MonotonicClock {
    /// Microseconds since the `CLOCK_MONOTONIC` origin.
    public static func nowMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
