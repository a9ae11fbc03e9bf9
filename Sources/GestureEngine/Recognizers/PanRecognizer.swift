/// Pan, continuous (spec §4.3): translation of the centroid with per-axis hysteresis,
/// re-based whenever the set of touches changes, and a 0.2/0.8 velocity filter.
///
/// | State | Event | Next |
/// |---|---|---|
/// | possible | touch beyond maximum | fail |
/// | possible | |T.x| ≥ h or |T.y| ≥ h with ≥ minimum touches | began (hysteresis subtracted) |
/// | began/changed | move | changed |
/// | any | touch added or lifted with others remaining | re-base, no emission |
/// | began/changed | last touch lifted / cancelled | ended / cancelled |
/// | possible | last touch lifted | fail |
struct PanRecognizer: CustomRecognizer {
    /// One velocity sample: displacement (mm) over `dt` seconds.
    struct Sample: Sendable, Hashable {
        var displacement: PhysicalPoint
        var dt: Double
        var velocity: PhysicalPoint { displacement / dt }
    }

    let parameters: PanParameters
    private(set) var held = TrackedTouches()
    /// First and last reference points (mm).
    private(set) var first = PhysicalPoint.zero
    private(set) var last = PhysicalPoint.zero
    private var lastTime = Timestamp.zero
    private var current: Sample?
    private var previous: Sample?

    init(parameters: PanParameters) {
        self.parameters = parameters
    }

    var kind: GestureKind { .pan }
    var isDiscrete: Bool { false }

    /// Cumulative translation, zero on a disallowed axis (mm).
    var translation: PhysicalPoint {
        let t = last - first
        return PhysicalPoint(x: parameters.allowsHorizontal ? t.x : 0, y: parameters.allowsVertical ? t.y : 0)
    }

    /// Replaces the translation so that it reads `t` now (UIKit `setTranslation`), clearing the
    /// velocity samples.
    mutating func setTranslation(_ t: PhysicalPoint) {
        first = last - t
        current = nil
        previous = nil
    }

    /// Subtracts `h` from each allowed axis of the translation (spec §4.3 step 2).
    mutating func subtractHysteresis(_ h: Double) {
        let t = last - first
        func shrink(_ v: Double) -> Double {
            let m = max(abs(v) - h, 0)
            return v < 0 ? -m : m
        }
        let reduced = PhysicalPoint(
            x: parameters.allowsHorizontal ? shrink(t.x) : 0,
            y: parameters.allowsVertical ? shrink(t.y) : 0
        )
        first = last - reduced
    }

    private mutating func rebase(from oldCentroid: PhysicalPoint) {
        let delta = held.centroid - oldCentroid
        first += delta
        last += delta
    }

    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        let wasEmpty = held.isEmpty
        let oldCentroid = held.centroid
        for touch in touches {
            if held.count >= parameters.maximumNumberOfTouches {
                switch context.state {
                case .possible:
                    if parameters.failsPastMaxTouches {
                        context.fail()
                        return
                    }
                    context.ignore(touch.id)
                case .began, .changed:
                    context.ignore(touch.id)
                case .ended, .cancelled, .failed:
                    return
                }
            } else {
                held.add(touch)
            }
        }
        if wasEmpty {
            first = held.centroid
            last = first
            lastTime = context.now
        } else {
            rebase(from: oldCentroid)
        }
    }

    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        var moved = false
        for touch in touches where held.update(touch) { moved = true }
        guard moved else { return }
        let c = held.centroid
        let dt = context.now - lastTime
        if dt > 0 {
            previous = current
            current = Sample(displacement: c - last, dt: dt)
            lastTime = context.now
        }
        last = c
        switch context.state {
        case .possible:
            if parameters.tracksOnlyWithMinimumTouches && held.count < parameters.minimumNumberOfTouches {
                first = last
                return
            }
            let t = last - first
            let h = parameters.hysteresis * context.sloppiness
            let passes = (parameters.allowsHorizontal && abs(t.x) >= h) || (parameters.allowsVertical && abs(t.y) >= h)
            if held.count >= parameters.minimumNumberOfTouches, passes {
                subtractHysteresis(h)
                context.request(.began)
            }
        case .began, .changed:
            context.request(.changed)
        case .ended, .cancelled, .failed:
            break
        }
    }

    private mutating func remove(_ touches: [Touch], ended: Bool, context: inout RecognizerContext) {
        // The lifted touches' last positions belong to the old centroid.
        for touch in touches { held.update(touch) }
        let oldCentroid = held.centroid
        var removedAny = false
        for touch in touches where held.remove(touch.id) { removedAny = true }
        guard removedAny else { return }
        if !held.isEmpty {
            rebase(from: oldCentroid)
            return
        }
        context.finishAfterLastTouch(ended: ended)
    }

    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        remove(touches, ended: true, context: &context)
    }

    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        remove(touches, ended: false, context: &context)
    }

    mutating func reset() {
        held.removeAll()
        first = .zero
        last = .zero
        current = nil
        previous = nil
    }

    mutating func willBeginAfterSatisfyingFailureRequirements() {
        first = last
    }

    /// 0.2·current + 0.8·previous sample, zero when stale (spec §4.3), mm/s.
    func velocity(at now: Timestamp) -> PhysicalPoint {
        guard let current, now - lastTime <= parameters.velocityStaleInterval else { return .zero }
        var v = current.velocity
        if let previous { v = v * 0.2 + previous.velocity * 0.8 }
        return PhysicalPoint(x: parameters.allowsHorizontal ? v.x : 0, y: parameters.allowsVertical ? v.y : 0)
    }

    /// The dominant direction of the translation (nil when it is zero).
    var dominantDirection: Direction? {
        let t = translation
        if t.x == 0, t.y == 0 { return nil }
        if abs(t.x) >= abs(t.y) { return t.x < 0 ? .left : .right }
        return t.y < 0 ? .up : .down
    }

    func values(at now: Timestamp) -> GestureValues {
        GestureValues(
            fingers: held.count,
            location: last,
            direction: dominantDirection,
            translation: translation,
            velocity: velocity(at: now)
        )
    }
}
