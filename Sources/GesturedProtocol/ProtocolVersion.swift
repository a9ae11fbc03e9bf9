/// The wire protocol version spoken by this build (major.minor) and the negotiation rule.
///
/// Versioning rules (gestured-ipc(7), VERSIONING): a change that an existing client could
/// misread bumps `major`; new fields, new message types and new error codes are additive and
/// bump `minor` only, because clients must ignore keys and message types they do not know.
public enum ProtocolVersion {
    /// Breaking-change counter. A client whose `hello` names another major is refused.
    public static let major = 1
    /// Additive-change counter, reported in the `hello` reply for information only.
    public static let minor = 1

    /// Decides whether a client that announced `clientMajor` in its `hello` may talk to us.
    ///
    /// Same major: accepted. Any other value (older, newer, zero, negative): refused with
    /// ``ErrorCode/versionMismatch``, whose message names both versions.
    /// - Parameters:
    ///   - clientMajor: The `protocol_version` field of the client's `hello`.
    ///   - requestID: The request's `id`, echoed in the error.
    /// - Returns: `nil` when accepted, else the error to send (the daemon then closes).
    public static func negotiate(clientMajor: Int, requestID: Int? = nil) -> ProtocolError? {
        if clientMajor == major { return nil }
        return ProtocolError(
            code: .versionMismatch,
            message: "client speaks protocol \(clientMajor), daemon speaks protocol \(major)",
            requestID: requestID
        )
    }
}
