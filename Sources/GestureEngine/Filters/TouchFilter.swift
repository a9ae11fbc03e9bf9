/// The stage between the ``FrameAssembler`` and the ``GestureEngine`` that decides which
/// contacts are fingers (spec §2 leaves palm handling to the input side, as libinput and the
/// ChromiumOS gestures library do): palms and resting thumbs are taken out, taps that are no
/// taps are marked, sensor jitter is absorbed.
///
/// A chain of stages, one concern each (``TouchFilterStage``), assembled once for the
/// device's kind (``chain(for:settings:)``); a stage that matters on touchpads only is not
/// in the touchscreen chain:
///
/// | stage | concern | touchscreen |
/// |---|---|---|
/// | ``LiftDebounceStage`` | held-back lifts, returning contacts, flicker | |
/// | ``SemiMTStage`` | a semi-MT box's leap when the finger count changes | |
/// | ``PalmWobbleStage`` | a palm's wobbling centre | |
/// | ``PalmStage`` | palms by tool, pressure, size, landing pressure, memory | ✓ |
/// | ``ThumbStage`` | the bottom thumb band, the diagonal resting thumb | |
/// | ``EdgeBandStage`` | contacts landing in the side and top bands | |
/// | ``LandingHoldStage`` | palm confirmation, unknown pressure | |
/// | ``ClickFingerStage`` | the finger holding the button | ✓ |
/// | ``FakeFingerStage`` | fingers counted by `BTN_TOOL_*` beyond the slots | |
/// | ``TapGuardStage`` | short contacts that are no taps | |
/// | ``JitterStage`` | hysteresis and box filters; what is delivered | ✓ |
///
/// A contact's role (``ContactRole``, docs/state-machines/contact-role.md) and every decision
/// is kept in the ``ContactTable`` the stages share, and carried by the delivered touch as a
/// flag with its reason (``TouchFlags``): a palm is delivered `cancelled` once with
/// ``TouchFlags/palm``; a short touch that is no tap ends with ``TouchFlags/noTap``.
/// Decisions are also kept for ``drainDecisions()`` when ``recordsDecisions`` is on
/// (`gestured --replay --touches`, `--verbose`).
///
/// Pure value type: frames in (``process(_:)``), frames out; held-back lifts come out through
/// ``fire(upTo:)`` at ``nextDeadline`` (the caller's clock), never by reading a clock.
public struct TouchFilter: Sendable {
    public let device: DeviceDescription
    public let settings: TouchFilterSettings

    var table = ContactTable()
    /// The device's chain, in order.
    var stages: StageChain
    let facts: FilterDeviceFacts
    private var lastButton = false
    /// The list the last filtered frame was built in, for the next frame to reuse.
    private var spareTouches: [Touch] = []

    /// Keep a line per decision for ``drainDecisions()`` (off: nothing is kept).
    public var recordsDecisions = false
    var decisions: [TouchFilterDecision] = []

    /// What the filter makes of one assembled frame.
    public struct Output: Sendable {
        /// To deliver before the frame: held-back lifts that came due before it, those
        /// waiting for a palm's return when the frame brings a new contact, a resting thumb
        /// taken out as a third finger lands.
        public var ahead: Frame?
        /// The frame the engine should see; nil when nothing in it concerns a finger (and no
        /// button changed: a frame with only held-back contacts is dropped).
        public var frame: Frame?
    }

    /// - Parameters:
    ///   - settings: the thresholds, with the device's quirks already applied
    ///     (``TouchFilterSettings/applying(_:)``).
    public init(device: DeviceDescription, settings: TouchFilterSettings = TouchFilterSettings()) {
        self.device = device
        self.settings = settings
        let facts = FilterDeviceFacts(device: device, pressureIsPressure: settings.pressureIsPressure(on: device))
        self.facts = facts
        stages = Self.chain(for: device, settings: settings, facts: facts)
    }

    /// Whether pressure thresholds apply on this device (its pressure means pressure).
    public var judgesPressure: Bool { facts.pressureMaximum != nil }

    /// Filters one assembled frame: what goes before it, and what the engine sees of it.
    public mutating func process(_ input: Frame) -> Output {
        guard settings.isEnabled else { return Output(ahead: nil, frame: input) }
        // Reuse last frame's list when its frame is gone (unique again); taken out of `self`
        // so the stages can append to it.
        var out = spareTouches
        spareTouches = []
        out.clear()
        var frame = FilterFrame(input: input, buttonBefore: lastButton, table: table, out: out)
        table = ContactTable()
        stages.begin(&frame)
        let ahead = frame.ahead
        if recordsDecisions, let ahead { note(ahead.touches, at: ahead.timestamp) }
        for touch in input.touches { step(touch, &frame) }
        stages.end(&frame)
        table = frame.table
        out = frame.out
        frame.out = []
        if recordsDecisions { note(out, at: input.timestamp) }
        // The stages mostly deliver in the assembler's (id) order: sort only when needed, in
        // place (the same stable sort `sorted` performs).
        if !Self.isSortedByID(out) { out.sort { $0.id < $1.id } }
        spareTouches = out
        var result = input
        result.touches = out
        let dropped = result.touches.isEmpty && !input.touches.isEmpty && input.isButtonPressed == lastButton
        if !dropped { lastButton = input.isButtonPressed }
        return Output(ahead: ahead, frame: dropped ? nil : result)
    }

    private static func isSortedByID(_ touches: [Touch]) -> Bool {
        var index = 1
        while index < touches.count {
            if touches[index].id < touches[index - 1].id { return false }
            index += 1
        }
        return true
    }

    /// Forgets everything (the device went away); deliver ``fire(upTo:)`` first.
    public mutating func reset() {
        table.reset()
        stages.reset()
        lastButton = false
    }

    /// The earliest deadline of any stage (today only held-back lifts wait for time).
    public var nextDeadline: Timestamp? {
        stages.nextDeadline(table)
    }

    /// Fires the timers due at or before `time`: the held-back lifts come out as one frame at
    /// the latest of their deadlines; nil when none is due.
    public mutating func fire(upTo time: Timestamp) -> Frame? {
        guard !table.lifted.isEmpty else { return nil }
        let input = Frame(timestamp: time, touches: [], isButtonPressed: lastButton)
        var frame = FilterFrame(input: input, buttonBefore: lastButton, table: table, out: [])
        table = ContactTable()
        stages.fire(&frame)
        table = frame.table
        if recordsDecisions, let ahead = frame.ahead { note(ahead.touches, at: ahead.timestamp) }
        return frame.ahead
    }
}
