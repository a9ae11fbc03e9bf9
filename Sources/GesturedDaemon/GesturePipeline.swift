public import GestureEngine

/// Kernel events in, engine outputs out: the one path shared by the daemon, `--dry-run` and
/// `--replay` (issue 3: recordings replay "through exactly the same decoder and engine").
public struct GesturePipeline: Sendable {
    public let node: String
    public let device: DeviceDescription
    public private(set) var assembler: FrameAssembler
    /// Palm, thumb and jitter filtering between the assembler and the engine.
    public private(set) var filter: TouchFilter
    public private(set) var engine: GestureEngine
    /// The time of the last frame or deadline processed (never goes backwards).
    public private(set) var now: Timestamp?
    /// ``nextDeadline`` as of the last call that can change it, kept in a stored property:
    /// the daemon holds pipelines in a class, and reading a computed property through a
    /// class reference copies the whole pipeline first (measured: 3 % of a frame's CPU in
    /// the kernel tier's guest, for the single timer's re-arming).
    public private(set) var storedDeadline: Timestamp?
    /// Whether ``drainDiagnostics()`` has anything, kept in a stored property for the same
    /// reason as ``storedDeadline``: the daemon asks it after every step, through a class
    /// reference, and the computed form copied the whole pipeline first (callgrind: about
    /// 1 000 instructions a frame, with the retains and releases of every array in it).
    public private(set) var hasDiagnostics = false

    public init(
        node: String,
        device: DeviceDescription,
        configuration: EngineConfiguration,
        filterSettings: TouchFilterSettings = TouchFilterSettings(),
        firstSequence: UInt64 = 1
    ) {
        self.node = node
        self.device = device
        self.assembler = FrameAssembler(device: device, maxTouches: configuration.maxTouches)
        self.filter = TouchFilter(device: device, settings: filterSettings)
        // Decisions are kept only when one is made (a flagged touch), never on a steady frame.
        self.filter.recordsDecisions = true
        self.engine = GestureEngine(
            device: device, configuration: Self.devicePolicy(configuration, device: device), firstSequence: firstSequence)
        settle()
    }

    /// Refreshes the stored answers (``storedDeadline``, ``hasDiagnostics``) after a call that
    /// can change them.
    private mutating func settle() {
        storedDeadline = nextDeadline
        hasDiagnostics = assembler.hasDiagnostics || engine.hasDiagnostics || filter.hasDecisions
    }

    /// The longest tap on a touchpad (s): libinput's tap timeout (180 ms) and the ChromiumOS
    /// gestures library's (200 ms) plus the touch filter's 40 ms lift delay. The longest
    /// finger tap of the labelled corpus lasts 168 ms; palms resting 250–700 ms and then
    /// lifting were taps under the spec's touchscreen-minded 750 ms.
    static let touchpadMaximumTapDuration = 0.25

    /// The least change of finger distance (mm) that begins a pinch on a touchpad. Two
    /// scrolling fingers change their distance by up to 10.9 mm (27 of 156 labelled scrolls
    /// by 4 mm or more) before their centre has moved 5 mm; the labelled pinches change it by
    /// 45–65 mm. The spec's 1.247 mm suits a touchscreen's fingers, not two fingers settling
    /// on a touchpad.
    static let touchpadPinchHysteresis = 4.0

    /// What the device kind changes in the recognizers: on a touchpad two fingers moving
    /// together, or one moving beside a resting one, are a scroll, so a pinch needs the fingers
    /// to move apart or together (``PinchParameters/requiresOpposingMotion``) by
    /// ``touchpadPinchHysteresis``; one finger
    /// moves the pointer before a second joins it, so a multi-finger pan counts only what
    /// its fingers do together (``PanParameters/tracksOnlyWithMinimumTouches``); and a
    /// tap is short (``touchpadMaximumTapDuration``), a contact resting longer is a palm, a
    /// thumb or the pointer at rest; and a hold ends when its fingers go on to scroll, swipe
    /// or pinch (``LongPressParameters/yieldsToMotion``): libinput's touchpad hold is
    /// cancelled by the scroll, swipe or pinch that follows it (`evdev-mt-touchpad-gestures.c`,
    /// state HOLD on a scroll, swipe or pinch event: `tp_gesture_cancel`, then that gesture).
    static func devicePolicy(_ configuration: EngineConfiguration, device: DeviceDescription) -> EngineConfiguration {
        guard device.kind == .touchpad else { return configuration }
        var adjusted = configuration
        for index in adjusted.recognizers.indices {
            switch adjusted.recognizers[index].kind {
            case .pinch(var parameters):
                parameters.requiresOpposingMotion = true
                parameters.hysteresis = max(parameters.hysteresis, touchpadPinchHysteresis)
                adjusted.recognizers[index].kind = .pinch(parameters)
            case .pan(var parameters):
                parameters.tracksOnlyWithMinimumTouches = true
                adjusted.recognizers[index].kind = .pan(parameters)
            case .tap(var parameters):
                parameters.maximumTapDuration = min(parameters.maximumTapDuration, touchpadMaximumTapDuration)
                parameters.restartsTimerOnLanding = true
                adjusted.recognizers[index].kind = .tap(parameters)
            case .longPress(var parameters):
                parameters.yieldsToMotion = true
                adjusted.recognizers[index].kind = .longPress(parameters)
            default:
                break
            }
        }
        return adjusted
    }

    /// Feeds kernel events; every `SYN_REPORT` becomes a frame and one engine step.
    public mutating func feed<S: Sequence<RawEvent>>(_ events: S) -> [EngineOutput] {
        var outputs: [EngineOutput] = []
        feed(events, into: &outputs)
        return outputs
    }

    /// Like ``feed(_:)``, appending to a buffer the caller keeps (no per-frame array).
    public mutating func feed<S: Sequence<RawEvent>>(_ events: S, into outputs: inout [EngineOutput]) {
        defer { settle() }
        // An array's events are read from its storage: iterating the generic sequence here,
        // unspecialized (callers are in other modules), allocates for every event.
        let read: Void? = events.withContiguousStorageIfAvailable { buffer in
            for event in buffer { feed(event, into: &outputs) }
        }
        guard read == nil else { return }
        for event in events { feed(event, into: &outputs) }
    }

    private mutating func feed(_ event: RawEvent, into outputs: inout [EngineOutput]) {
        guard let assembled = assembler.feed(event) else { return }
        now = assembled.timestamp
        let filtered = filter.process(assembled)
        // Lifts the filter held back and that came due before this frame go first.
        if let lifts = filtered.ahead {
            engine.process(lifts, into: &outputs)
        }
        guard let frame = filtered.frame else { return }
        engine.process(frame, into: &outputs)
    }

    /// The first half of a source frame for the grab clone (``CloneRelay``): everything before
    /// the engine's step for the frame — the assembler, lifts the filter held back that came
    /// due, the engine's deadlines due by the frame's time, the filter — with their outputs
    /// appended to `outputs`. Returns the frame the step will take (nil when the filter keeps
    /// it back, or `events` end before a `SYN_REPORT`); ``step(_:into:)`` is the second half.
    /// The two together do what ``feed(_:into:)`` does with the same events, in the same order:
    /// between them the engine can say which landings its step forwards at once
    /// (``GestureEngine/landingsForwardedAtOnce(in:)``).
    public mutating func prepare(_ events: ArraySlice<RawEvent>, into outputs: inout [EngineOutput]) -> Frame? {
        defer { settle() }
        var pending: Frame?
        for event in events {
            guard let assembled = assembler.feed(event) else { continue }
            // More than one frame: every one but the last is stepped at once, as feed does.
            if let frame = pending {
                engine.process(frame, into: &outputs)
                pending = nil
            }
            now = assembled.timestamp
            let filtered = filter.process(assembled)
            if let lifts = filtered.ahead {
                engine.process(lifts, into: &outputs)
            }
            guard let frame = filtered.frame else { continue }
            engine.advance(to: frame.timestamp, into: &outputs)
            pending = frame
        }
        return pending
    }

    /// The engine's step for a frame ``prepare(_:into:)`` returned.
    public mutating func step(_ frame: Frame, into outputs: inout [EngineOutput]) {
        defer { settle() }
        engine.process(frame, into: &outputs)
    }

    /// Fires the engine's deadlines up to `time` (the daemon's timer, or replay's clock).
    public mutating func advance(to time: Timestamp) -> [EngineOutput] {
        var outputs: [EngineOutput] = []
        advance(to: time, into: &outputs)
        return outputs
    }

    /// Like ``advance(to:)``, appending to a buffer the caller keeps (no array per step).
    public mutating func advance(to time: Timestamp, into outputs: inout [EngineOutput]) {
        defer { settle() }
        let clamped = max(time, now ?? time)
        now = clamped
        if let lifts = filter.fire(upTo: clamped) {
            engine.process(lifts, into: &outputs)
        }
        engine.advance(to: clamped, into: &outputs)
    }

    /// The next deadline of the engine or the filter (a held-back lift), for the single timer.
    public var nextDeadline: Timestamp? {
        switch (engine.nextDeadline, filter.nextDeadline) {
        case (let a?, let b?): min(a, b)
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }

    /// Cancels every touch and gesture in flight: the device went away or the daemon stops.
    /// Lifts the filter still holds back are delivered first, as lifts, at the time their
    /// hold-back ends (as the timer or a replay's end would): those fingers did leave the
    /// surface (a pinch whose fingers lifted 10 ms before the unplug ended), and the
    /// hold-back only waits for a contact that could continue them, which can no longer
    /// come. So a live run and the replay of its recording end alike.
    public mutating func cancelAll(at time: Timestamp) -> [EngineOutput] {
        defer { settle() }
        var t = max(time, now ?? time)
        var outputs: [EngineOutput] = []
        if let lifts = filter.fire(upTo: Timestamp(microseconds: Int64.max / 2)) {
            t = max(t, lifts.timestamp)
            outputs += engine.process(lifts)
        }
        if let assembled = assembler.cancelAll(at: t), let frame = filter.process(assembled).frame {
            outputs += engine.process(frame)
        }
        filter.reset()
        outputs += engine.reset(at: t)
        return outputs
    }

    /// Runs every pending deadline, as if time went on after a recording's last event.
    public mutating func drainDeadlines() -> [EngineOutput] {
        var outputs: [EngineOutput] = []
        var guardCount = 0
        while let deadline = nextDeadline, guardCount < 1000 {
            outputs += advance(to: deadline)
            guardCount += 1
        }
        return outputs
    }

    /// The end of a recording: pending deadlines fire as if time went on, then whatever is
    /// still down is cancelled, as when a device goes away (a recording that stops with
    /// fingers on the surface must not leave gestures open).
    public mutating func finishReplay() -> [EngineOutput] {
        var outputs = drainDeadlines()
        if let now { outputs += cancelAll(at: now) }
        return outputs
    }

    /// Replaces the configuration; gestures of changed recognizers are cancelled.
    public mutating func reconfigure(_ configuration: EngineConfiguration, at time: Timestamp) -> [EngineOutput] {
        defer { settle() }
        let t = max(time, now ?? time)
        return engine.reconfigure(Self.devicePolicy(configuration, device: device), at: t)
    }

    /// Whether the engine keeps its state transitions as diagnostics (with their reasons);
    /// the daemon keeps them only when it logs them (debug), so a landing builds no string.
    public var recordsTransitions: Bool {
        get { engine.recordsTransitions }
        set { engine.recordsTransitions = newValue }
    }

    /// Whether the engine follows touches for the sink and emits them
    /// (``GestureEngine/deliversTouches``): the daemon turns it off while no raw-touch
    /// subscriber and no grab clone reads them.
    /// Stored, not computed: the hub reads it through its session (a class) before every
    /// read, and a computed property read that way copies the whole pipeline first.
    public var deliversTouches = true {
        didSet { if deliversTouches != oldValue { engine.deliversTouches = deliversTouches } }
    }

    /// Assembler and engine diagnostics since the last call, for the caller to log.
    public mutating func drainDiagnostics() -> [EngineDiagnostic] {
        guard hasDiagnostics else { return [] }
        defer { settle() }
        let decisions = filter.drainDecisions()
        let diagnostics = assembler.drainDiagnostics() + engine.drainDiagnostics()
        return decisions.isEmpty ? diagnostics : diagnostics + decisions.map(EngineDiagnostic.touchFilter)
    }
}
