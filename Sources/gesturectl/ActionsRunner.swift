import GesturedCLISupport
import GesturedProtocol
import GesturedSystem

/// Decides which actions an event triggers and starts their commands through a
/// ``ProcessSpawner``; never waits for them.
final class ActionsRunner {
    let actions: [Action]
    let spawner: ProcessSpawner
    /// The environment commands inherit, without stale `GESTURED_*` values.
    let baseEnvironment: [String: String]
    let dryRun: Bool
    let verbose: Bool
    /// More commands than this still running: new ones are skipped (and logged), so an action
    /// on every `changed` event of a long pan cannot fork-bomb the session.
    let maximumRunning: Int

    /// (action index, gesture id) pairs that fired with `Once=yes` and whose gesture has not
    /// ended yet.
    private var fired: Set<OnceKey> = []
    /// Insertion order of `fired`, to bound it when a final state never arrives.
    private var firedOrder: [OnceKey] = []
    private static let firedLimit = 4096

    /// Sends a request to the daemon on the connection events arrive on (its uid is the one
    /// the daemon checks) and returns the request's id; nil while not connected.
    var sendRequest: ((ClientRequest) -> Int?)?
    /// Input requests sent and not answered yet: id → what was asked, for the reply's message.
    private var pendingInput: [Int: String] = [:]

    struct OnceKey: Hashable {
        var action: Int
        var gestureID: String
    }

    init(actions: [Action], spawner: ProcessSpawner, environment: [String: String], dryRun: Bool, verbose: Bool, maximumRunning: Int = 32) {
        self.actions = actions
        self.spawner = spawner
        self.baseEnvironment = environment.filter { !$0.key.hasPrefix("GESTURED_") || $0.key == "GESTURED_SOCKET" }
        self.dryRun = dryRun
        self.verbose = verbose
        self.maximumRunning = maximumRunning
    }

    /// Runs the command of every action `event` matches; returns how many were started.
    @discardableResult
    func handle(_ event: GestureEventMessage) -> Int {
        var started = 0
        for (index, action) in actions.enumerated() where action.matches(event) {
            // The lock screen is up on the event's seat: only actions marked for it run.
            if event.locked == true, !action.whenLocked {
                if verbose || dryRun {
                    writeStandardError("gesturectl: not running action '\(action.name)' (\(event.name) \(event.state.rawValue)): the session is locked (WhenLocked=no)\n")
                }
                continue
            }
            let key = OnceKey(action: index, gestureID: event.gestureID)
            if action.once {
                if fired.contains(key) { continue }
                remember(key)
            }
            if start(action, for: event) { started += 1 }
        }
        if event.state.isFinal { forget(gestureID: event.gestureID) }
        return started
    }

    private func start(_ action: Action, for event: GestureEventMessage) -> Bool {
        let what = "action '\(action.name)' (\(event.name) \(event.state.rawValue) \(event.gestureID))"
        guard let effect = action.effect else { return false }
        let command: String
        switch effect {
        case .command(let text):
            command = text
        case .keys(let names):
            return sendInput(.sendKeys(SendKeysRequest(keys: names, device: event.device)), what: what, effect: effect)
        case .click(let button):
            return sendInput(.click(ClickRequest(button: button, device: event.device)), what: what, effect: effect)
        }
        if dryRun {
            writeStandardOutput("would run \(what): \(command)\n")
            return true
        }
        if spawner.runningCount >= maximumRunning {
            writeStandardError("gesturectl: skipping \(what): \(maximumRunning) commands are still running\n")
            return false
        }
        var environment = baseEnvironment
        for (key, value) in Self.variables(for: event) { environment[key] = value }
        environment["GESTURED_ACTION"] = action.name
        do {
            let pid = try spawner.spawnShell(command, environment: environment, tag: action.name)
            if verbose { writeStandardError("gesturectl: started \(what) as pid \(pid): \(command)\n") }
            return true
        } catch {
            writeStandardError("gesturectl: cannot run \(what): \(error.description)\n")
            return false
        }
    }

    /// `Keys=` and `Click=`: the daemon presses them (gestured-ipc(7) `send_keys`, `click`).
    private func sendInput(_ request: ClientRequest, what: String, effect: ActionEffect) -> Bool {
        let asked = "\(effect.key.lowercased()) \(effect.text) for \(what)"
        if dryRun {
            writeStandardOutput("would send \(asked)\n")
            return true
        }
        guard let id = sendRequest?(request) else {
            writeStandardError("gesturectl: cannot send \(asked): not connected to gestured\n")
            return false
        }
        pendingInput[id] = asked
        if verbose { writeStandardError("gesturectl: sent \(asked) (request \(id))\n") }
        return true
    }

    /// Takes the daemon's reply to an input request; false when `message` answers none.
    func takeReply(_ message: DaemonMessage) -> Bool {
        switch message {
        case .ok(let ok):
            guard let id = ok.id, let asked = pendingInput.removeValue(forKey: id) else { return false }
            if verbose { writeStandardError("gesturectl: gestured sent \(asked)\n") }
            return true
        case .error(let e):
            guard let id = e.id, let asked = pendingInput.removeValue(forKey: id) else { return false }
            writeStandardError("gesturectl: gestured refused \(asked): \(e.message) [\(e.code.rawValue)]\n")
            return true
        default:
            return false
        }
    }

    /// Forgets unanswered requests (the connection they were sent on is gone).
    func connectionEnded() {
        for asked in pendingInput.values.sorted() {
            writeStandardError("gesturectl: no answer from gestured to \(asked) before the connection ended\n")
        }
        pendingInput.removeAll()
        sendRequest = nil
    }

    /// Logs the commands that ended; failures always, successes with `--verbose`.
    func report(_ exits: [ChildExit]) {
        for exit in exits where verbose || !exit.termination.succeeded {
            writeStandardError("gesturectl: action '\(exit.tag)' (pid \(exit.pid)) \(exit.termination)\n")
        }
    }

    private func remember(_ key: OnceKey) {
        fired.insert(key)
        firedOrder.append(key)
        if firedOrder.count > Self.firedLimit {
            let excess = firedOrder.count - Self.firedLimit / 2
            for old in firedOrder.prefix(excess) { fired.remove(old) }
            firedOrder.removeFirst(excess)
        }
    }

    private func forget(gestureID: String) {
        guard fired.contains(where: { $0.gestureID == gestureID }) else { return }
        fired = fired.filter { $0.gestureID != gestureID }
        firedOrder.removeAll { $0.gestureID == gestureID }
    }

    /// The `GESTURED_*` variables of one event (actions.conf(5)); absent values are unset.
    static func variables(for event: GestureEventMessage) -> [String: String] {
        var v: [String: String] = [
            "GESTURED_NAME": event.name,
            "GESTURED_KIND": event.kind,
            "GESTURED_STATE": event.state.rawValue,
            "GESTURED_DEVICE": event.device,
            "GESTURED_DEVICE_NAME": event.deviceName,
            "GESTURED_GESTURE_ID": event.gestureID,
            "GESTURED_TIME_US": "\(event.timeUS)",
            "GESTURED_FINGERS": "\(event.fingers)",
            "GESTURED_X_MM": number(event.xMM),
            "GESTURED_Y_MM": number(event.yMM),
            "GESTURED_X_FRACTION": number(event.xFraction),
            "GESTURED_Y_FRACTION": number(event.yFraction),
        ]
        v["GESTURED_TAPS"] = event.taps.map { "\($0)" }
        v["GESTURED_DIRECTION"] = event.direction
        v["GESTURED_EDGE"] = event.edge
        v["GESTURED_DX_MM"] = event.dxMM.map(number)
        v["GESTURED_DY_MM"] = event.dyMM.map(number)
        v["GESTURED_VX_MM_S"] = event.vxMMPerS.map(number)
        v["GESTURED_VY_MM_S"] = event.vyMMPerS.map(number)
        v["GESTURED_SCALE"] = event.scale.map(number)
        v["GESTURED_SCALE_VELOCITY"] = event.scaleVelocity.map(number)
        v["GESTURED_ROTATION"] = event.rotation.map(number)
        v["GESTURED_ROTATION_DEG"] = event.rotation.map { number($0 * ActionVariable.radiansToDegrees) }
        v["GESTURED_ROTATION_VELOCITY"] = event.rotationVelocity.map(number)
        if event.approximateUnits == true { v["GESTURED_APPROXIMATE_UNITS"] = "1" }
        for (key, value) in event.values ?? [:] {
            let name = key.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
            v["GESTURED_VALUE_" + String(name)] = number(value)
        }
        return v
    }

    /// Plain decimal with up to 6 fractional digits ("1.3", "-12.5", "0.000123"), which every
    /// shell tool reads, unlike Swift's "1e-05".
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (abs(value) * 1_000_000).rounded()
        guard scaled < 9e18 else { return "\(value)" }
        let micros = Int64(scaled)
        let whole = micros / 1_000_000
        var fraction = String(micros % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let sign = value < 0 && micros != 0 ? "-" : ""
        return sign + "\(whole)" + (fraction.isEmpty ? "" : "." + fraction)
    }
}

extension WireGestureState {
    /// The last event of a gesture attempt.
    var isFinal: Bool {
        switch self {
        case .ended, .cancelled, .recognized: true
        case .began, .changed: false
        }
    }
}
