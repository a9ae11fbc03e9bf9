internal import Glibc

/// Credentials of the process on the other end of a Unix socket (`SO_PEERCRED`).
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    /// Credentials as given (the kernel's come from the socket; tests name a peer).
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    public var description: String { "pid=\(pid) uid=\(uid) gid=\(gid)" }
}

/// What a non-blocking read returned.
public enum ReadOutcome: Equatable, Sendable {
    case bytes([UInt8])
    /// The peer closed its end (read returned 0) or reset the connection.
    case endOfFile
    case wouldBlock
}

/// One accepted or connected Unix stream socket. Owns its descriptor.
///
/// Confinement: a connection is used by one queue at a time (the IPC queue for daemon-side
/// connections, the calling thread for clients), which is why it may be `Sendable` while
/// holding a mutable descriptor.
public final class UnixConnection: @unchecked Sendable {
    public private(set) var fileDescriptor: Int32
    public let credentials: PeerCredentials?

    init(adopting fd: Int32) {
        fileDescriptor = fd
        credentials = UnixConnection.peerCredentials(of: fd)
    }

    deinit {
        if fileDescriptor >= 0 { _ = Glibc.close(fileDescriptor) }
    }

    /// Connects to the socket at `path` (blocking connect, then non-blocking if asked).
    public static func connect(path: String, nonBlocking: Bool = false) throws(SystemError) -> UnixConnection {
        let fd = try systemCall("create a socket for", path: path) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        var address = try makeAddress(path)
        let result = retryingOnInterrupt {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        if case .failure(let errno) = result {
            _ = Glibc.close(fd)
            throw SystemError(operation: "connect to", path: path, errno: errno)
        }
        if nonBlocking { setNonBlocking(fd) }
        return UnixConnection(adopting: fd)
    }

    /// Reads what is available (at most `maximum` bytes).
    public func read(maximum: Int = 65536) throws(SystemError) -> ReadOutcome {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let fd = fileDescriptor
        let result = retryingOnInterrupt { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, maximum) } }
        switch result {
        case .success(0): return .endOfFile
        case .success(let n): return .bytes(Array(buffer[0..<n]))
        case .failure(.wouldBlock): return .wouldBlock
        case .failure(.connectionReset): return .endOfFile
        case .failure(let errno): throw SystemError(operation: "read from client socket", errno: errno)
        }
    }

    /// Writes as much of `bytes` as the socket takes now. `MSG_NOSIGNAL`: a peer that went away
    /// yields `EPIPE` instead of killing the daemon with SIGPIPE.
    /// - Returns: the number of bytes written, or `.wouldBlock`.
    public func write<C: Collection<UInt8>>(_ bytes: C) throws(SystemError) -> IOResult<Int> {
        // Arrays and their slices are written in place; only other collections are copied.
        let inPlace: Result<IOResult<Int>, SystemError>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(SystemError) { return .success(try write(UnsafeRawBufferPointer(buffer))) } catch { return .failure(error) }
        }
        if let inPlace { return try inPlace.get() }
        let array = Array(bytes)
        let copied: Result<IOResult<Int>, SystemError> = array.withUnsafeBytes { buffer in
            do throws(SystemError) { return .success(try write(buffer)) } catch { return .failure(error) }
        }
        return try copied.get()
    }

    /// ``write(_:)-(C)`` for an array, specialized: the daemon's fan-out writes a batch's
    /// array to every client, and the generic version, called across modules, went through
    /// the collection's witness table and a closure for each of those writes.
    public func write(_ bytes: [UInt8]) throws(SystemError) -> IOResult<Int> {
        let result: Result<IOResult<Int>, SystemError> = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { return .success(try write(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Writes as much of `buffer` as the socket takes now (see ``write(_:)-(C)``).
    public func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        let fd = fileDescriptor
        return try nonBlockingSystemCall("write to client socket") {
            send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
        }
    }

    /// Writes everything, blocking (clients and tests).
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            switch try write(bytes[offset...]) {
            case .processed(let n): offset += n
            case .wouldBlock:
                var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, -1)
            }
        }
    }

    /// Waits up to `timeoutMilliseconds` for the socket to become readable (-1 = forever).
    /// - Returns: false on timeout.
    public func waitReadable(timeoutMilliseconds: Int32) -> Bool {
        var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let result = retryingOnInterrupt { poll(&pfd, 1, timeoutMilliseconds) }
        if case .success(let n) = result { return n > 0 }
        return false
    }

    /// Stops sending (the peer then reads end-of-file after what was queued).
    public func shutdownWrite() {
        _ = Glibc.shutdown(fileDescriptor, Int32(SHUT_WR))
    }

    public func close() {
        if fileDescriptor >= 0 {
            _ = Glibc.close(fileDescriptor)
            fileDescriptor = -1
        }
    }

    static func peerCredentials(of fd: Int32) -> PeerCredentials? {
        // `struct ucred` is only declared with _GNU_SOURCE, which Glibc's module does not set;
        // the layout is three 32-bit fields (pid, uid, gid), mirrored here.
        var cred: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0 else { return nil }
        return PeerCredentials(pid: cred.0, uid: cred.1, gid: cred.2)
    }
}

/// A listening Unix stream socket. Owns its descriptor; unlinks the path it bound on close.
public final class UnixListener: @unchecked Sendable {
    public private(set) var fileDescriptor: Int32
    /// The bound path, or nil for an inherited (socket-activated) descriptor: systemd owns that
    /// path and removes it itself.
    public let path: String?

    private init(fd: Int32, path: String?) {
        fileDescriptor = fd
        self.path = path
    }

    deinit { close() }

    /// Binds `path`, replacing a stale socket left by a crashed daemon but never a live one
    /// or a non-socket file.
    /// - Parameters:
    ///   - mode: permission bits for the socket file (0660 by default).
    ///   - group: group id to own the socket, or nil to keep the process's.
    public static func bind(path: String, mode: UInt32 = 0o660, group: UInt32? = nil, backlog: Int32 = 128) throws(SystemError)
        -> UnixListener
    {
        var address = try makeAddress(path)
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw SystemError(operation: "bind (path exists and is not a socket)", path: path, errno: .fileExists)
            }
            if let live = try? UnixConnection.connect(path: path) {
                live.close()
                throw SystemError(operation: "bind (another gestured is listening)", path: path, errno: .addressInUse)
            }
            _ = unlink(path)
        }
        let fd = try systemCall("create a socket for", path: path) {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        let listener = UnixListener(fd: fd, path: path)
        _ = try systemCall("bind", path: path) {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        _ = try systemCall("set the mode of", path: path) { chmod(path, mode_t(mode)) }
        if let group {
            _ = try systemCall("set the group of", path: path) { chown(path, uid_t.max, gid_t(group)) }
        }
        _ = try systemCall("listen on", path: path) { listen(fd, backlog) }
        return listener
    }

    /// Adopts a descriptor passed by systemd socket activation (`LISTEN_FDS`), after checking
    /// that it is a listening Unix stream socket (`sd_is_socket_unix(3)`'s test).
    /// - Throws: when the descriptor is something else, so the caller can bind its own path.
    public static func adopt(fileDescriptor fd: Int32) throws(SystemError) -> UnixListener {
        var type: Int32 = 0
        var listening: Int32 = 0
        var family = sockaddr_storage()
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else {
            throw SystemError(operation: "use passed descriptor \(fd) (not a socket)", errno: .current)
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length)
        var addressLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &family) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &addressLength) }
        }
        guard named == 0, family.ss_family == sa_family_t(AF_UNIX), type == Int32(SOCK_STREAM.rawValue), listening == 1 else {
            throw SystemError(operation: "use passed descriptor \(fd) (not a listening Unix stream socket)", errno: .notSocket)
        }
        setNonBlocking(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return UnixListener(fd: fd, path: nil)
    }

    /// Accepts one pending connection, non-blocking; the connection is non-blocking too.
    public func accept() throws(SystemError) -> IOResult<UnixConnection> {
        let fd = fileDescriptor
        // accept4 needs _GNU_SOURCE; accept + fcntl gives the same flags (the listener is
        // only touched by one queue, so nothing can fork-exec in between).
        let result = try nonBlockingSystemCall("accept a client on", path: path) { Glibc.accept(fd, nil, nil) }
        switch result {
        case .processed(let clientFD):
            _ = fcntl(clientFD, F_SETFD, FD_CLOEXEC)
            setNonBlocking(clientFD)
            return .processed(UnixConnection(adopting: clientFD))
        case .wouldBlock: return .wouldBlock
        }
    }

    public func close() {
        guard fileDescriptor >= 0 else { return }
        _ = Glibc.close(fileDescriptor)
        fileDescriptor = -1
        if let path { _ = unlink(path) }
    }
}

/// Looks up a group id by name (`getgrnam_r`).
public func groupID(named name: String) -> UInt32? {
    var group = Glibc.group()
    var result: UnsafeMutablePointer<Glibc.group>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getgrnam_r(name, &group, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return group.gr_gid
}

/// Supplementary and primary group ids of a user (for raw-touch permission checks).
public func groupIDs(ofUser uid: UInt32, primaryGroup gid: UInt32) -> [UInt32] {
    var pwd = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(uid, &pwd, &buffer, buffer.count, &result) == 0, result != nil, let name = pwd.pw_name else {
        return [gid]
    }
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    if getgrouplist(name, gid, &groups, &count) < 0 {
        groups = [gid_t](repeating: 0, count: Int(count))
        _ = getgrouplist(name, gid, &groups, &count)
    }
    return Array(groups.prefix(Int(max(count, 0))))
}

func setNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
}

func makeAddress(_ path: String) throws(SystemError) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
        throw SystemError(operation: "use socket path (longer than \(capacity - 1) bytes)", path: path, errno: .nameTooLong)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, byte) in bytes.enumerated() { raw[i] = byte }
        raw[bytes.count] = 0
    }
    return address
}
