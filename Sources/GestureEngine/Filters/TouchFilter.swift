/// The stage between the ``FrameAssembler`` and the ``GestureEngine`` that decides which
/// contacts are fingers (spec §2 leaves palm handling to the input side, as libinput and the
/// ChromiumOS gestures library do): palms and resting thumbs are taken out, taps that are no
/// taps are marked, sensor jitter is absorbed.
///
/// A chain of stages, one concern each (``TouchFilterStage``; DESIGN.md, issue 12):
///
/// | stage | concern |
/// |---|---|
/// | ``PalmStage`` | palms by tool, pressure, size, landing pressure, memory, wobble |
/// | ``EdgeBandStage`` | contacts landing in the side and top bands |
/// | ``ThumbStage`` | the bottom thumb band, the diagonal resting thumb |
/// | ``LandingHoldStage`` | palm confirmation, unknown pressure |
/// | ``LiftDebounceStage`` | held-back lifts, returning contacts, flicker |
/// | ``FakeFingerStage`` | fingers counted by `BTN_TOOL_*` beyond the slots |
/// | ``ClickFingerStage`` | the finger holding the button |
/// | ``TapGuardStage`` | short contacts that are no taps |
/// | ``JitterStage`` | hysteresis, box and sensor-jump filters |
///
/// Every decision is carried by the touch as a flag with its reason (``TouchFlags``): a palm
/// is delivered `cancelled` once with ``TouchFlags/palm``; a short touch that is no tap ends
/// with ``TouchFlags/noTap``. Decisions are also kept for ``drainDecisions()`` when
/// ``recordsDecisions`` is on (`gestured --replay --touches`).
///
/// Pure value type: frames in, frames out; held-back lifts come out through
/// ``flush(upTo:before:)`` at ``nextDeadline`` (the caller's clock), never by reading a clock.
public struct TouchFilter: Sendable {
    public let device: DeviceDescription
    public let settings: TouchFilterSettings

    var table = ContactTable()
    var palms: PalmStage
    var edges: EdgeBandStage
    var thumbs: ThumbStage
    var landing: LandingHoldStage
    var lifts: LiftDebounceStage
    var fakes: FakeFingerStage
    var clicks: ClickFingerStage
    var tapGuard: TapGuardStage
    var jitter: JitterStage
    let facts: FilterDeviceFacts
    private var lastButton = false
    /// The list the last filtered frame was built in, for the next frame to reuse.
    private var spareTouches: [Touch] = []

    /// Keep a line per decision for ``drainDecisions()`` (off: nothing is kept).
    public var recordsDecisions = false
    var decisions: [TouchFilterDecision] = []

    /// - Parameters:
    ///   - settings: the thresholds, with the device's quirks already applied
    ///     (``TouchFilterSettings/applying(_:)``).
    public init(device: DeviceDescription, settings: TouchFilterSettings = TouchFilterSettings()) {
        self.device = device
        self.settings = settings
        let facts = FilterDeviceFacts(device: device, pressureIsPressure: settings.pressureIsPressure(on: device))
        self.facts = facts
        let bands = FilterBands(settings: settings, width: facts.width, height: facts.height)
        palms = PalmStage(settings: settings, facts: facts)
        edges = EdgeBandStage(settings: settings, bands: bands, isTouchpad: facts.isTouchpad)
        thumbs = ThumbStage(settings: settings, bands: bands, isTouchpad: facts.isTouchpad)
        landing = LandingHoldStage(settings: settings, facts: facts)
        lifts = LiftDebounceStage(settings: settings, facts: facts)
        fakes = FakeFingerStage(settings: settings, facts: facts)
        clicks = ClickFingerStage(settings: settings)
        tapGuard = TapGuardStage(settings: settings, isTouchpad: facts.isTouchpad)
        jitter = JitterStage(settings: settings, semiMT: facts.isTouchpad && device.properties.contains(.semiMT))
    }

    /// Whether pressure thresholds apply on this device (its pressure means pressure).
    public var judgesPressure: Bool { facts.pressureMaximum != nil }

    /// The frame the engine should see, or nil when nothing in it concerns a finger (and no
    /// button changed: a frame with only held-back contacts is dropped).
    public mutating func filter(_ frame: Frame) -> Frame? {
        guard settings.isEnabled else { return frame }
        // Reuse last frame's list when its frame is gone (unique again); taken out of `self`
        // so the mutating steps below can append to it.
        var out = spareTouches
        spareTouches = []
        out.clear()
        tapGuard.beginFrame(frame, table: table)
        thumbs.beginFrame(frame)
        if thumbs.isTouchpad {
            for touch in frame.touches where touch.phase == .began && palms.palmReason(touch) == nil { thumbs.noteLanding(touch) }
        }
        jitter.beginFrame(frame)
        for var touch in frame.touches {
            palms.notePressure(touch)
            if let delivered = table.aliases[touch.id] {
                touch.id = delivered
                if touch.phase == .ended || touch.phase == .cancelled { table.aliases[touch.id] = nil }
            }
            step(touch, at: frame.timestamp, into: &out)
        }
        palms.forget(before: frame.timestamp)
        clicks.step(frame, table: &table, liftsHeld: !lifts.isEmpty, into: &out)
        fakes.step(frame, table: table, lifts: &lifts, into: &out)
        tapGuard.noteMotion(out, at: frame.timestamp, table: table, fakes: fakes.count)
        if recordsDecisions { note(out, at: frame.timestamp) }
        // The steps mostly deliver in the assembler's (id) order: sort only when needed, in
        // place (the same stable sort `sorted` performs).
        if !Self.isSortedByID(out) { out.sort { $0.id < $1.id } }
        spareTouches = out
        var result = frame
        result.touches = out
        if result.touches.isEmpty && !frame.touches.isEmpty && frame.isButtonPressed == lastButton { return nil }
        lastButton = frame.isButtonPressed
        return result
    }

    private static func isSortedByID(_ touches: [Touch]) -> Bool {
        var index = 1
        while index < touches.count {
            if touches[index].id < touches[index - 1].id { return false }
            index += 1
        }
        return true
    }

    /// Forgets everything (the device went away); deliver ``flush(upTo:before:)`` first.
    public mutating func reset() {
        table = ContactTable()
        palms.reset()
        edges.reset()
        thumbs.reset()
        landing.reset()
        lifts.reset()
        fakes.reset()
        clicks.reset()
        tapGuard.reset()
        jitter.reset()
        lastButton = false
    }

    /// The earliest deadline of any stage (today only held-back lifts wait for time).
    public var nextDeadline: Timestamp? {
        // No array of them: this is read after every frame.
        var earliest = Self.earlier(palms.nextDeadline, edges.nextDeadline)
        earliest = Self.earlier(earliest, Self.earlier(thumbs.nextDeadline, landing.nextDeadline))
        earliest = Self.earlier(earliest, Self.earlier(lifts.nextDeadline, fakes.nextDeadline))
        earliest = Self.earlier(earliest, Self.earlier(clicks.nextDeadline, tapGuard.nextDeadline))
        return Self.earlier(earliest, jitter.nextDeadline)
    }

    private static func earlier(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// The held-back lifts due at or before `time` (strictly before, with `before`), as one
    /// frame at the latest of their deadlines; nil when none is due.
    public mutating func flush(upTo time: Timestamp, before: Bool = false) -> Frame? {
        guard !lifts.isEmpty else { return nil }
        let frame = lifts.deliver(lifts.due(upTo: time, before: before), upTo: time, button: lastButton)
        if recordsDecisions, let frame { note(frame.touches, at: frame.timestamp) }
        return frame
    }

    /// What to deliver before `frame`: the held-back lifts due before its timestamp, those
    /// waiting for a palm's return when the frame brings a new contact, and a resting thumb
    /// taken out as a third finger lands (``ThumbStage``). Call it before ``filter(_:)``
    /// with the same frame.
    public mutating func flush(before frame: Frame) -> Frame? {
        guard settings.isEnabled else { return nil }
        let now = frame.timestamp
        var result: Frame?
        if !lifts.isEmpty {
            var ids = lifts.due(upTo: now, before: true)
            lifts.returns(before: frame, into: &ids, palms: &palms)
            result = lifts.deliver(ids, upTo: now, button: lastButton)
        }
        // Only a landing can reveal a resting thumb; asked only then, since handing the palm
        // stage over beside the table copies it.
        if thumbs.detectsDiagonalThumbs, frame.touches.contains(where: { $0.phase == .began }),
            let thumb = thumbs.diagonalThumb(before: frame, table: &table, palms: palms)
        {
            var frame = result ?? Frame(timestamp: now, touches: [], isButtonPressed: lastButton)
            frame.timestamp = now
            frame.touches = (frame.touches + [thumb]).sorted { $0.id < $1.id }
            result = frame
        }
        if recordsDecisions, let result { note(result.touches, at: result.timestamp) }
        return result
    }
}
