import Testing

@testable import GestureEngine

/// A 100 × 60 mm touchscreen (10 units/mm) used by the engine tests.
let testDevice = DeviceDescription(
    name: "test screen",
    properties: [.direct],
    axes: [
        EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 9),
        EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
        EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 600, resolution: 10),
    ]
)

/// A finger script: touches down, moving and lifting at explicit times (seconds), positions in
/// millimetres. Calls at the same time go into one frame; every frame lists all active touches
/// (unchanged ones as stationary), as the frame assembler does.
struct Fingers {
    private(set) var frames: [Frame] = []
    private var active: [Touch] = []
    private var nextID: UInt64

    /// A script whose touches are numbered from `firstID` (touch ids are never reused).
    init(firstID: UInt64 = 1) {
        nextID = firstID
    }

    private mutating func frame(at t: Double) -> Int {
        let time = Timestamp(seconds: t)
        if let last = frames.last, last.timestamp == time { return frames.count - 1 }
        precondition(frames.last.map { $0.timestamp < time } ?? true, "script times must increase")
        let touches = active.map { touch -> Touch in
            var s = touch
            s.phase = .stationary
            s.previousPosition = touch.position
            return s
        }
        frames.append(Frame(timestamp: time, touches: touches))
        return frames.count - 1
    }

    private mutating func put(_ touch: Touch, in f: Int) {
        if let k = frames[f].touches.firstIndex(where: { $0.id == touch.id }) {
            frames[f].touches[k] = touch
        } else {
            frames[f].touches.append(touch)
            frames[f].touches.sort { $0.id < $1.id }
        }
    }

    /// A finger touches down at (x, y) mm at time t s; returns its id.
    @discardableResult
    mutating func down(_ x: Double, _ y: Double, at t: Double, tool: ToolType = .finger) -> TouchID {
        let f = frame(at: t)
        let id = TouchID(nextID)
        nextID += 1
        let touch = Touch(
            id: id,
            slot: active.count,
            trackingID: Int32(id.rawValue),
            phase: .began,
            position: PhysicalPoint(x: x, y: y),
            startTime: Timestamp(seconds: t),
            toolType: tool
        )
        active.append(touch)
        put(touch, in: f)
        return id
    }

    /// Moves a finger to (x, y) mm at time t s.
    mutating func move(_ id: TouchID, to x: Double, _ y: Double, at t: Double) {
        let f = frame(at: t)
        guard let k = active.firstIndex(where: { $0.id == id }) else { preconditionFailure("no touch \(id)") }
        var touch = active[k]
        touch.previousPosition = touch.position
        touch.position = PhysicalPoint(x: x, y: y)
        active[k] = touch
        var inFrame = touch
        if let existing = frames[f].touches.first(where: { $0.id == id }), existing.phase == .began {
            inFrame.phase = .began
        } else {
            inFrame.phase = .moved
        }
        put(inFrame, in: f)
    }

    /// Moves a finger in `steps` equal steps from its position to (x, y), ending at time t1.
    mutating func slide(_ id: TouchID, to x: Double, _ y: Double, from t0: Double, to t1: Double, steps: Int) {
        guard let start = active.first(where: { $0.id == id })?.position else { preconditionFailure() }
        for s in 1...steps {
            let k = Double(s) / Double(steps)
            move(id, to: start.x + (x - start.x) * k, start.y + (y - start.y) * k, at: t0 + (t1 - t0) * k)
        }
    }

    /// Lifts a finger at time t s (or cancels it, as the assembler does for palms and drops),
    /// marked no tap as the touch filter would mark it.
    mutating func up(_ id: TouchID, at t: Double, cancelled: Bool = false, noTap: NoTapReason? = nil) {
        let f = frame(at: t)
        guard let k = active.firstIndex(where: { $0.id == id }) else { preconditionFailure("no touch \(id)") }
        var touch = active.remove(at: k)
        touch.previousPosition = touch.position
        touch.phase = cancelled ? .cancelled : .ended
        touch.flags.noTap = noTap
        put(touch, in: f)
    }

    /// An empty frame (SYN_REPORT without change) at time t.
    mutating func tick(at t: Double) {
        _ = frame(at: t)
    }

    /// Sets the button state of the frame at time t.
    mutating func button(_ pressed: Bool, at t: Double) {
        let f = frame(at: t)
        frames[f].isButtonPressed = pressed
    }
}

/// An engine plus everything it emitted; every run is checked by the ConsistencyChecker.
struct Harness {
    var engine: GestureEngine
    var outputs: [EngineOutput] = []
    var checker = ConsistencyChecker()
    var diagnostics: [EngineDiagnostic] = []

    init(_ recognizers: [RecognizerConfiguration], maxTouches: Int = 10, device: DeviceDescription = testDevice) {
        engine = GestureEngine(
            device: device,
            configuration: EngineConfiguration(recognizers: recognizers, maxTouches: maxTouches)
        )
    }

    init(configuration: EngineConfiguration) {
        engine = GestureEngine(device: testDevice, configuration: configuration)
    }

    /// Feeds every frame, then advances to `until` seconds (default: 2 s after the last frame).
    mutating func run(_ script: Fingers, until: Double? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        for frame in script.frames { record(engine.process(frame)) }
        let end = until ?? ((script.frames.last?.timestamp.seconds ?? 0) + 2)
        record(engine.advance(to: Timestamp(seconds: end)))
        #expect(checker.violations.isEmpty, "\(checker.violations)", sourceLocation: sourceLocation)
        let bugs = diagnostics.filter { if case .engineBug = $0 { true } else { false } }
        #expect(bugs.isEmpty, "\(bugs)", sourceLocation: sourceLocation)
    }

    mutating func record(_ new: [EngineOutput]) {
        outputs += new
        checker.feed(new)
        diagnostics += engine.drainDiagnostics()
    }

    var gestures: [GestureEvent] {
        outputs.compactMap { if case .gesture(let e) = $0 { e } else { nil } }
    }

    var sinkEvents: [SinkTouchEvent] {
        outputs.compactMap { if case .touch(let t) = $0 { t } else { nil } }
    }

    func events(_ name: String) -> [GestureEvent] { gestures.filter { $0.name == name } }

    /// `name state@seconds` for every gesture event, e.g. `["tap recognized@0.100"]`.
    var summary: [String] {
        gestures.map { "\($0.name) \($0.state.rawValue)@\(Transcript.fixed($0.timestamp.seconds, 3))" }
    }

    var transcript: String { Transcript.render(outputs, origin: .zero) }
}

/// Shorthand for a recognizer configuration.
func recognizer(
    _ name: String,
    _ kind: RecognizerKind,
    configure: (inout RecognizerConfiguration) -> Void = { _ in }
) -> RecognizerConfiguration {
    var c = RecognizerConfiguration(name: name, kind: kind)
    configure(&c)
    return c
}

func tap(taps: Int = 1, touches: Int = 1, _ configure: (inout TapParameters) -> Void = { _ in }) -> RecognizerKind {
    var p = TapParameters()
    p.numberOfTapsRequired = taps
    p.numberOfTouchesRequired = touches
    configure(&p)
    return .tap(p)
}

func longPress(_ configure: (inout LongPressParameters) -> Void = { _ in }) -> RecognizerKind {
    var p = LongPressParameters()
    configure(&p)
    return .longPress(p)
}

func pan(_ configure: (inout PanParameters) -> Void = { _ in }) -> RecognizerKind {
    var p = PanParameters()
    configure(&p)
    return .pan(p)
}

func swipe(
    _ directions: Set<Direction> = [.right],
    touches: Int = 1,
    _ configure: (inout SwipeParameters) -> Void = { _ in }
) -> RecognizerKind {
    var p = SwipeParameters()
    p.directions = directions
    p.numberOfTouchesRequired = touches
    configure(&p)
    return .swipe(p)
}

func pinch(_ configure: (inout PinchParameters) -> Void = { _ in }) -> RecognizerKind {
    var p = PinchParameters()
    configure(&p)
    return .pinch(p)
}

func rotation(_ configure: (inout RotationParameters) -> Void = { _ in }) -> RecognizerKind {
    var p = RotationParameters()
    configure(&p)
    return .rotation(p)
}

func edgePan(_ edges: Set<Edge>, _ configure: (inout EdgePanParameters) -> Void = { _ in }) -> RecognizerKind {
    var p = EdgePanParameters()
    p.edges = edges
    configure(&p)
    return .edgePan(p)
}

/// |a − b| ≤ tolerance.
func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-6) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}
