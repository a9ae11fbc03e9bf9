import Glibc
import Testing

@testable import GesturedSystem

/// A short per-test directory under /tmp (sun_path is 108 bytes).
func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/gd-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: path!)
}

@Suite("Unix sockets")
struct UnixSocketTests {
    @Test("a client connects, is accepted with its credentials, and bytes flow both ways")
    func connectAcceptAndExchange() throws {
        let dir = makeTemporaryDirectory()
        let path = dir + "/s.sock"
        let listener = try UnixListener.bind(path: path, mode: 0o660)
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o660)

        let client = try UnixConnection.connect(path: path)
        guard case .processed(let server) = try listener.accept() else {
            Issue.record("no pending connection after connect")
            return
        }
        #expect(server.credentials?.pid == getpid())
        #expect(server.credentials?.uid == getuid())

        try client.writeAll(Array("hello\n".utf8))
        #expect(server.waitReadable(timeoutMilliseconds: 5000))
        #expect(try server.read() == .bytes(Array("hello\n".utf8)))
        #expect(try server.read() == .wouldBlock)

        client.close()
        #expect(server.waitReadable(timeoutMilliseconds: 5000))
        #expect(try server.read() == .endOfFile)
        listener.close()
        #expect(access(path, F_OK) != 0, "closing the listener removes its socket file")
    }

    @Test("writing to a client that went away fails with EPIPE instead of killing the process")
    func writeToVanishedPeer() throws {
        let dir = makeTemporaryDirectory()
        let listener = try UnixListener.bind(path: dir + "/p.sock")
        let client = try UnixConnection.connect(path: dir + "/p.sock")
        guard case .processed(let server) = try listener.accept() else {
            Issue.record("no pending connection")
            return
        }
        client.close()
        var failure: SystemError?
        for _ in 0..<4 {
            do { _ = try server.write(Array(repeating: UInt8(65), count: 4096)) } catch { failure = error }
        }
        #expect(failure?.errno == .brokenPipe || failure?.errno == .connectionReset)
    }

    @Test("a stale socket file is replaced but a live daemon's socket is not")
    func staleAndLiveSockets() throws {
        let dir = makeTemporaryDirectory()
        let path = dir + "/d.sock"
        let live = try UnixListener.bind(path: path)
        #expect(throws: SystemError.self) { _ = try UnixListener.bind(path: path) }
        live.close()
        // A crashed daemon's socket: bound, its descriptor gone, the file left behind. Made
        // with a raw socket, so no listener object closes a descriptor number twice (another
        // test's descriptor may have taken it by then).
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try makeAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(stale)
        #expect(access(path, F_OK) == 0, "the stale socket file stays")
        let second = try UnixListener.bind(path: path)
        #expect(second.fileDescriptor >= 0)
        // A regular file is never removed.
        let filePath = dir + "/plain"
        let fd = open(filePath, O_CREAT | O_WRONLY, 0o600)
        close(fd)
        #expect(throws: SystemError.self) { _ = try UnixListener.bind(path: filePath) }
        #expect(access(filePath, F_OK) == 0)
    }

    @Test("a socket path longer than sun_path is refused with a clear error")
    func overlongPath() {
        let path = "/tmp/" + String(repeating: "x", count: 120)
        #expect(throws: SystemError(operation: "use socket path (longer than 107 bytes)", path: path, errno: .nameTooLong)) {
            _ = try UnixListener.bind(path: path)
        }
    }
}

@Suite("systemd integration")
struct SystemdIntegrationTests {
    @Test("sd_notify sends the state to NOTIFY_SOCKET as one datagram")
    func notifySendsDatagram() throws {
        let dir = makeTemporaryDirectory()
        let path = dir + "/n.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = try makeAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.notify("READY=1\nSTATUS=watching 2 devices") == nil)
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(n > 0)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == "READY=1\nSTATUS=watching 2 devices")
    }

    @Test("without NOTIFY_SOCKET notifications are a no-op")
    func notifyDisabled() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(notifier.isEnabled == false)
        #expect(notifier.notify("READY=1") == nil)
    }

    @Test("LISTEN_FDS is honoured only for this process", arguments: [
        (["LISTEN_PID": "42", "LISTEN_FDS": "1"], Int32(42), [Int32(3)]),
        (["LISTEN_PID": "42", "LISTEN_FDS": "2"], Int32(42), [Int32(3), 4]),
        (["LISTEN_PID": "41", "LISTEN_FDS": "1"], Int32(42), []),
        (["LISTEN_PID": "42", "LISTEN_FDS": "x"], Int32(42), []),
        ([:], Int32(42), []),
    ])
    func listenFDs(environment: [String: String], pid: Int32, expected: [Int32]) {
        #expect(ListenFDs.descriptors(environment: environment, pid: pid) == expected)
    }
}
