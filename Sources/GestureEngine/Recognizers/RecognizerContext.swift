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
    /// Seconds from a sequence's first touch during which fingers still land as one landing
    /// (``EngineConfiguration/settlingWindow``): a finger that landed this recently and has
    /// not moved yet may be about to follow the others.
    public internal(set) var settlingWindow = EngineConfiguration.defaultSettlingWindow
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
    /// When each touch landed (``Touch/startTime``), parallel to ``ids``.
    public private(set) var landed: [Timestamp] = []

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
        landed.append(touch.startTime)
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
        landed.remove(at: i)
        return true
    }

    public mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        landed.removeAll(keepingCapacity: true)
    }

    /// Becomes a copy of `other` in this value's own storage: `self = other` would share
    /// `other`'s arrays, and the next change to either would copy them (an allocation each,
    /// at every tap).
    public mutating func assign(_ other: TrackedTouches) {
        ids.removeAll(keepingCapacity: true)
        ids.append(contentsOf: other.ids)
        positions.removeAll(keepingCapacity: true)
        positions.append(contentsOf: other.positions)
        starts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: other.starts)
        landed.removeAll(keepingCapacity: true)
        landed.append(contentsOf: other.landed)
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

    /// Millimetres a finger must move before it counts as moving rather than anchoring a
    /// pinch or a turn, while it has only just landed: libinput's `min_move` (1.5 mm) for
    /// deciding between touchpad gestures.
    public static let anchorMotion = 1.5

    /// Makes every current position the touch's start, so that motion is measured from now.
    public mutating func restartMotion() {
        for i in positions.indices { starts[i] = positions[i] }
    }

    /// True when the touches moved more together than relative to each other since their
    /// starts: the length of their mean displacement (the common translation) exceeds twice
    /// the mean distance of each displacement from it (for two fingers: the length of the
    /// difference of their displacements), or they all moved the same way
    /// (``movesTheSameWay``). Fingers moving the same way, or one trailing the
    /// other on the same path, translate; fingers spreading, closing or turning about a point
    /// between them, or one moving about a still one, do not. libinput's touchpad gestures
    /// tell a scroll or swipe from a pinch by the fingers' directions alike
    /// (`tp_gesture_detect_motion_gestures`).
    public var isTranslationDominant: Bool {
        guard count > 1 else { return false }
        var tx = 0.0
        var ty = 0.0
        for i in positions.indices {
            tx += positions[i].x - starts[i].x
            ty += positions[i].y - starts[i].y
        }
        let n = Double(count)
        tx /= n
        ty /= n
        var relative = 0.0
        for i in positions.indices {
            let rx = positions[i].x - starts[i].x - tx
            let ry = positions[i].y - starts[i].y - ty
            relative += (rx * rx + ry * ry).squareRoot()
        }
        relative = 2 * relative / n
        if (tx * tx + ty * ty).squareRoot() > relative { return true }
        return movesTheSameWay
    }

    /// True when every touch moved at least ``anchorMotion`` since its start and every two of
    /// them within 60° of each other: the same way, as libinput's compass directions of two
    /// moving touches agree for a scroll or swipe. A finger trailing another on the same path
    /// moves the same way while the gap between them still changes with the speed.
    var movesTheSameWay: Bool {
        let minimum = Self.anchorMotion * Self.anchorMotion
        for i in positions.indices {
            let di = positions[i] - starts[i]
            let li = di.x * di.x + di.y * di.y
            if li < minimum { return false }
            for j in positions.indices where j > i {
                let dj = positions[j] - starts[j]
                let lj = dj.x * dj.x + dj.y * dj.y
                if lj < minimum { return false }
                let dot = di.x * dj.x + di.y * dj.y
                // cos(angle) > 0.5 ⇔ angle < 60°.
                if dot <= 0 || dot * dot <= 0.25 * li * lj { return false }
            }
        }
        return true
    }

    /// True when some touch has moved less than `minimum` mm since its start (and less than
    /// half as far as the touch that moved farthest) and landed less than `window` seconds
    /// before `now`: still only because it has just landed, perhaps about to follow the
    /// others, so not yet known to anchor a pinch or a turn.
    public func hasJustLandedStillTouch(now: Timestamp, window: Double, minimum: Double) -> Bool {
        var farthest = 0.0
        for i in positions.indices { farthest = max(farthest, positions[i].distance(to: starts[i])) }
        for i in positions.indices where now - landed[i] < window {
            // Still beside the others: under `minimum` and under half the farthest motion
            // (fingers spreading slowly together are all moving).
            let moved = positions[i].distance(to: starts[i])
            if moved < minimum && moved < farthest / 2 { return true }
        }
        return false
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
