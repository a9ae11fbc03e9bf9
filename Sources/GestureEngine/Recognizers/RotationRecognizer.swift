/// Rotation, continuous (spec §4.7): angle of the two earliest active touches, unwrapped,
/// with an angle hysteresis that grows with the stretch between the fingers.
///
/// | State | Event | Next |
/// |---|---|---|
/// | any | active count becomes the required count | pair forms (a0 re-based so rotation continues) |
/// | possible | |a − a0| > 5° + 5°·√min(|Δd|/d, 1), fingers moving more together than apart | re-based (a0 = a), stays possible |
/// | possible | |a − a0| > 5° + 5°·√min(|Δd|/d, 1) | began (a0 shifted by the threshold) |
/// | began/changed | move with the pair | changed |
/// | began/changed | last touch lifted / cancelled | ended / cancelled |
/// | possible | last touch lifted | fail |
struct RotationRecognizer: CustomRecognizer {
    let parameters: RotationParameters
    private var held = TrackedTouches()
    private var isPaired = false
    /// When the pair last formed.
    private var pairedAt = Timestamp.zero
    private var hasReference = false
    private var pairDistance = 0.0
    private var a0 = 0.0
    /// Unwrapped current angle and the last raw angle (radians).
    private var unwrapped = 0.0
    private var lastRaw = 0.0
    private(set) var rotation = 0.0
    private var velocity = 0.0
    private var lastTime = Timestamp.zero
    private var anchor = PhysicalPoint.zero

    init(parameters: RotationParameters) {
        self.parameters = parameters
    }

    var kind: GestureKind { .rotation }
    var isDiscrete: Bool { false }

    private var required: Int { max(parameters.numberOfTouchesRequired, 2) }

    private var rawAngle: Double {
        let p0 = held.positions[0]
        let p1 = held.positions[1]
        return atan2Approx(p1.y - p0.y, p1.x - p0.x)
    }

    private mutating func formPairIfPossible(now: Timestamp) {
        isPaired = false
        guard held.count == required else { return }
        let d = held.positions[0].distance(to: held.positions[1])
        guard d > 1e-3 else { return }
        pairDistance = d
        let a = rawAngle
        if hasReference {
            // Keep the rotation reported so far: move the reference by the jump of the angle.
            a0 += a - unwrapped
        } else {
            a0 = a
            hasReference = true
        }
        unwrapped = a
        lastRaw = a
        lastTime = now
        pairedAt = now
        held.restartMotion()
        isPaired = true
    }

    /// The angle threshold for the current stretch, radians.
    var threshold: Double {
        guard held.count >= 2, pairDistance > 0 else { return parameters.angleHysteresis }
        let d = held.positions[0].distance(to: held.positions[1])
        let stretch = min(abs(d - pairDistance) / pairDistance, 1)
        return parameters.angleHysteresis + parameters.angleHysteresis * stretch.squareRoot()
    }

    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        for touch in touches { held.add(touch) }
        formPairIfPossible(now: context.now)
    }

    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        var moved = false
        for touch in touches where held.update(touch) { moved = true }
        guard moved, held.count == required else { return }
        // Motion in the frame the pair formed belongs to the landing (a finger that moved as
        // the other landed was delivered after it): the pair forms again with it.
        if !isPaired || context.now == pairedAt {
            formPairIfPossible(now: context.now)
            return
        }
        let raw = rawAngle
        unwrapped += wrapAngle(raw - lastRaw)
        lastRaw = raw
        anchor = held.centroid
        switch context.state {
        case .possible:
            let theta = threshold
            let delta = unwrapped - a0
            if abs(delta) > theta {
                if parameters.ignoresTranslation && held.isTranslationDominant {
                    // The pair tilted while moving along: a lagging finger, not a turn.
                    // Measure the turn afresh from here.
                    a0 = unwrapped
                    pairDistance = held.positions[0].distance(to: held.positions[1])
                    held.restartMotion()
                    return
                }
                if parameters.ignoresTranslation
                    && held.hasJustLandedStillTouch(
                        now: context.now,
                        window: context.settlingWindow,
                        minimum: TrackedTouches.anchorMotion
                    )
                {
                    // A finger still since it landed a moment ago may be about to follow
                    // the other: wait for it before taking it as an anchor.
                    return
                }
                a0 += delta > 0 ? theta : -theta
                rotation = unwrapped - a0
                lastTime = context.now
                context.request(.began)
            }
        case .began, .changed:
            let newRotation = unwrapped - a0
            let dt = context.now - lastTime
            if dt > 0 {
                velocity = (newRotation - rotation) / dt
                lastTime = context.now
            }
            rotation = newRotation
            context.request(.changed)
        case .ended, .cancelled, .failed:
            break
        }
    }

    private mutating func remove(_ touches: [Touch], ended: Bool, context: inout RecognizerContext) {
        var removed = false
        for touch in touches where held.remove(touch.id) { removed = true }
        guard removed else { return }
        if held.isEmpty {
            context.finishAfterLastTouch(ended: ended)
            return
        }
        formPairIfPossible(now: context.now)
    }

    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        remove(touches, ended: true, context: &context)
    }

    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        remove(touches, ended: false, context: &context)
    }

    mutating func reset() {
        held.removeAll()
        isPaired = false
        hasReference = false
        pairDistance = 0
        a0 = 0
        unwrapped = 0
        lastRaw = 0
        rotation = 0
        velocity = 0
        anchor = .zero
    }

    func values(at now: Timestamp) -> GestureValues {
        GestureValues(
            fingers: held.count,
            location: held.isEmpty ? anchor : held.centroid,
            rotation: rotation,
            scalarVelocity: velocity
        )
    }
}
