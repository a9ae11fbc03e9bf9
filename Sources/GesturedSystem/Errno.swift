internal import Glibc

/// A POSIX error number with a Swift name (swift-system's `Errno` shape).
///
/// Only the numbers this project reacts to have names; any other value still round-trips
/// through ``rawValue`` and prints with the C library's message.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `EPERM`: operation not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `EINTR`: a signal interrupted the call (retried by ``retryingOnInterrupt(_:)``).
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`: input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// `ENXIO`: no such device or address.
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    /// `EBADF`: bad file descriptor (a programming error when it is our own descriptor).
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN`/`EWOULDBLOCK`: nothing to read or no room to write right now.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOMEM`: out of memory.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EFAULT`: bad address (a programming error).
    public static let badAddress = Errno(rawValue: EFAULT)
    /// `EBUSY`: device or resource busy (e.g. another process grabbed an evdev device).
    public static let resourceBusy = Errno(rawValue: EBUSY)
    /// `EEXIST`: file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `ENODEV`: no such device (an evdev device that was unplugged).
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `ENOTDIR`: not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// `EISDIR`: is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `EINVAL`: invalid argument.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `EMFILE`: too many open files in this process.
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// `ENOTTY`: inappropriate ioctl for device (e.g. `EVIOCGVERSION` on a regular file).
    public static let notATerminal = Errno(rawValue: ENOTTY)
    /// `ENOSPC`: no space left on device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// `EPIPE`: broken pipe.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ENAMETOOLONG`: file name too long (also a Unix socket path over 107 bytes).
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    /// `ENOSYS`: function not implemented.
    public static let notImplemented = Errno(rawValue: ENOSYS)
    /// `ENOTSOCK`: not a socket.
    public static let notSocket = Errno(rawValue: ENOTSOCK)
    /// `EOPNOTSUPP`: operation not supported.
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    /// `EADDRINUSE`: address already in use.
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    /// `ECONNRESET`: connection reset by peer.
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    /// `ENOBUFS`: no buffer space available (netlink receive queue overrun).
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    /// `ETIMEDOUT`: timed out.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// `ECONNREFUSED`: connection refused.
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)

    /// The calling thread's current `errno`.
    static var current: Errno { Errno(rawValue: errno) }

    /// The C library's message, e.g. `Permission denied` (what `strerror(3)` returns).
    public var description: String {
        // glibc's strerror returns static strings for known numbers and a thread-local buffer
        // for unknown ones (since 2.32), so it is safe here; copy the text out at once.
        guard let message = strerror(rawValue) else { return "errno \(rawValue)" }
        return String(cString: message)
    }

    /// The C spelling (`EACCES`) for logs and debugging; `errno N` for numbers not named here.
    public var symbol: String {
        Errno.symbols[rawValue] ?? "errno \(rawValue)"
    }

    private static let symbols: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
        EEXIST: "EEXIST", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL",
        EMFILE: "EMFILE", ENOTTY: "ENOTTY", ENOSPC: "ENOSPC", EPIPE: "EPIPE", ENAMETOOLONG: "ENAMETOOLONG",
        ENOSYS: "ENOSYS", ENOTSOCK: "ENOTSOCK", EOPNOTSUPP: "EOPNOTSUPP", EADDRINUSE: "EADDRINUSE",
        ECONNRESET: "ECONNRESET", ENOBUFS: "ENOBUFS", ETIMEDOUT: "ETIMEDOUT", ECONNREFUSED: "ECONNREFUSED",
    ]
}

/// The result of a call on a non-blocking descriptor: a value, or "try again later".
///
/// `EAGAIN` is an expected condition, not an error (STYLE B6), so it is a case here rather than a
/// thrown ``SystemError``.
public enum IOResult<Value> {
    case processed(Value)
    case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}
extension IOResult: Equatable where Value: Equatable {}

// MARK: - The one errno policy of the module (swift-system `valueOrErrno`, NIO `syscall`)

/// Runs a C call that returns `-1` and sets `errno` on failure, retrying while it fails with
/// `EINTR`.
///
/// - Returns: the call's result, or the `errno` it failed with.
func retryingOnInterrupt<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
    while true {
        let result = body()
        if result != -1 { return .success(result) }
        let error = Errno.current
        if error == .interrupted { continue }
        return .failure(error)
    }
}

/// Runs a C call that returns `-1`/`errno`, retrying on `EINTR`, and throws a ``SystemError``
/// naming `operation` and `path` for any other failure.
///
/// `EBADF` and `EFAULT` on our own descriptors are programming errors and trap (STYLE B6).
func systemCall<T: FixedWidthInteger>(
    _ operation: String,
    path: String? = nil,
    _ body: () -> T
) throws(SystemError) -> T {
    switch retryingOnInterrupt(body) {
    case .success(let value): return value
    case .failure(let error):
        precondition(error != .badAddress, "\(operation) was passed a bad address")
        throw SystemError(operation: operation, path: path, errno: error)
    }
}

/// Like ``systemCall(_:path:_:)`` for a non-blocking descriptor: `EAGAIN` becomes
/// ``IOResult/wouldBlock`` instead of an error.
func nonBlockingSystemCall<T: FixedWidthInteger>(
    _ operation: String,
    path: String? = nil,
    _ body: () -> T
) throws(SystemError) -> IOResult<T> {
    switch retryingOnInterrupt(body) {
    case .success(let value): return .processed(value)
    case .failure(let error) where error == .wouldBlock: return .wouldBlock
    case .failure(let error):
        precondition(error != .badAddress, "\(operation) was passed a bad address")
        throw SystemError(operation: operation, path: path, errno: error)
    }
}

/// For libevdev/libudev-style calls that return `-errno` (negative) on failure and `>= 0` on
/// success; retries on `-EINTR`.
///
/// - Returns: the non-negative result, or the `errno` it failed with.
func retryingNegativeErrno(_ body: () -> Int32) -> Result<Int32, Errno> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        if -result == EINTR { continue }
        return .failure(Errno(rawValue: -result))
    }
}
