/// The machine-readable reason of an `error` reply (the wire's `code`).
public enum ErrorCode: String, Codable, Sendable, Hashable, CaseIterable {
    /// The line is not valid JSON (or not UTF-8).
    case malformedJSON = "malformed_json"
    /// The line is a JSON object whose `type` names no request this daemon knows.
    case unknownRequest = "unknown_request"
    /// The line exceeded the maximum line length; the daemon closes the connection.
    case lineTooLong = "line_too_long"
    /// The request is understood but the client's credentials do not allow it.
    case notPermitted = "not_permitted"
    /// The request is malformed: not an object, a missing or mistyped field, a bad value.
    case badRequest = "bad_request"
    /// The `hello` named a protocol major version other than the daemon's.
    case versionMismatch = "version_mismatch"
    /// The client sent more input requests (`send_keys`, `click`) than the daemon's rate
    /// limit allows; this one was dropped.
    case rateLimited = "rate_limited"
    /// The request is allowed but the daemon cannot carry it out now (its virtual input
    /// devices could not be created: no `/dev/uinput`, or no access to it).
    case unavailable = "unavailable"
}

/// A protocol-level failure: what the daemon sends back as `{"type":"error",...}`.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    /// One human-readable sentence naming what was wrong (the offending field or type).
    public var message: String
    /// The `id` of the request that failed, when the line carried a readable one.
    public var requestID: Int?

    public init(code: ErrorCode, message: String, requestID: Int? = nil) {
        self.code = code
        self.message = message
        self.requestID = requestID
    }

    /// The error reply that reports this failure to the client.
    public var reply: DaemonMessage {
        .error(ErrorReply(id: requestID, code: code, message: message))
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
