public import GesturedLogging
public import GesturedSystem

/// What logind has said about its seats and sessions, by object path. Pure: the tracker feeds
/// it the properties of `GetAll` replies and `PropertiesChanged` signals.
struct LogindModel: Equatable {
    struct Seat: Equatable {
        var id: String
        /// The active session's object path; nil when the seat has none ("/").
        var activeSessionPath: String?
    }

    struct Session: Equatable {
        var id: String
        var seat: String?
        var uid: UInt32?
        var userName: String
        var locked = false
    }

    var seats: [String: Seat] = [:]
    var sessions: [String: Session] = [:]

    /// Applies `org.freedesktop.login1.Seat` properties (Id, ActiveSession `(so)`).
    mutating func applySeat(path: String, _ properties: [String: BusValue]) {
        var seat = seats[path] ?? Seat(id: properties["Id"]?.text ?? Self.lastComponent(path), activeSessionPath: nil)
        if let id = properties["Id"]?.text { seat.id = id }
        if let active = properties["ActiveSession"]?.elements, active.count == 2, let activePath = active[1].text {
            seat.activeSessionPath = activePath == "/" || activePath.isEmpty ? nil : activePath
        }
        seats[path] = seat
    }

    /// Applies `org.freedesktop.login1.Session` properties (Id, Seat `(so)`, User `(uo)`,
    /// Name, LockedHint).
    mutating func applySession(path: String, _ properties: [String: BusValue]) {
        var session = sessions[path] ?? Session(id: properties["Id"]?.text ?? Self.lastComponent(path), userName: "")
        if let id = properties["Id"]?.text { session.id = id }
        if let seat = properties["Seat"]?.elements?.first?.text { session.seat = seat.isEmpty ? nil : seat }
        if let uid = properties["User"]?.elements?.first?.uint32Value { session.uid = uid }
        if let name = properties["Name"]?.text { session.userName = name }
        if let locked = properties["LockedHint"]?.boolValue { session.locked = locked }
        sessions[path] = session
    }

    /// Every seat's active session, sorted by seat.
    var activeSessions: [SeatSession] {
        seats.values.compactMap { seat -> SeatSession? in
            guard let path = seat.activeSessionPath, let session = sessions[path], let uid = session.uid else { return nil }
            return SeatSession(seat: seat.id, sessionID: session.id, uid: uid, userName: session.userName, locked: session.locked)
        }.sorted { $0.seat < $1.seat }
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// Follows `org.freedesktop.login1` on the system bus (through ``SDBusConnection``, libsystemd's
/// sd-bus on the daemon's loop) and keeps ``SeatSessions`` current: each seat's active
/// session, its user and `LockedHint`.
///
/// Signals, never polling: matches on `PropertiesChanged` of logind's objects, on the
/// manager's `SessionNew`/`SessionRemoved`/`SeatNew`/`SeatRemoved`, and on the bus's
/// `NameOwnerChanged` for logind itself. When logind (re)appears, its seats and sessions are
/// read afresh (`ListSeats`, `ListSessions`, `GetAll` of each) and replace what was known once
/// every answer is in; until then, and while logind is away, the last state stays in force.
/// Signals are taken only from logind's current unique name (anyone may send a signal with
/// logind's paths). Without a system bus or logind, every seat is unlocked, said once.
///
/// Runs on the daemon's event loop (the bus's socket is one more descriptor of it).
public actor LogindTracker {
    static let busName = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let seatInterface = "org.freedesktop.login1.Seat"
    static let sessionInterface = "org.freedesktop.login1.Session"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    let loop: EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    let sessions: SeatSessions
    let logger: Logger
    let address: String
    private var bus: SDBusConnection?
    /// logind's unique name while it is on the bus.
    private var owner: String?
    private var live = LogindModel()
    /// A read of every seat and session in progress: replaces `live` when complete.
    private var building: LogindModel?
    private var pendingReplies = 0
    /// Bumped at every (re)load and departure: answers of an older one are dropped.
    private var generation = 0
    private var seen = false
    private var saidAbsent = false
    private var stopped = false
    /// Wait before the next attempt to reconnect a lost bus: 0.5 s, doubling to 30 s.
    private var reconnectDelay: Int64 = 500_000
    private var reconnectScheduled = false

    /// - Parameter address: the system bus (``SDBusConnection/address(environment:)``).
    public init(loop: EventLoop, sessions: SeatSessions, logger: Logger, address: String) {
        self.loop = loop
        self.sessions = sessions
        self.logger = logger
        self.address = address
    }

    /// Connects and starts following logind. Never fails: without a bus, every seat is
    /// unlocked.
    public func start() {
        do {
            try connect()
        } catch {
            // Not retried: a system without a bus at start (a container) has none later.
            absent("no system bus (\(error.errno))")
        }
    }

    private func connect() throws(SystemError) {
        let bus = try SDBusConnection(address: address, loop: loop) { [weak self] reason in
            self?.assumeIsolated { $0.busClosed(reason) }
        }
        self.bus = bus
        let rules: [(String, @Sendable (isolated LogindTracker, BusMessage) -> Void)] = [
            (
                "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
                    + "member='NameOwnerChanged',arg0='\(Self.busName)'",
                { $0.nameOwnerChanged($1) }
            ),
            // sender= by well-known name: the bus daemon delivers only what its current owner
            // sends (sd-bus's own check lets any unique sender through for a well-known sender=);
            // each handler checks the sender against logind's unique name as well.
            ("type='signal',sender='\(Self.busName)',interface='\(Self.managerInterface)',path='\(Self.managerPath)'", { $0.managerSignal($1) }),
            (
                "type='signal',sender='\(Self.busName)',interface='\(Self.propertiesInterface)',member='PropertiesChanged',"
                    + "path_namespace='\(Self.managerPath)'",
                { $0.propertiesChanged($1) }
            ),
        ]
        for (rule, handler) in rules {
            do {
                try bus.addMatch(rule) { [weak self] message in self?.assumeIsolated { handler($0, message) } }
            } catch {
                logger.warning("Failed to watch logind's signals; lock state may go stale", [("dbus.match", rule), ("error", error.description)])
            }
        }
        askOwner()
    }

    /// Closes the bus connection (shutdown).
    public func stop() {
        stopped = true
        bus?.close()
        bus = nil
    }

    // MARK: logind coming and going

    private func askOwner() {
        generation += 1
        let current = generation
        bus?.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner",
            arguments: [.string(Self.busName)]
        ) { [weak self] result in
            self?.assumeIsolated { tracker in
                guard current == tracker.generation else { return }
                switch result {
                case .success(let reply):
                    guard let name = reply.body.first?.text else { return tracker.absent("GetNameOwner gave no name") }
                    tracker.owner = name
                    tracker.load()
                case .failure(let error):
                    tracker.absent(error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" ? "nobody owns \(Self.busName)" : error.description)
                }
            }
        }
    }

    private func nameOwnerChanged(_ message: BusMessage) {
        guard message.sender == "org.freedesktop.DBus", message.body.count == 3, message.body[0].text == Self.busName else { return }
        let newOwner = message.body[2].text ?? ""
        generation += 1
        building = nil
        pendingReplies = 0
        if newOwner.isEmpty {
            owner = nil
            if seen {
                logger.warning("logind left the system bus; keeping its last known sessions until it returns", [("logind.sessions", summary())])
                sessions.setAvailability(.absent)
            } else {
                absent("nobody owns \(Self.busName)")
            }
        } else {
            owner = newOwner
            logger.notice(seen ? "logind is back on the system bus, reading its sessions" : "logind appeared on the system bus", [("dbus.owner", newOwner)])
            load()
        }
    }

    private func absent(_ reason: String) {
        // Seen before (the bus came back before logind did): its last state stays.
        if seen {
            sessions.setAvailability(.absent)
            return
        }
        if !saidAbsent {
            saidAbsent = true
            logger.notice(
                "logind is not available; every seat is treated as unlocked, with no active user",
                [("reason", reason), ("dbus.address", address)])
        }
        sessions.replace([], availability: .absent)
    }

    private func busClosed(_ reason: String) {
        bus = nil
        owner = nil
        generation += 1
        building = nil
        logger.error(
            "Lost the system bus; keeping the last known sessions while reconnecting", [("reason", reason), ("logind.sessions", summary())])
        sessions.setAvailability(.absent)
        scheduleReconnect()
    }

    /// A lost bus (its daemon restarted) is connected again, after a growing wait; then
    /// logind is asked for afresh, as at start.
    private func scheduleReconnect() {
        guard !stopped, !reconnectScheduled else { return }
        reconnectScheduled = true
        let delay = reconnectDelay
        reconnectDelay = min(reconnectDelay * 2, 30_000_000)
        loop.run(afterMicroseconds: delay) { [weak self] in
            self?.assumeIsolated { tracker in
                tracker.reconnectScheduled = false
                guard !tracker.stopped, tracker.bus == nil else { return }
                do {
                    try tracker.connect()
                    tracker.reconnectDelay = 500_000
                    tracker.logger.notice("Reconnected to the system bus", [("dbus.address", tracker.address)])
                } catch {
                    tracker.scheduleReconnect()
                }
            }
        }
    }

    // MARK: Reading every seat and session

    private func load() {
        building = LogindModel()
        pendingReplies = 0
        let current = generation
        callManager("ListSeats", generation: current) { tracker, reply in
            // a(so): seat id, object path.
            for seat in reply.body.first?.elements ?? [] {
                guard let path = seat.elements?.last?.text else { continue }
                tracker.fetch(path: path, interface: Self.seatInterface)
            }
        }
        callManager("ListSessions", generation: current) { tracker, reply in
            // a(susso): id, uid, user, seat, object path.
            for session in reply.body.first?.elements ?? [] {
                guard let path = session.elements?.last?.text else { continue }
                tracker.fetch(path: path, interface: Self.sessionInterface)
            }
        }
    }

    private func callManager(_ member: String, generation current: Int, _ handle: @escaping @Sendable (isolated LogindTracker, BusMessage) -> Void) {
        pendingReplies += 1
        bus?.call(destination: Self.busName, path: Self.managerPath, interface: Self.managerInterface, member: member) { [weak self] result in
            self?.assumeIsolated { tracker in
                guard current == tracker.generation else { return }
                switch result {
                case .success(let reply): handle(tracker, reply)
                case .failure(let error):
                    tracker.logger.warning("logind did not answer \(member)", [("error", error.description)])
                }
                tracker.replyDone()
            }
        }
    }

    /// Reads every property of a seat or session (`GetAll`) into the model being built, or
    /// into the live one.
    private func fetch(path: String, interface: String) {
        let current = generation
        let counted = building != nil
        if counted { pendingReplies += 1 }
        bus?.call(
            destination: Self.busName, path: path, interface: Self.propertiesInterface, member: "GetAll", arguments: [.string(interface)]
        ) { [weak self] result in
            self?.assumeIsolated { tracker in
                guard current == tracker.generation else { return }
                if case .success(let reply) = result, let properties = reply.body.first?.dictionary {
                    tracker.update { model in
                        if interface == Self.seatInterface {
                            model.applySeat(path: path, properties)
                        } else {
                            model.applySession(path: path, properties)
                        }
                    }
                }
                // An error: the object went away meanwhile (its removal signal follows or came).
                if counted { tracker.replyDone() }
            }
        }
    }

    private func replyDone() {
        pendingReplies -= 1
        guard pendingReplies == 0, let complete = building else { return }
        building = nil
        live = complete
        let first = !seen
        seen = true
        saidAbsent = false
        publish()
        logger.notice(first ? "Following logind's sessions" : "Read logind's sessions again", [("logind.sessions", summary())])
    }

    // MARK: Signals

    /// Applies a change to the model being built when a read is in progress, else to the live
    /// model (and publishes it).
    private func update(_ change: (inout LogindModel) -> Void) {
        if building != nil {
            change(&building!)
        } else {
            change(&live)
            publish()
        }
    }

    private func fromLogind(_ message: BusMessage) -> Bool {
        owner != nil && message.sender == owner
    }

    private func managerSignal(_ message: BusMessage) {
        guard fromLogind(message), message.body.count >= 2, let path = message.body[1].text else { return }
        switch message.member {
        case "SessionNew": fetch(path: path, interface: Self.sessionInterface)
        case "SeatNew": fetch(path: path, interface: Self.seatInterface)
        case "SessionRemoved": update { $0.sessions[path] = nil }
        case "SeatRemoved": update { $0.seats[path] = nil }
        default: break
        }
    }

    private func propertiesChanged(_ message: BusMessage) {
        guard fromLogind(message), let path = message.path, message.body.count >= 2, let interface = message.body[0].text,
            let changed = message.body[1].dictionary
        else { return }
        let invalidated = message.body.count > 2 ? (message.body[2].elements ?? []) : []
        let model = building ?? live
        switch interface {
        case Self.seatInterface:
            guard model.seats[path] != nil else { return fetch(path: path, interface: interface) }
            update { $0.applySeat(path: path, changed) }
        case Self.sessionInterface:
            guard model.sessions[path] != nil else { return fetch(path: path, interface: interface) }
            update { $0.applySession(path: path, changed) }
        default:
            return
        }
        // Properties announced without their value are read again.
        if !invalidated.isEmpty { fetch(path: path, interface: interface) }
    }

    // MARK: Publishing

    private func publish() {
        let before = Dictionary(sessions.activeSessions.map { ($0.seat, $0) }, uniquingKeysWith: { a, _ in a })
        let active = live.activeSessions
        // Logged before the change is made visible, so whoever sees it finds it logged.
        defer { sessions.replace(active, availability: .available) }
        for session in active where before[session.seat] != session {
            let previous = before[session.seat]
            if previous?.sessionID != session.sessionID {
                logger.notice(
                    "Active session changed",
                    [("seat", session.seat), ("session", session.sessionID), ("user", session.userName), ("uid", "\(session.uid)"),
                     ("locked", "\(session.locked)")])
            } else if previous?.locked != session.locked {
                logger.notice(session.locked ? "Seat locked" : "Seat unlocked", [("seat", session.seat), ("session", session.sessionID)])
            }
        }
        for seat in before.keys where !active.contains(where: { $0.seat == seat }) {
            logger.notice("Seat has no active session", [("seat", seat)])
        }
    }

    private func summary() -> String {
        let active = live.activeSessions
        guard !active.isEmpty else { return "none" }
        return active.map { "\($0.seat): session \($0.sessionID) of \($0.userName) (\($0.uid))\($0.locked ? ", locked" : "")" }.joined(separator: "; ")
    }
}
