/// Pinch, continuous (spec §4.6), generalised to `numberOfTouchesRequired` fingers: the span
/// is twice the mean distance from the centroid (for two fingers, their distance).
///
/// | State | Event | Next |
/// |---|---|---|
/// | any | active count becomes the required count | pair forms: d0 = span / scale |
/// | possible | |span − d0·s0| > hysteresis, fingers moving more together than apart | re-based (d0 = span / s0), stays possible |
/// | possible | |span − d0·s0| > hysteresis (and, with requiresOpposingMotion, as much change made by opposing fingers) | began (d0 shifted by the hysteresis) |
/// | began/changed | move with the required count | changed |
/// | began/changed | last touch lifted / cancelled | ended / cancelled |
/// | began/changed | one left and endsOnSingleTouch | ended |
/// | possible | last touch lifted | fail |
struct PinchRecognizer: CustomRecognizer {
    /// Spans below this (mm) cannot anchor a scale; the pair forms at the next move instead.
    static let minimumSpan = 1e-3

    let parameters: PinchParameters
    private var held = TrackedTouches()
    private var isPaired = false
    /// When the pair last formed.
    private var pairedAt = Timestamp.zero
    private var d0 = 1.0
    private var s0 = 1.0
    private(set) var scale = 1.0
    private var lastTime = Timestamp.zero
    private var velocity = 0.0
    private var previousVelocity = 0.0
    private var anchor = PhysicalPoint.zero
    /// Span change (mm) made while the fingers moved apart or together, as opposed to along
    /// with each other: the evidence for a pinch (see `touchesMoved`).
    private var opposingChange = 0.0
    /// Positions and centroid at the previous move, for per-frame increments.
    private var lastPositions: [PhysicalPoint] = []
    private var lastCentroid = PhysicalPoint.zero

    init(parameters: PinchParameters) {
        self.parameters = parameters
    }

    var kind: GestureKind { .pinch }
    var isDiscrete: Bool { false }

    private var required: Int { max(parameters.numberOfTouchesRequired, 2) }

    /// Twice the mean distance from the centroid, as `TrackedTouches.span`.
    static func span(of points: [PhysicalPoint]) -> Double {
        guard !points.isEmpty else { return 0 }
        let cx = points.reduce(0.0) { $0 + $1.x } / Double(points.count)
        let cy = points.reduce(0.0) { $0 + $1.y } / Double(points.count)
        let mean = points.reduce(0.0) { $0 + PhysicalPoint(x: $1.x - cx, y: $1.y - cy).length } / Double(points.count)
        return 2 * mean
    }

    /// Copies the held positions into ``lastPositions`` element by element: assigning the
    /// array would share its buffer, and the next ``TrackedTouches/update(_:)`` would then copy
    /// it (a heap allocation on every frame while possible).
    private mutating func rememberPositions() {
        lastPositions.removeAll(keepingCapacity: true)
        lastPositions.append(contentsOf: held.positions)
    }

    /// How far held touch `index` moved since ``lastPositions`` (mm).
    private func increment(_ index: Int) -> PhysicalPoint {
        PhysicalPoint(x: held.positions[index].x - lastPositions[index].x, y: held.positions[index].y - lastPositions[index].y)
    }

    private mutating func formPairIfPossible(now: Timestamp) {
        isPaired = false
        guard held.count == required else { return }
        let span = held.span
        guard span > Self.minimumSpan else { return }
        s0 = scale
        d0 = span / s0
        anchor = held.centroid
        opposingChange = 0
        rememberPositions()
        lastCentroid = anchor
        lastTime = now
        pairedAt = now
        held.restartMotion()
        isPaired = true
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
        let d = held.span
        anchor = held.centroid
        switch context.state {
        case .possible:
            let h = parameters.hysteresis
            // With requiresOpposingMotion (touchpads, docs/evaluation.md): two scrolling fingers
            // change their distance
            // by more than the hysteresis within the first millimetres, and a finger that
            // settles before a scroll, or moves beside a resting one, changes it too. Only span
            // changes made while every finger moves, two fingers in opposite directions (more
            // fingers: the span changing more than the centroid), count toward a pinch —
            // libinput tells pinch from scroll by the fingers' directions alike.
            if parameters.requiresOpposingMotion && lastPositions.count == held.count {
                let lastSpan = Self.span(of: lastPositions)
                let spanChange = abs(d - lastSpan)
                var everyFingerMoved = true
                for index in lastPositions.indices where !(increment(index).length > 0) {
                    everyFingerMoved = false
                    break
                }
                if everyFingerMoved {
                    let opposing: Bool
                    if lastPositions.count == 2 {
                        let a = increment(0)
                        let b = increment(1)
                        opposing = a.x * b.x + a.y * b.y < 0
                    } else {
                        opposing = spanChange > PhysicalPoint(x: anchor.x - lastCentroid.x, y: anchor.y - lastCentroid.y).length
                    }
                    if opposing { opposingChange += spanChange }
                }
            }
            rememberPositions()
            lastCentroid = anchor
            if abs(d - d0 * s0) > h && (!parameters.requiresOpposingMotion || opposingChange > h) {
                if parameters.ignoresTranslation && held.isTranslationDominant {
                    // The span changed while the fingers moved along together (one lagging
                    // the other): no pinch. Measure the span afresh from here.
                    d0 = d / s0
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
                d0 = d0 * s0 > d ? d0 - h / s0 : d0 + h / s0
                guard d0 > Self.minimumSpan else { return }
                scale = d / d0
                lastTime = context.now
                context.request(.began)
            }
        case .began, .changed:
            let newScale = d / d0
            let dt = context.now - lastTime
            if dt > 0 {
                previousVelocity = velocity
                velocity = (newScale - scale) / dt
                lastTime = context.now
            }
            scale = newScale
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
        if held.count == 1, parameters.endsOnSingleTouch {
            switch context.state {
            case .began, .changed:
                context.request(ended ? .ended : .cancelled)
                return
            case .possible, .ended, .cancelled, .failed:
                break
            }
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
        d0 = 1
        s0 = 1
        scale = 1
        velocity = 0
        previousVelocity = 0
        anchor = .zero
    }

    /// 0.75·previous + 0.25·current when a previous sample exists (spec §4.6), 1/s.
    var reportedVelocity: Double {
        previousVelocity != 0 ? 0.75 * previousVelocity + 0.25 * velocity : velocity
    }

    func values(at now: Timestamp) -> GestureValues {
        GestureValues(
            fingers: held.count,
            location: held.isEmpty ? anchor : held.centroid,
            scale: scale,
            scalarVelocity: reportedVelocity
        )
    }
}
