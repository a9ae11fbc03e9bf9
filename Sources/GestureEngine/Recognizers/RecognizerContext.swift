/// What a recognizer may see and ask for inside one callback (spec §3.2 facilities).
///
/// State changes are *requests*: the arena resolves them right after the callback returns, in
/// the order made (spec §5.3). ``state`` reflects the recognizer's own requests immediately, so
/// a pan that asked for `began` sees `began` and asks for `changed` next — even while the
/// arena holds the `began` back behind a failure requirement.
public struct RecognizerContext: Sendable {
    /// An operation on the recognizer's timers, applied by the engine after the callback.
    enum TimerOperation: Sendable, Hashable {
        case schedule(token: Int, deadline: Timestamp)
        case cancel(token: Int)
    }

    /// Time of the current engine step.
    public internal(set) var now: Timestamp
    /// The recognizer's state as it last requested it (pending requests included).
    public internal(set) var state: RecognizerState
    /// Multiplier for the thresholds marked ×s (spec §0.1).
    public internal(set) var sloppiness: Double
    /// Surface size in millimetres (edge pans measure distances to the edges).
    public internal(set) var surfaceWidth: Double
    /// Surface height in millimetres.
    public internal(set) var surfaceHeight: Double

    var requests: [RecognizerState] = []
    var timerOperations: [TimerOperation] = []
    var ignoredTouches: [TouchID] = []

    init(now: Timestamp, state: RecognizerState, sloppiness: Double, surfaceWidth: Double, surfaceHeight: Double) {
        self.now = now
        self.state = state
        self.sloppiness = sloppiness
        self.surfaceWidth = surfaceWidth
        self.surfaceHeight = surfaceHeight
    }

    /// A context for unit-testing a recognizer outside the engine.
    public static func detached(
        now: Timestamp,
        state: RecognizerState = .possible,
        sloppiness: Double = 1,
        surfaceWidth: Double = 100,
        surfaceHeight: Double = 60
    ) -> RecognizerContext {
        RecognizerContext(
            now: now,
            state: state,
            sloppiness: sloppiness,
            surfaceWidth: surfaceWidth,
            surfaceHeight: surfaceHeight
        )
    }

    /// Requests a state transition (UIKit's `self.state = …`). Requests after a final state in
    /// the same callback are dropped.
    public mutating func request(_ newState: RecognizerState) {
        guard !state.isFinal else { return }
        requests.append(newState)
        state = newState
    }

    /// Shorthand for `request(.failed)`.
    public mutating func fail() { request(.failed) }

    /// The last held touch of a continuous recognizer went away: a gesture in progress ends
    /// (the touch lifted) or is cancelled (the touch was cancelled); one that never began
    /// fails. Final states are left alone.
    public mutating func finishAfterLastTouch(ended: Bool) {
        switch state {
        case .began, .changed: request(ended ? .ended : .cancelled)
        case .possible: fail()
        case .ended, .cancelled, .failed: break
        }
    }

    /// Schedules timer `token` to fire `seconds` after ``now``, replacing an earlier timer with
    /// the same token.
    public mutating func schedule(_ token: Int, after seconds: Double) {
        timerOperations.append(.schedule(token: token, deadline: now.adding(seconds: seconds)))
    }

    /// Cancels timer `token` if it is scheduled.
    public mutating func cancelTimer(_ token: Int) {
        timerOperations.append(.cancel(token: token))
    }

    /// Stops delivering `touch` to this recognizer (UIKit's `ignore(_:for:)`); the sink never
    /// gets a cancellation for it on this recognizer's account.
    public mutating func ignore(_ touch: TouchID) {
        ignoredTouches.append(touch)
    }

    /// The requests made so far in this callback (for tests of recognizers in isolation).
    public var requestedStates: [RecognizerState] { requests }

    /// Starts a new callback at `time` for a recognizer driven by hand (tests): forgets the
    /// previous callback's requests, timer operations and ignores and keeps ``state``.
    public mutating func nextCallback(at time: Timestamp) {
        clear(now: time, state: state)
    }

    mutating func clear(now: Timestamp, state: RecognizerState) {
        self.now = now
        self.state = state
        // Most callbacks leave these empty; skipping them saves three uniqueness checks.
        if !requests.isEmpty { requests.removeAll(keepingCapacity: true) }
        if !timerOperations.isEmpty { timerOperations.removeAll(keepingCapacity: true) }
        if !ignoredTouches.isEmpty { ignoredTouches.removeAll(keepingCapacity: true) }
    }
}

/// The values a recognizer reports with an action (spec §3.5, §4): the engine adds name, kind,
/// state, timestamp, sequence and the location fraction.
public struct GestureValues: Sendable, Hashable {
    /// Held, not-ignored, not-ended touches (`numberOfTouches`).
    public var fingers: Int
    /// Location in millimetres (centroid unless the recognizer says otherwise).
    public var location: PhysicalPoint
    /// Tap count (tap), strokes (tickle).
    public var taps: Int?
    /// Recognized direction (swipe) or dominant direction (pan).
    public var direction: Direction?
    /// The edge an edge pan started from.
    public var edge: Edge?
    /// Pinch scale, absolute since the attempt began.
    public var scale: Double?
    /// Radians, clockwise positive.
    public var rotation: Double?
    /// Millimetres, cumulative.
    public var translation: PhysicalPoint?
    /// Millimetres per second.
    public var velocity: PhysicalPoint?
    /// 1/s (pinch) or rad/s (rotation).
    public var scalarVelocity: Double?
    /// Custom recognizers' extra values.
    public var values: [String: Double]

    public init(
        fingers: Int,
        location: PhysicalPoint,
        taps: Int? = nil,
        direction: Direction? = nil,
        edge: Edge? = nil,
        scale: Double? = nil,
        rotation: Double? = nil,
        translation: PhysicalPoint? = nil,
        velocity: PhysicalPoint? = nil,
        scalarVelocity: Double? = nil,
        values: [String: Double] = [:]
    ) {
        self.fingers = fingers
        self.location = location
        self.taps = taps
        self.direction = direction
        self.edge = edge
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
        self.velocity = velocity
        self.scalarVelocity = scalarVelocity
        self.values = values
    }
}

/// The touches one recognizer tracks, in arrival order, with current and start positions
/// (millimetres). Storage is kept across attempts so steady-state frames do not allocate.
public struct TrackedTouches: Sendable, Hashable {
    /// Tracked touch ids, in arrival order.
    public private(set) var ids: [TouchID] = []
    /// Current positions (mm), parallel to ``ids``.
    public private(set) var positions: [PhysicalPoint] = []
    /// Positions when tracking started (mm), parallel to ``ids``.
    public private(set) var starts: [PhysicalPoint] = []

    public init() {}

    public var count: Int { ids.count }
    public var isEmpty: Bool { ids.isEmpty }

    public func index(of id: TouchID) -> Int? {
        for i in ids.indices where ids[i] == id { return i }
        return nil
    }

    public func contains(_ id: TouchID) -> Bool { index(of: id) != nil }

    /// Starts tracking `touch` at its current position (start = its position now).
    public mutating func add(_ touch: Touch) {
        guard index(of: touch.id) == nil else { return }
        ids.append(touch.id)
        positions.append(touch.position)
        starts.append(touch.position)
    }

    /// Updates the position of a tracked touch; false when it is not tracked.
    @discardableResult
    public mutating func update(_ touch: Touch) -> Bool {
        guard let i = index(of: touch.id) else { return false }
        positions[i] = touch.position
        return true
    }

    /// Stops tracking `id`; false when it was not tracked.
    @discardableResult
    public mutating func remove(_ id: TouchID) -> Bool {
        guard let i = index(of: id) else { return false }
        ids.remove(at: i)
        positions.remove(at: i)
        starts.remove(at: i)
        return true
    }

    public mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }

    /// Mean of the current positions; `.zero` when empty.
    public var centroid: PhysicalPoint { Self.mean(positions) }

    /// Mean of the start positions; `.zero` when empty.
    public var startCentroid: PhysicalPoint { Self.mean(starts) }

    /// Twice the mean distance of the touches from their centroid (spec: span for 2+ fingers;
    /// for two fingers it equals their distance), millimetres.
    public var span: Double {
        guard count > 0 else { return 0 }
        let c = centroid
        var sum = 0.0
        for p in positions { sum += p.distance(to: c) }
        return 2 * sum / Double(count)
    }

    static func mean(_ points: [PhysicalPoint]) -> PhysicalPoint {
        guard !points.isEmpty else { return .zero }
        var sx = 0.0
        var sy = 0.0
        for p in points {
            sx += p.x
            sy += p.y
        }
        let n = Double(points.count)
        return PhysicalPoint(x: sx / n, y: sy / n)
    }
}
