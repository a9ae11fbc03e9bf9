/// Long press, continuous (spec §4.2), with the optional tap prefix.
///
/// | Phase | Event | Next |
/// |---|---|---|
/// | tapping | prefix taps recognized | awaitingPress (pressStartTimer = tap interval) |
/// | tapping | prefix fails | fail |
/// | awaitingPress / pressing | required fingers down | pressing (pressTimer) |
/// | pressing | too many fingers / centroid moved too far before began | fail |
/// | pressing | pressTimer with required fingers | began |
/// | began/changed | move → changed, lift → ended, cancel → cancelled | — |
struct LongPressRecognizer: CustomRecognizer {
    enum Phase: Sendable, Hashable {
        case tapping
        case awaitingPress
        case pressing
    }

    static let pressTimer = 10
    static let pressStartTimer = 11

    let parameters: LongPressParameters
    private(set) var phase: Phase
    private var prefix: TapRecognizer
    private var held = TrackedTouches()
    private var startCentroid = PhysicalPoint.zero
    /// Centroid of the held touches when last seen, kept after the lift for the `ended` action.
    private var lastCentroid = PhysicalPoint.zero

    init(parameters: LongPressParameters) {
        self.parameters = parameters
        var tap = TapParameters()
        tap.numberOfTapsRequired = parameters.numberOfTapsRequired
        tap.numberOfTouchesRequired = parameters.numberOfTouchesRequired
        self.prefix = TapRecognizer(parameters: tap)
        self.phase = parameters.numberOfTapsRequired > 0 ? .tapping : .pressing
    }

    var kind: GestureKind { .longPress }
    var isDiscrete: Bool { false }

    /// Runs one prefix callback in a scratch context and maps its outcome: a tap failure is a
    /// long-press failure; "recognized" opens the window for the press.
    private mutating func runPrefix(
        _ context: inout RecognizerContext,
        _ body: (inout TapRecognizer, inout RecognizerContext) -> Void
    ) {
        var scratch = RecognizerContext(
            now: context.now,
            state: .possible,
            sloppiness: context.sloppiness,
            surfaceWidth: context.surfaceWidth,
            surfaceHeight: context.surfaceHeight
        )
        body(&prefix, &scratch)
        context.timerOperations.append(contentsOf: scratch.timerOperations)
        switch scratch.state {
        case .failed, .cancelled:
            context.fail()
        case .ended:
            phase = .awaitingPress
            context.schedule(Self.pressStartTimer, after: prefix.parameters.maximumIntervalBetweenTaps)
        case .possible, .began, .changed:
            break
        }
    }

    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        switch context.state {
        case .began, .changed:
            for touch in touches { context.ignore(touch.id) }
            return
        case .possible, .ended, .cancelled, .failed:
            break
        }
        switch phase {
        case .tapping:
            runPrefix(&context) { $0.touchesBegan(touches, context: &$1) }
        case .awaitingPress, .pressing:
            for touch in touches { held.add(touch) }
            if held.count > parameters.numberOfTouchesRequired {
                context.fail()
            } else if held.count == parameters.numberOfTouchesRequired {
                phase = .pressing
                startCentroid = held.centroid
                lastCentroid = startCentroid
                context.cancelTimer(Self.pressStartTimer)
                context.schedule(Self.pressTimer, after: parameters.minimumPressDuration)
            }
        }
    }

    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        switch phase {
        case .tapping:
            runPrefix(&context) { $0.touchesMoved(touches, context: &$1) }
            return
        case .awaitingPress, .pressing:
            break
        }
        var moved = false
        for touch in touches where held.update(touch) { moved = true }
        guard moved else { return }
        lastCentroid = held.centroid
        switch context.state {
        case .possible:
            if held.count == parameters.numberOfTouchesRequired,
                held.centroid.distance(to: startCentroid) > parameters.allowableMovement
            {
                context.fail()
            }
        case .began, .changed:
            context.request(.changed)
        case .ended, .cancelled, .failed:
            break
        }
    }

    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        if phase == .tapping {
            runPrefix(&context) { $0.touchesEnded(touches, context: &$1) }
            return
        }
        var lifted = false
        for touch in touches where held.contains(touch.id) {
            held.update(touch)
            lifted = true
        }
        guard lifted else { return }
        lastCentroid = held.centroid
        switch context.state {
        case .began, .changed: context.request(.ended)
        case .possible: context.fail()
        case .ended, .cancelled, .failed: break
        }
        for touch in touches { held.remove(touch.id) }
    }

    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        for touch in touches { held.remove(touch.id) }
        switch context.state {
        case .began, .changed: context.request(.cancelled)
        case .possible: context.fail()
        case .ended, .cancelled, .failed: break
        }
    }

    mutating func timerFired(_ token: Int, context: inout RecognizerContext) {
        if token == Self.pressTimer {
            if context.state == .possible, phase == .pressing, held.count == parameters.numberOfTouchesRequired {
                context.request(.began)
            }
        } else if token == Self.pressStartTimer {
            if context.state == .possible { context.fail() }
        } else {
            // Tokens below 10 belong to the embedded tap prefix.
            runPrefix(&context) { $0.timerFired(token, context: &$1) }
        }
    }

    mutating func reset() {
        prefix.reset()
        held.removeAll()
        startCentroid = .zero
        lastCentroid = .zero
        phase = parameters.numberOfTapsRequired > 0 ? .tapping : .pressing
    }

    /// With ``LongPressParameters/yieldsToMotion`` (touchpads), a begun hold leaves the
    /// gestures of finger motion possible; whichever of them commits cancels the hold, as
    /// libinput cancels its touchpad hold when a scroll, swipe or pinch begins.
    func canPrevent(_ other: RecognizerKind) -> Bool {
        guard parameters.yieldsToMotion else { return true }
        switch other {
        case .pan, .swipe, .pinch, .rotation, .edgePan: return false
        case .tap, .longPress, .tickle, .custom: return true
        }
    }

    func values(at now: Timestamp) -> GestureValues {
        let location = held.isEmpty ? lastCentroid : held.centroid
        return GestureValues(
            fingers: held.count,
            location: location,
            taps: parameters.numberOfTapsRequired > 0 ? parameters.numberOfTapsRequired : nil,
            translation: location - startCentroid
        )
    }
}
