internal import GesturedSystem

/// The active session of one seat, as logind reports it.
public struct SeatSession: Sendable, Hashable {
    /// The seat's id ("seat0").
    public var seat: String
    /// logind's session id ("2", "c1").
    public var sessionID: String
    /// The session's user.
    public var uid: UInt32
    public var userName: String
    /// The session's `LockedHint` (set by the lock screen through logind).
    public var locked: Bool

    public init(seat: String, sessionID: String, uid: UInt32, userName: String, locked: Bool) {
        self.seat = seat
        self.sessionID = sessionID
        self.uid = uid
        self.userName = userName
        self.locked = locked
    }
}

/// Whether logind has been seen on the system bus.
public enum LogindAvailability: String, Sendable, Hashable {
    /// Not asked yet (the first answers are on their way).
    case unknown
    /// logind answered; ``SeatSessions`` holds its sessions.
    case available
    /// No system bus, or nobody owns `org.freedesktop.login1` (containers, minimal systems):
    /// every seat has no active user and is unlocked.
    case absent
}

/// Who is active on each seat and whether that session is locked: the model the daemon
/// queries (gesture events' `locked`, `status`, `hello`, who may inject keys). Kept current by
/// ``LogindTracker`` from logind's signals; read from any thread (`Mutex`, STYLE.md B8).
///
/// While logind restarts, the last sessions it reported stay in force (a restart is not an
/// unlock); when it has never been seen, every seat is unlocked and has no active user.
public final class SeatSessions: Sendable {
    private struct State {
        var active: [String: SeatSession] = [:]
        var availability = LogindAvailability.unknown
    }

    private let state = PThreadMutex(State())
    private let observers = PThreadMutex<[@Sendable () -> Void]>([])

    public init() {}

    /// The seat of devices whose udev properties name none.
    public static let defaultSeat = "seat0"

    /// A device's seat: its udev `ID_SEAT` property, else ``defaultSeat``.
    public static func seat(udevProperties: [String: String]) -> String {
        guard let seat = udevProperties["ID_SEAT"], !seat.isEmpty else { return defaultSeat }
        return seat
    }

    /// The seat's active session; nil when the seat has none or logind is not available.
    public func activeSession(seat: String) -> SeatSession? {
        state.withLock { $0.active[seat] }
    }

    /// The uid of the seat's active session's user; nil when the seat has no active session
    /// or logind is not available.
    public func activeUser(seat: String) -> UInt32? {
        activeSession(seat: seat)?.uid
    }

    /// Whether the seat's active session is locked (its `LockedHint`); false when the seat
    /// has no active session or logind is not available.
    public func isLocked(seat: String) -> Bool {
        activeSession(seat: seat)?.locked ?? false
    }

    public var availability: LogindAvailability { state.withLock { $0.availability } }

    /// Every seat's active session, sorted by seat.
    public var activeSessions: [SeatSession] {
        state.withLock { $0.active.values.sorted { $0.seat < $1.seat } }
    }

    /// Calls `handler` after every change, on the thread that made it (the daemon's loop):
    /// it must not block.
    public func onChange(_ handler: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(handler) }
    }

    private func changed() {
        for observer in observers.withLock({ $0 }) { observer() }
    }

    /// Replaces what is known (``LogindTracker``; tests that need a given seat state).
    /// - Returns: the seats whose lock state changed, with their new state.
    @discardableResult
    public func replace(_ sessions: [SeatSession], availability: LogindAvailability) -> [(seat: String, locked: Bool)] {
        defer { changed() }
        return state.withLock { state in
            var next: [String: SeatSession] = [:]
            for session in sessions { next[session.seat] = session }
            let seats = Set(next.keys).union(state.active.keys).sorted()
            let changes = seats.compactMap { seat -> (seat: String, locked: Bool)? in
                let before = state.active[seat]?.locked ?? false
                let after = next[seat]?.locked ?? false
                return before == after ? nil : (seat, after)
            }
            state.active = next
            state.availability = availability
            return changes
        }
    }

    /// Sets only the availability, keeping the sessions (logind left the bus).
    public func setAvailability(_ availability: LogindAvailability) {
        state.withLock { $0.availability = availability }
        changed()
    }
}
