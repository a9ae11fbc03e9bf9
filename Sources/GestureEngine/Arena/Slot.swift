/// One configured recognizer inside the engine: its behaviour value plus everything the arena
/// tracks about it (spec §5): state, pending requests, held touches, history, timers.
struct Slot: Sendable {
    /// A request held back by failure requirements (spec §5.3 c).
    enum Pending: Sendable, Hashable {
        case none
        case began
        case beganThenEnded
        case recognized
    }

    struct Timer: Sendable, Hashable {
        var token: Int
        var deadline: Timestamp
        var serial: UInt64
    }

    var configuration: RecognizerConfiguration
    var recognizer: AnyRecognizer
    let isDiscrete: Bool
    let gestureKind: GestureKind
    /// Position in the configuration (the last tie-breaker of engine order).
    var declarationIndex: Int
    /// Region area in mm², innermost first among equal priorities.
    var area: Double

    /// The arena's state; `possible` while pending.
    var state = RecognizerState.possible
    /// The state as the recognizer requested it (what its context shows).
    var logical = RecognizerState.possible
    var pending = Pending.none
    /// The pending request also waits for the landing to settle: competitors needing more
    /// fingers are still possible and the settling window is open.
    var settling = false
    /// A continuous gesture that began while the landing was open: it spared competitors
    /// needing more fingers and is cancelled if it cannot take a finger landing in the window.
    var yields = false
    /// The fingers it held when it began, yielding.
    var yieldFingers = 0
    /// Finished (final) and known to wait for its touch sequence to end: some touch it could
    /// be offered was down when last looked at (``GestureEngine/sequenceIsOpen(for:)``).
    var awaitsSequenceEnd = false
    /// Order in which pending requests were made: the first to ask is the first to commit.
    var pendingSerial: UInt64 = 0
    /// The fewest fingers this recognizer can begin with (kind and policy).
    let minimumFingers: Int
    /// While it holds fewer touches than this, the recognizer's moves only keep its touches'
    /// positions (``AnyRecognizer/movesDecideFrom``): the arena defers them.
    let movesDecideFrom: Int
    /// Moves were deferred since the recognizer last saw its touches' positions: it is brought
    /// up to date before its next `touchesBegan` (``GestureEngine/deliverFrame()``).
    var movesDeferred = false
    /// Touches held now: offered, not ignored, not ended.
    var held: [TouchID] = []
    /// Touches held since the last reset, minus ignored ones (spec §5.1 history).
    var history: [TouchID] = []
    var timers: [Timer] = []
    var sequence: UInt64 = 0
    /// Index in this step's action list of this slot's `changed`, to coalesce.
    var changedActionIndex: Int?
    /// What the attempt's last event reported (the deltas of the next are measured from it),
    /// and what the event before this step's `changed` reported (a `changed` replaced in the
    /// same step measures from there).
    var motion = GestureMotion.Reference.start
    var motionBeforeChanged = GestureMotion.Reference.start
    /// Since when the gesture in progress holds a finger count outside its range
    /// (``GestureEngine/checkFingerRange()``); nil while within it.
    var fingersOutOfRangeSince: Timestamp?
    /// The most fingers this recognizer works with (kind and policy).
    let maximumFingers: Int
    /// Cancelled for its finger count: resets at once instead of waiting for the sequence to
    /// end, then (``reoffersTouches``) takes the touches still down at the next step.
    var restartsWithTouchesDown = false
    var reoffersTouches = false
    /// A fresh attempt after such a cancel: failing on a landing starts it over again.
    var restartsOnLandingFailure = false

    var name: String { configuration.name }
    var isEnabled: Bool { configuration.isEnabled }


    /// Enabled, with touches since its last reset (spec §5.1 inPlay).
    var isInPlay: Bool { isEnabled && !history.isEmpty }

    init(configuration: RecognizerConfiguration, declarationIndex: Int, area: Double) {
        self.configuration = configuration
        self.recognizer = AnyRecognizer(configuration.kind)
        self.isDiscrete = configuration.kind.isDiscrete
        self.gestureKind = configuration.kind.gestureKind
        self.minimumFingers = max(configuration.kind.minimumFingers, configuration.policy.minimumFingers)
        self.movesDecideFrom = recognizer.movesDecideFrom
        self.maximumFingers = min(configuration.kind.maximumFingers, configuration.policy.maximumFingers)
        self.declarationIndex = declarationIndex
        self.area = area
    }

    func holds(_ id: TouchID) -> Bool {
        for t in held where t == id { return true }
        return false
    }

    func hasHistory(_ id: TouchID) -> Bool {
        for t in history where t == id { return true }
        return false
    }

    mutating func release(_ id: TouchID) {
        if let i = held.firstIndex(of: id) { held.remove(at: i) }
    }

    mutating func forget(_ id: TouchID) {
        release(id)
        if let i = history.firstIndex(of: id) { history.remove(at: i) }
    }

    /// The recognizer's values now. Mutating only so that `slots[i].currentValues(at:)` reaches
    /// the recognizer through the array's in-place accessor: the read accessor would copy the
    /// whole slot first.
    mutating func currentValues(at now: Timestamp) -> GestureValues {
        recognizer.currentValues(at: now)
    }

    /// The state an action reports for this slot's `state`.
    func gestureState(for state: RecognizerState) -> GestureState {
        switch state {
        case .possible: .possible
        case .began: .began
        case .changed: .changed
        case .ended: isDiscrete ? .recognized : .ended
        case .cancelled: .cancelled
        case .failed: .failed
        }
    }
}

/// What the sink knows about one touch (spec §7).
struct SinkRecord: Sendable {
    var id: TouchID
    var position: PhysicalPoint
    /// The kernel slot of the touch's last report.
    var slot = 0
    /// The touch's `began` reached the sink.
    var reached = false
    /// `ended` or `cancelled` reached the sink, or the sink will never see more of it.
    var finished = false
    /// A recognizer took the touch: nothing more is forwarded.
    var owned = false
    /// A recognizer with `delaysTouchesEnded` recognized: the end becomes a cancellation.
    var endCancelled = false
    /// The device no longer has the touch.
    var deviceDone = false
    /// Delayed began/moved events.
    var buffer: [SinkTouchEvent] = []
    var heldEnd: SinkTouchEvent?
    /// This step's events for the touch, in order.
    var incoming: [SinkTouchEvent] = []
}

/// A touch alive on the device, as the engine last saw it.
struct ActiveTouch: Sendable {
    var touch: Touch
}
