// What the sink (spec §7) will do with a frame's landings, told before the frame's step: the
// grab clone writes a touch-down that no recognizer can hold back before the engine has
// stepped, so an application's touch-down waits for the kernel and one write, not for every
// recognizer (DESIGN.md "Engine and arbitration" › "Landings the engine cannot hold back").

extension GestureEngine {
    /// The touches landing in `frame` whose `began` the frame's step will forward to the sink
    /// at once, as ``SinkTouchEvent``s like the ones the step will emit; call it after the
    /// deadlines due by the frame's time have fired (``advance(to:into:)``) and before
    /// ``process(_:into:)`` takes the frame.
    ///
    /// A landing is forwarded at once unless a recognizer still deciding holds it back
    /// (`DelaysTouchesBegan=`) or a gesture in progress takes it (`CancelsTouches=`). Both
    /// are known before the step, from the recognizers' states and regions, except for one
    /// kind of answer: a delaying recognizer with no touch yet keeps the landing unless it
    /// fails on it at once, and only the recognizer can say that it will
    /// (``AnyRecognizer/failsOnFirstTouch(at:surfaceWidth:surfaceHeight:)``: an edge pan whose
    /// first touch is outside every band). Whenever an answer is not certain the landing is
    /// left out: nothing is forwarded early that the sink would have held back.
    ///
    /// One case is not foreseen: a recognizer with `CancelsTouches=` that begins in this very
    /// step, on the landing itself. The sink then never forwards the touch, and the caller
    /// that wrote it early cancels it (the clone's palm and lift, as for any claimed touch).
    ///
    /// Returns nothing for a frame in which a touch also lifts or is cancelled (the sink may
    /// hold that lift back, so the step decides), while touches are offered again after a
    /// change of fingers, or when the sink is off.
    public func landingsForwardedAtOnce(in frame: Frame) -> [SinkTouchEvent] {
        guard deliversTouches, !reoffersTouches else { return [] }
        var landing: [Touch] = []
        for touch in frame.touches {
            switch touch.phase {
            case .ended, .cancelled: return []
            case .began, .moved, .stationary:
                if activeIndex(touch.id) != nil || suppressed.contains(touch.id) { continue }
                landing.append(touch)
            }
        }
        guard !landing.isEmpty, active.count + landing.count <= configuration.maxTouches else { return [] }
        landing.sort { $0.id < $1.id }
        var held = Array(repeating: false, count: landing.count)
        for i in slots.indices {
            let configuration = slots[i].configuration
            guard configuration.isEnabled, !slots[i].state.isFinal else { continue }
            let takes = slots[i].state.isActive && configuration.cancelsTouchesInView
            let delays = slots[i].state == .possible && configuration.delaysTouchesBegan
            guard takes || delays else { continue }
            // A delaying recognizer holding nothing yet fails on its first landing, or keeps
            // every landing it is offered.
            var failsAtOnce = false
            if !takes, slots[i].history.isEmpty, !slots[i].reoffersTouches,
                let first = landing.first(where: { canOffer($0, to: i) })
            {
                failsAtOnce = slots[i].recognizer.failsOnFirstTouch(
                    at: first.position, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
            }
            if failsAtOnce { continue }
            for k in landing.indices where canOffer(landing[k], to: i) { held[k] = true }
        }
        var forwarded: [SinkTouchEvent] = []
        for k in landing.indices where !held[k] {
            let touch = landing[k]
            forwarded.append(
                SinkTouchEvent(touch: touch.id, phase: .began, timestamp: frame.timestamp, position: touch.position, slot: touch.slot))
        }
        return forwarded
    }
}
