/// A device's chain of stages (``TouchFilterStage``), composed statically: one optional
/// slot per stage kind, in the touchpad order, and a chain calls each stage it has in that
/// order. The touchscreen chain is the same type with only ``palm``, ``clickFinger`` and
/// ``jitter`` set (its order is a subsequence of the touchpad's). Which stages a device kind
/// gets is decided in one place, ``TouchFilter/chain(for:settings:facts:)``.
///
/// Concrete stored stages rather than an array of `any TouchFilterStage`: every call is a
/// direct call the compiler can inline and specialize, and a stage is changed in place in its
/// slot (no boxed existential, no witness-table dispatch per stage and touch).
struct StageChain: Sendable {
    var liftDebounce: LiftDebounceStage?
    var semiMT: SemiMTStage?
    var palmWobble: PalmWobbleStage?
    var palm: PalmStage?
    var thumb: ThumbStage?
    var edgeBand: EdgeBandStage?
    var landingHold: LandingHoldStage?
    var clickFinger: ClickFingerStage?
    var fakeFinger: FakeFingerStage?
    var tapGuard: TapGuardStage?
    var jitter: JitterStage?

    /// Every stage's ``TouchFilterStage/begin(_:)``, in order.
    mutating func begin(_ frame: inout FilterFrame) {
        liftDebounce?.begin(&frame)
        semiMT?.begin(&frame)
        palmWobble?.begin(&frame)
        palm?.begin(&frame)
        thumb?.begin(&frame)
        edgeBand?.begin(&frame)
        landingHold?.begin(&frame)
        clickFinger?.begin(&frame)
        fakeFinger?.begin(&frame)
        tapGuard?.begin(&frame)
        jitter?.begin(&frame)
    }

    /// One touch through every stage's ``TouchFilterStage/process(_:in:)``, in order.
    mutating func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        liftDebounce?.process(&step, in: &frame)
        semiMT?.process(&step, in: &frame)
        palmWobble?.process(&step, in: &frame)
        palm?.process(&step, in: &frame)
        thumb?.process(&step, in: &frame)
        edgeBand?.process(&step, in: &frame)
        landingHold?.process(&step, in: &frame)
        clickFinger?.process(&step, in: &frame)
        fakeFinger?.process(&step, in: &frame)
        tapGuard?.process(&step, in: &frame)
        jitter?.process(&step, in: &frame)
    }

    /// Every stage's ``TouchFilterStage/end(_:)``, in order.
    mutating func end(_ frame: inout FilterFrame) {
        liftDebounce?.end(&frame)
        semiMT?.end(&frame)
        palmWobble?.end(&frame)
        palm?.end(&frame)
        thumb?.end(&frame)
        edgeBand?.end(&frame)
        landingHold?.end(&frame)
        clickFinger?.end(&frame)
        fakeFinger?.end(&frame)
        tapGuard?.end(&frame)
        jitter?.end(&frame)
    }

    /// Every stage's ``TouchFilterStage/fire(_:)``, in order.
    mutating func fire(_ frame: inout FilterFrame) {
        liftDebounce?.fire(&frame)
        semiMT?.fire(&frame)
        palmWobble?.fire(&frame)
        palm?.fire(&frame)
        thumb?.fire(&frame)
        edgeBand?.fire(&frame)
        landingHold?.fire(&frame)
        clickFinger?.fire(&frame)
        fakeFinger?.fire(&frame)
        tapGuard?.fire(&frame)
        jitter?.fire(&frame)
    }

    /// The earliest of the stages' deadlines; nil when no stage waits for time.
    func nextDeadline(_ table: ContactTable) -> Timestamp? {
        var earliest: Timestamp?
        func include(_ deadline: Timestamp?) {
            guard let deadline else { return }
            earliest = min(earliest ?? deadline, deadline)
        }
        include(liftDebounce?.nextDeadline(table))
        include(semiMT?.nextDeadline(table))
        include(palmWobble?.nextDeadline(table))
        include(palm?.nextDeadline(table))
        include(thumb?.nextDeadline(table))
        include(edgeBand?.nextDeadline(table))
        include(landingHold?.nextDeadline(table))
        include(clickFinger?.nextDeadline(table))
        include(fakeFinger?.nextDeadline(table))
        include(tapGuard?.nextDeadline(table))
        include(jitter?.nextDeadline(table))
        return earliest
    }

    /// Every stage's ``TouchFilterStage/reset()``.
    mutating func reset() {
        liftDebounce?.reset()
        semiMT?.reset()
        palmWobble?.reset()
        palm?.reset()
        thumb?.reset()
        edgeBand?.reset()
        landingHold?.reset()
        clickFinger?.reset()
        fakeFinger?.reset()
        tapGuard?.reset()
        jitter?.reset()
    }
}
