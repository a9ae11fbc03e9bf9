import GesturedProtocol
import GesturedSystem

/// A subscription to the daemon that hands out each message together with the exact line
/// the daemon sent (`listen --json` prints that line, so fields a newer daemon adds survive),
/// and that can be polled alongside other descriptors (`run` also waits for its children).
///
/// `IPCClient` decodes lines and keeps them private; this is the same exchange (hello, then
/// subscribe) over `UnixConnection` with its own framer.
final class EventStream {
    let connection: UnixConnection
    private var framer = LineFramer()
    private var queued: [(line: [UInt8], message: DaemonMessage)] = []
    private var closed = false
    private let decoder = MessageDecoder()
    private let encoder = MessageEncoder()
    /// The daemon's hello reply.
    private(set) var hello: HelloReply?

    enum OpenError: Error, CustomStringConvertible {
        case unreachable(SystemError)
        case refused(String)
        case protocolError(String)

        var description: String {
            switch self {
            case .unreachable(let error): error.description
            case .refused(let message): message
            case .protocolError(let message): message
            }
        }
    }

    /// Connects, says hello as `clientName` and subscribes.
    init(socket: String, clientName: String, subscription: SubscribeRequest) throws(OpenError) {
        do {
            connection = try UnixConnection.connect(path: socket)
        } catch {
            throw .unreachable(error)
        }
        switch try exchange(ClientMessage(id: 1, .hello(HelloRequest(clientName: clientName)))) {
        case .hello(let reply): hello = reply
        case .error(let e): throw .refused("hello refused: \(e.message) [\(e.code.rawValue)]")
        case let other: throw .protocolError("expected a hello reply, got '\(other.type)'")
        }
        switch try exchange(ClientMessage(id: 2, .subscribe(subscription))) {
        case .ok: break
        case .error(let e): throw .refused("subscribe refused: \(e.message) [\(e.code.rawValue)]")
        case let other: throw .protocolError("expected an ok reply, got '\(other.type)'")
        }
    }

    /// The id of the next request ``send(_:)`` makes (hello and subscribe took 1 and 2).
    private var nextRequestID = 100

    /// Sends `request` with a fresh id and returns the id; the reply arrives among the events
    /// (``next()``). Nil when the write failed (the connection is going away).
    func send(_ request: ClientRequest) -> Int? {
        let id = nextRequestID
        nextRequestID += 1
        do {
            try connection.writeAll(try encoder.encode(ClientMessage(id: id, request)))
        } catch {
            return nil
        }
        return id
    }

    /// The descriptor to poll for ``readAvailable()``.
    var fileDescriptor: Int32 { connection.fileDescriptor }

    /// True once there is nothing more to read (end of file seen and the queue drained).
    var isFinished: Bool { closed && queued.isEmpty }

    /// Sends a request and waits for the reply with its id; earlier events stay queued.
    private func exchange(_ message: ClientMessage) throws(OpenError) -> DaemonMessage {
        do {
            try connection.writeAll(try encoder.encode(message))
        } catch let error as SystemError {
            throw .unreachable(error)
        } catch {
            throw .protocolError("\(error)")
        }
        var index = 0
        while true {
            while index < queued.count {
                let candidate = queued[index].message
                if Self.replyID(candidate) == message.id || Self.isUnaddressedError(candidate) {
                    queued.remove(at: index)
                    return candidate
                }
                index += 1
            }
            if closed { throw .protocolError("the daemon closed the connection before answering '\(message.request.type)'") }
            _ = connection.waitReadable(timeoutMilliseconds: -1)
            do {
                try readAvailable()
            } catch {
                throw .protocolError(error.description)
            }
        }
    }

    /// Reads what the socket has now (call when ``fileDescriptor`` polled readable) and queues
    /// the complete lines.
    /// - Throws: ``StreamError`` when the read fails or the daemon sends a line that is not a
    ///   message.
    func readAvailable() throws(StreamError) {
        let outcome: ReadOutcome
        do {
            outcome = try connection.read()
        } catch {
            throw StreamError(message: error.description)
        }
        switch outcome {
        case .wouldBlock:
            return
        case .endOfFile:
            closed = true
            if case .line(let line)? = framer.finish() { try enqueue(line) }
        case .bytes(let bytes):
            for event in framer.append(bytes) {
                switch event {
                case .line(let line): try enqueue(line)
                case .tooLong(let length): throw StreamError(message: "the daemon sent a line of \(length) bytes, longer than the protocol allows")
                }
            }
        }
    }

    /// The next queued message and its line, without blocking; nil when none is queued.
    func next() -> (line: [UInt8], message: DaemonMessage)? {
        queued.isEmpty ? nil : queued.removeFirst()
    }

    func close() { connection.close() }

    private func enqueue(_ line: [UInt8]) throws(StreamError) {
        do {
            queued.append((line, try decoder.decodeDaemonMessage(line)))
        } catch {
            throw StreamError(message: "the daemon sent an unreadable line: \(error.message)")
        }
    }

    private static func replyID(_ message: DaemonMessage) -> Int? {
        switch message {
        case .hello(let r): r.id
        case .ok(let r): r.id
        case .devices(let r): r.id
        case .status(let r): r.id
        case .error(let r): r.id
        default: nil
        }
    }

    private static func isUnaddressedError(_ message: DaemonMessage) -> Bool {
        if case .error(let e) = message, e.id == nil { return true }
        return false
    }
}

/// The connection to the daemon broke or carried garbage.
struct StreamError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
