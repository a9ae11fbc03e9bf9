/// Who is in front of a seat: the question the input policy (``InputAuthorization``) asks.
///
/// The daemon's answer is ``SeatSessions``, logind's model; ``NoLogindSessions`` is the
/// answer of a system without logind (containers, minimal installs): nobody is known to be
/// in front of any seat, and only root may inject input.
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

extension SeatSessions: SeatSessionLookup {
    /// Only once logind has answered: before (`unknown`) and without it (`absent`) nobody is
    /// known to be active, so only root may inject.
    public var isAvailable: Bool { availability == .available }
}
