/// Who may make the daemon press keys and buttons (`send_keys`, `click`): a pure decision
/// over the configuration, the client's credentials and the seat's session, so every branch
/// is tested without a socket or logind (DESIGN.md "Sessions, logind and input injection" › "Keys and clicks").
///
/// Allowed when all hold: the configuration allows input (`AllowInputForActiveSession=yes`);
/// the client's uid (`SO_PEERCRED`) is root, or is the active session's user on the seat of
/// the device that produced the gesture and that session is not locked; and the seat is the
/// one the virtual devices belong to (seat0). Without logind only root is allowed: no user
/// is known to be in front of the seat.
public enum InputAuthorization {
    /// The seat the daemon's virtual keyboard and pointer belong to: uinput devices carry no
    /// `ID_SEAT`, so the seat rules put them on seat0.
    public static let virtualDeviceSeat = "seat0"

    /// The answer, with the reason of a refusal (a sentence for the error reply).
    public enum Decision: Equatable, Sendable {
        case allowed
        case refused(String)
    }

    /// - Parameters:
    ///   - clientID: The daemon's id of the client, named in refusals.
    ///   - uid: The client's uid, nil when its credentials are unknown.
    ///   - isEnabled: `AllowInputForActiveSession=`.
    ///   - seat: The seat of the gesture's device (udev `ID_SEAT`, seat0 when unset).
    ///   - sessions: logind's view of the seats.
    public static func decide(
        clientID: Int,
        uid: UInt32?,
        isEnabled: Bool,
        seat: String,
        sessions: any SeatSessionLookup
    ) -> Decision {
        let who = "client \(clientID)" + (uid.map { " (uid \($0))" } ?? "")
        guard isEnabled else {
            return .refused("\(who): key and button input is off in this daemon (AllowInputForActiveSession=no, see gestured.conf(5))")
        }
        guard let uid else {
            return .refused("\(who): the daemon could not read the client's credentials (SO_PEERCRED)")
        }
        guard seat == virtualDeviceSeat else {
            return .refused(
                "\(who): the gesture's device is on \(seat), but the daemon's virtual keyboard and pointer are on \(virtualDeviceSeat)")
        }
        if uid == 0 { return .allowed }
        guard sessions.isAvailable else {
            return .refused("\(who): logind is not available, so no user is known to be active on \(seat) and only root may send input")
        }
        guard let active = sessions.activeUser(seat: seat) else {
            return .refused("\(who): \(seat) has no active session, so only root may send input")
        }
        guard active == uid else {
            return .refused("\(who): not the user of the active session on \(seat) (uid \(active)); only that user and root may send input")
        }
        guard !sessions.isLocked(seat: seat) else {
            return .refused("\(who): the active session on \(seat) is locked; only root may send input while it is")
        }
        return .allowed
    }
}
