/// Who is in front of a seat: the question the input policy (``InputAuthorization``) asks.
///
/// The daemon's answer comes from logind (the `session` work of issue 15); until then, and
/// on systems without logind (containers, minimal installs), ``NoLogindSessions`` answers
/// "unknown", and only root may inject input.
public protocol SeatSessionLookup: Sendable {
    /// False when there is no logind to ask: then no user is known to be in front of any seat.
    var isAvailable: Bool { get }
    /// The uid of the active session's user on `seat` ("seat0"), nil when the seat has no
    /// active session (a greeter with no user, a seat nobody sits at).
    func activeUser(seat: String) -> UInt32?
    /// Whether the active session on `seat` is locked (logind's `LockedHint`).
    func isLocked(seat: String) -> Bool
}

/// The lookup when logind is not there: nothing is known, nothing is locked.
public struct NoLogindSessions: SeatSessionLookup {
    public init() {}
    public var isAvailable: Bool { false }
    public func activeUser(seat: String) -> UInt32? { nil }
    public func isLocked(seat: String) -> Bool { false }
}
