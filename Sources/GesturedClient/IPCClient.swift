public import GesturedProtocol
public import GesturedSystem

/// A blocking client of gestured-ipc(7), used by `gesturectl`, the demo and the tests: it
/// connects, says hello, sends requests and reads daemon messages line by line.
///
/// `@unchecked Sendable`: it owns a socket descriptor and a line buffer, and must be used by
/// one thread at a time; handing it to another thread (the demo's reader) is safe.
public final class IPCClient: @unchecked Sendable {
    public let connection: UnixConnection
    public private(set) var hello: HelloReply?
    private var framer = LineFramer()
    private var pending: [DaemonMessage] = []
    private let encoder = MessageEncoder()
    private let decoder = MessageDecoder()
    private var nextID = 1

    /// Connects to `path` and exchanges `hello`.
    /// - Throws: `SystemError` when the socket is unreachable, `ProtocolError` when the daemon
    ///   refuses the hello.
    public init(path: String, clientName: String, sayHello: Bool = true) throws {
        connection = try UnixConnection.connect(path: path)
        if sayHello {
            let reply = try request(.hello(HelloRequest(clientName: clientName)))
            switch reply {
            case .hello(let h): hello = h
            case .error(let e): throw ProtocolError(code: e.code, message: e.message, requestID: e.id)
            default: throw ProtocolError(code: .badRequest, message: "expected a hello reply, got '\(reply.type)'")
            }
        }
    }

    /// Sends a request and returns its reply (the first reply or error carrying its id);
    /// events that arrive before it are kept for ``nextMessage()``.
    /// - Parameter timeoutMilliseconds: how long to wait for the reply (-1: forever); a
    ///   daemon that does not answer in time is an error, so a wedged peer cannot hang the
    ///   caller.
    public func request(_ request: ClientRequest, timeoutMilliseconds: Int32 = 30_000) throws -> DaemonMessage {
        let id = nextID
        nextID += 1
        try send(ClientMessage(id: id, request))
        var skipped: [DaemonMessage] = []
        defer { pending.insert(contentsOf: skipped, at: 0) }
        while true {
            guard let message = try readMessage(timeoutMilliseconds: timeoutMilliseconds) else {
                if connection.fileDescriptor >= 0, !isClosedByPeer {
                    throw SystemError(operation: "read a reply to '\(request.type)' from the daemon (no answer in time)", errno: .timedOut)
                }
                throw SystemError(operation: "read a reply from the daemon (connection closed)", errno: .connectionReset)
            }
            if replyID(message) == id { return message }
            if case .error(let e) = message, e.id == nil { return message }
            skipped.append(message)
        }
    }

    /// The daemon closed the connection (end of file was read).
    public private(set) var isClosedByPeer = false

    /// Sends one request line.
    public func send(_ message: ClientMessage) throws {
        try connection.writeAll(try encoder.encode(message))
    }

    /// Sends raw bytes (tests of malformed input).
    public func sendRaw(_ bytes: [UInt8]) throws {
        try connection.writeAll(bytes)
    }

    /// The next daemon message, blocking; nil when the daemon closed the connection.
    /// - Parameter timeoutMilliseconds: -1 waits forever; on timeout returns nil.
    public func nextMessage(timeoutMilliseconds: Int32 = -1) throws -> DaemonMessage? {
        if !pending.isEmpty { return pending.removeFirst() }
        return try readMessage(timeoutMilliseconds: timeoutMilliseconds)
    }

    private func readMessage(timeoutMilliseconds: Int32 = -1) throws -> DaemonMessage? {
        while true {
            if !pending.isEmpty { return pending.removeFirst() }
            guard connection.waitReadable(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
            switch try connection.read() {
            case .endOfFile:
                isClosedByPeer = true
                if case .line(let line)? = framer.finish() { return try decoder.decodeDaemonMessage(line) }
                return nil
            case .wouldBlock:
                continue
            case .bytes(let bytes):
                for event in framer.append(bytes) {
                    if case .line(let line) = event { pending.append(try decoder.decodeDaemonMessage(line)) }
                }
            }
        }
    }

    private func replyID(_ message: DaemonMessage) -> Int? {
        switch message {
        case .hello(let r): r.id
        case .ok(let r): r.id
        case .devices(let r): r.id
        case .status(let r): r.id
        case .error(let r): r.id
        default: nil
        }
    }

    public func close() { connection.close() }
}
