/// Swipe, discrete (spec §4.5): every required touch travels far enough along an allowed
/// axis within the decaying bounds before `maximumDuration` runs out.
///
/// | State | Event | Next |
/// |---|---|---|
/// | possible | more touches than required / lift / cancel / duration timer | fail |
/// | possible | some touch rejects (wrong way, too far sideways, too far) | fail |
/// | possible | every touch accepts | recognized |
struct SwipeRecognizer: CustomRecognizer {
    static let durationTimer = 0

    /// An axis the direction mask enables.
    enum Axis: Sendable, Hashable, CaseIterable {
        case horizontal
        case vertical
    }

    let parameters: SwipeParameters
    private var held = TrackedTouches()
    private var startTime = Timestamp.zero
    private var lastMoveTime = Timestamp.zero
    private var startCentroid = PhysicalPoint.zero
    /// The centroid's last two steps over the time they took, mm/s (no step yet: nil), for
    /// the velocity reported at recognition (the pan's 0.2/0.8 filter, spec §4.3).
    private var currentVelocity: PhysicalPoint?
    private var previousVelocity: PhysicalPoint?
    private(set) var recognizedDirection: Direction?
    /// `parameters.directions` as flags (left, right, up, down), read on every judged move
    /// without hashing a `Set` of `String`-backed directions.
    private let allows: DirectionFlags

    struct DirectionFlags: Sendable, Hashable {
        var left: Bool
        var right: Bool
        var up: Bool
        var down: Bool
    }

    init(parameters: SwipeParameters) {
        self.parameters = parameters
        let d = parameters.directions
        allows = DirectionFlags(left: d.contains(.left), right: d.contains(.right), up: d.contains(.up), down: d.contains(.down))
    }

    var kind: GestureKind { .swipe }
    var isDiscrete: Bool { true }

    func isEnabled(_ axis: Axis) -> Bool {
        switch axis {
        case .horizontal: allows.left || allows.right
        case .vertical: allows.up || allows.down
        }
    }

    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        for touch in touches { held.add(touch) }
        if held.count > parameters.numberOfTouchesRequired {
            context.fail()
            return
        }
        // Spec §4.5: the centroid of the held touches at the latest touch-down.
        startCentroid = held.centroid
        startTime = context.now
        lastMoveTime = context.now
        // A touch-down moves the centroid without motion: velocity is measured from here.
        currentVelocity = nil
        previousVelocity = nil
        context.schedule(Self.durationTimer, after: parameters.maximumDuration)
    }

    enum Verdict {
        case accept
        case reject
        case undecided
    }

    /// Judges displacement `d` (mm) along `axis` with primary speed `speed` (mm/s; nil = unknown).
    func judge(
        _ d: PhysicalPoint,
        axis: Axis,
        speed: Double?,
        minP: Double,
        maxP: Double,
        minS: Double,
        maxS: Double
    ) -> Verdict {
        let p: Double
        let q: Double
        let allowsPositive: Bool
        let allowsNegative: Bool
        switch axis {
        case .horizontal:
            (p, q, allowsPositive, allowsNegative) = (d.x, d.y, allows.right, allows.left)
        case .vertical:
            (p, q, allowsPositive, allowsNegative) = (d.y, d.x, allows.down, allows.up)
        }
        let tolerance = parameters.wrongDirectionTolerance
        if allowsPositive, !allowsNegative, p < -tolerance { return .reject }
        if allowsNegative, !allowsPositive, p > tolerance { return .reject }
        if abs(p) > maxP || abs(q) > maxS { return .reject }
        let rightWay = (p > 0 && allowsPositive) || (p < 0 && allowsNegative)
        guard rightWay, abs(p) >= minP, abs(q) >= minS else { return .undecided }
        if parameters.minimumPrimarySpeed > 0 {
            guard let speed, speed >= parameters.minimumPrimarySpeed else { return .undecided }
        }
        return .accept
    }

    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        let centroidBefore = held.centroid
        var moved = false
        for touch in touches where held.update(touch) { moved = true }
        guard moved else { return }
        let t = context.now - startTime
        let dt = context.now - lastMoveTime
        lastMoveTime = context.now
        if dt > 0 {
            previousVelocity = currentVelocity
            currentVelocity = (held.centroid - centroidBefore) / dt
        }
        if t > parameters.maximumDuration {
            context.fail()
            return
        }
        guard held.count == parameters.numberOfTouchesRequired else { return }
        let f = min(t, 0.5)
        let kmin = 1 - f * (1 - parameters.rateOfMinimumMovementDecay)
        let kmax = 1 - f * (1 - parameters.rateOfMaximumMovementDecay)
        let minP = parameters.minimumPrimaryMovement * kmin
        let maxP = parameters.maximumPrimaryMovement * kmax
        let minS = parameters.minimumSecondaryMovement * kmin
        let maxS = parameters.maximumSecondaryMovement * kmax
        // Per axis: does every touch accept it?
        var horizontalByAll = isEnabled(.horizontal)
        var verticalByAll = isEnabled(.vertical)
        var allAccept = true
        for i in held.ids.indices {
            let d = held.positions[i] - held.starts[i]
            var touchAccepts = false
            var touchRejectsAll = true
            for axis in Axis.allCases where isEnabled(axis) {
                var speed: Double?
                if dt > 0, let touch = touches.first(where: { $0.id == held.ids[i] }) {
                    let step = touch.position - touch.previousPosition
                    speed = abs(axis == .horizontal ? step.x : step.y) / dt
                }
                switch judge(d, axis: axis, speed: speed, minP: minP, maxP: maxP, minS: minS, maxS: maxS) {
                case .accept:
                    touchAccepts = true
                    touchRejectsAll = false
                case .reject:
                    if axis == .horizontal { horizontalByAll = false } else { verticalByAll = false }
                case .undecided:
                    touchRejectsAll = false
                    if axis == .horizontal { horizontalByAll = false } else { verticalByAll = false }
                }
            }
            if touchRejectsAll {
                context.fail()
                return
            }
            if !touchAccepts { allAccept = false }
        }
        guard allAccept else { return }
        let mean = held.centroid - held.startCentroid
        let axis: Axis
        if horizontalByAll, verticalByAll {
            axis = abs(mean.x) >= abs(mean.y) ? .horizontal : .vertical
        } else if verticalByAll {
            axis = .vertical
        } else {
            axis = .horizontal
        }
        switch axis {
        case .horizontal: recognizedDirection = mean.x < 0 ? .left : .right
        case .vertical: recognizedDirection = mean.y < 0 ? .up : .down
        }
        context.cancelTimer(Self.durationTimer)
        context.request(.ended)
    }

    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        for touch in touches { held.remove(touch.id) }
        context.fail()
    }

    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        for touch in touches { held.remove(touch.id) }
        context.fail()
    }

    mutating func timerFired(_ token: Int, context: inout RecognizerContext) {
        if token == Self.durationTimer, context.state == .possible { context.fail() }
    }

    mutating func reset() {
        held.removeAll()
        recognizedDirection = nil
        startCentroid = .zero
        currentVelocity = nil
        previousVelocity = nil
    }

    /// The centroid's velocity at the latest move, mm/s: 0.2·latest step + 0.8·the step
    /// before, as the pan filters it (zero before any motion).
    var velocity: PhysicalPoint {
        guard let currentVelocity else { return .zero }
        guard let previousVelocity else { return currentVelocity }
        return currentVelocity * 0.2 + previousVelocity * 0.8
    }

    func values(at now: Timestamp) -> GestureValues {
        GestureValues(
            fingers: held.count,
            location: startCentroid,
            direction: recognizedDirection,
            translation: held.isEmpty ? nil : held.centroid - held.startCentroid,
            velocity: held.isEmpty ? nil : velocity
        )
    }
}
