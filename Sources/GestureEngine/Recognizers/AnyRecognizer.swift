/// Every recognizer the engine runs, as an enum so the built-in ones dispatch statically and
/// the whole engine stays `Sendable` without existentials; only user recognizers are boxed.
enum AnyRecognizer: Sendable {
    case tap(TapRecognizer)
    case longPress(LongPressRecognizer)
    case pan(PanRecognizer)
    case edgePan(EdgePanRecognizer)
    case swipe(SwipeRecognizer)
    case pinch(PinchRecognizer)
    case rotation(RotationRecognizer)
    case custom(any CustomRecognizer)
    /// A placeholder with no recognizer (kept for code that needs an empty value).
    case vacant

    /// One hook call.
    enum Call {
        case began([Touch])
        case moved([Touch])
        case ended([Touch])
        case cancelled([Touch])
        case timer(Int)
        case reset
        case willBegin
    }

    init(_ kind: RecognizerKind) {
        switch kind {
        case .tap(let p): self = .tap(TapRecognizer(parameters: p))
        case .longPress(let p): self = .longPress(LongPressRecognizer(parameters: p))
        case .pan(let p): self = .pan(PanRecognizer(parameters: p))
        case .edgePan(let p): self = .edgePan(EdgePanRecognizer(parameters: p))
        case .swipe(let p): self = .swipe(SwipeRecognizer(parameters: p))
        case .pinch(let p): self = .pinch(PinchRecognizer(parameters: p))
        case .rotation(let p): self = .rotation(RotationRecognizer(parameters: p))
        case .tickle(let p): self = .custom(TickleRecognizer(parameters: p))
        case .custom(let box): self = .custom(box.recognizer)
        }
    }

    mutating func handle(_ call: Call, context: inout RecognizerContext) {
        // `consume self` moves the payload out without a copy (no retains), so its arrays stay
        // uniquely referenced while the recognizer mutates them; `self` is set again at once.
        switch consume self {
        case .tap(var r):
            r.handle(call, context: &context)
            self = .tap(r)
        case .longPress(var r):
            r.handle(call, context: &context)
            self = .longPress(r)
        case .pan(var r):
            r.handle(call, context: &context)
            self = .pan(r)
        case .edgePan(var r):
            r.handle(call, context: &context)
            self = .edgePan(r)
        case .swipe(var r):
            r.handle(call, context: &context)
            self = .swipe(r)
        case .pinch(var r):
            r.handle(call, context: &context)
            self = .pinch(r)
        case .rotation(var r):
            r.handle(call, context: &context)
            self = .rotation(r)
        case .custom(var r):
            r.handle(call, context: &context)
            self = .custom(r)
        case .vacant:
            self = .vacant
        }
    }

    /// The fewest touches with which a move can change anything but the recognizer's record
    /// of where its touches are; 0 when every move may matter. A swipe needing N touches,
    /// holding fewer, only stores positions on a move: its duration timer fails it at the
    /// same instant as a move's own duration check would (timers due by a frame's time fire
    /// before the frame), its move clock restarts when a touch lands, and it judges nothing
    /// until the N-th touch lands. The arena defers such moves and hands the recognizer its
    /// touches' positions before the next landing (``GestureEngine/deliverFrame()``), so a
    /// 3- or 4-finger swipe kept possible beside two moving fingers costs nothing per frame.
    var movesDecideFrom: Int {
        switch self {
        case .swipe(let r): r.parameters.numberOfTouchesRequired
        case .tap, .longPress, .pan, .edgePan, .pinch, .rotation, .custom, .vacant: 0
        }
    }

    /// ``values(at:)`` without copying the recognizer out of the enum (the engine's hot path).
    mutating func currentValues(at now: Timestamp) -> GestureValues {
        let values: GestureValues
        switch consume self {
        case .tap(let r):
            values = r.values(at: now)
            self = .tap(r)
        case .longPress(let r):
            values = r.values(at: now)
            self = .longPress(r)
        case .pan(let r):
            values = r.values(at: now)
            self = .pan(r)
        case .edgePan(let r):
            values = r.values(at: now)
            self = .edgePan(r)
        case .swipe(let r):
            values = r.values(at: now)
            self = .swipe(r)
        case .pinch(let r):
            values = r.values(at: now)
            self = .pinch(r)
        case .rotation(let r):
            values = r.values(at: now)
            self = .rotation(r)
        case .custom(let r):
            values = r.values(at: now)
            self = .custom(r)
        case .vacant:
            values = GestureValues(fingers: 0, location: .zero)
            self = .vacant
        }
        return values
    }

    func values(at now: Timestamp) -> GestureValues {
        switch self {
        case .tap(let r): r.values(at: now)
        case .longPress(let r): r.values(at: now)
        case .pan(let r): r.values(at: now)
        case .edgePan(let r): r.values(at: now)
        case .swipe(let r): r.values(at: now)
        case .pinch(let r): r.values(at: now)
        case .rotation(let r): r.values(at: now)
        case .custom(let r): r.values(at: now)
        case .vacant: GestureValues(fingers: 0, location: .zero)
        }
    }

    func canPrevent(_ other: RecognizerKind) -> Bool {
        switch self {
        case .tap(let r): r.canPrevent(other)
        case .longPress(let r): r.canPrevent(other)
        case .pan(let r): r.canPrevent(other)
        case .edgePan(let r): r.canPrevent(other)
        case .swipe(let r): r.canPrevent(other)
        case .pinch(let r): r.canPrevent(other)
        case .rotation(let r): r.canPrevent(other)
        case .custom(let r): r.canPrevent(other)
        case .vacant: true
        }
    }

    func canBePrevented(by other: RecognizerKind) -> Bool {
        switch self {
        case .tap(let r): r.canBePrevented(by: other)
        case .longPress(let r): r.canBePrevented(by: other)
        case .pan(let r): r.canBePrevented(by: other)
        case .edgePan(let r): r.canBePrevented(by: other)
        case .swipe(let r): r.canBePrevented(by: other)
        case .pinch(let r): r.canBePrevented(by: other)
        case .rotation(let r): r.canBePrevented(by: other)
        case .custom(let r): r.canBePrevented(by: other)
        case .vacant: true
        }
    }

    func shouldRequireFailure(of other: RecognizerKind) -> Bool {
        switch self {
        case .tap(let r): r.shouldRequireFailure(of: other)
        case .longPress(let r): r.shouldRequireFailure(of: other)
        case .pan(let r): r.shouldRequireFailure(of: other)
        case .edgePan(let r): r.shouldRequireFailure(of: other)
        case .swipe(let r): r.shouldRequireFailure(of: other)
        case .pinch(let r): r.shouldRequireFailure(of: other)
        case .rotation(let r): r.shouldRequireFailure(of: other)
        case .custom(let r): r.shouldRequireFailure(of: other)
        case .vacant: false
        }
    }

    /// Whether this recognizer, holding no touch yet, fails as soon as its first touch lands at
    /// `position`, whatever follows: an edge pan whose first touch starts outside every edge
    /// band. Known before the step (``GestureEngine/landingsForwardedAtOnce(in:)``); false
    /// whenever the answer depends on more than the landing.
    func failsOnFirstTouch(at position: PhysicalPoint, surfaceWidth: Double, surfaceHeight: Double) -> Bool {
        guard case .edgePan(let r) = self else { return false }
        return r.failsOnFirstTouch(at: position, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
    }

    func shouldBeRequiredToFail(by other: RecognizerKind) -> Bool {
        switch self {
        case .tap(let r): r.shouldBeRequiredToFail(by: other)
        case .longPress(let r): r.shouldBeRequiredToFail(by: other)
        case .pan(let r): r.shouldBeRequiredToFail(by: other)
        case .edgePan(let r): r.shouldBeRequiredToFail(by: other)
        case .swipe(let r): r.shouldBeRequiredToFail(by: other)
        case .pinch(let r): r.shouldBeRequiredToFail(by: other)
        case .rotation(let r): r.shouldBeRequiredToFail(by: other)
        case .custom(let r): r.shouldBeRequiredToFail(by: other)
        case .vacant: false
        }
    }
}

extension CustomRecognizer {
    /// Routes one engine call to the matching hook.
    mutating func handle(_ call: AnyRecognizer.Call, context: inout RecognizerContext) {
        switch call {
        case .began(let touches): touchesBegan(touches, context: &context)
        case .moved(let touches): touchesMoved(touches, context: &context)
        case .ended(let touches): touchesEnded(touches, context: &context)
        case .cancelled(let touches): touchesCancelled(touches, context: &context)
        case .timer(let token): timerFired(token, context: &context)
        case .reset: reset()
        case .willBegin: willBeginAfterSatisfyingFailureRequirements()
        }
    }
}
