/// Tap, discrete (spec §4.1): `numberOfTapsRequired` taps of `numberOfTouchesRequired` fingers.
///
/// States of the attempt (``Phase``):
///
/// | Phase | Event | Next |
/// |---|---|---|
/// | waiting | first finger down | touching (tapTimer = maximumTapDuration) |
/// | touching | too many fingers / moved too far / timer | fail |
/// | touching | a finger lifts marked no tap (``TouchFlags/noTap``) | fail |
/// | touching | last finger up, taps done < required | between (tapTimer = interval) |
/// | touching | last finger up, taps done = required | recognized |
/// | between | first finger down | touching |
/// | between | timer | fail |
struct TapRecognizer: CustomRecognizer {
    enum Phase: Sendable, Hashable {
        case waiting
        case touching
        case between
    }

    static let tapTimer = 0
    static let multitouchTimer = 1

    let parameters: TapParameters
    private(set) var phase = Phase.waiting
    private var active = TrackedTouches()
    /// The touches at the moment the required count was down in the current tap.
    private var snapshot = TrackedTouches()
    private var firstSnapshotCount = 0
    private(set) var tapsDone = 0
    private var tapTouchCount = 0
    private var startPoint: PhysicalPoint?
    private var tapStartTime = Timestamp.zero

    init(parameters: TapParameters) {
        self.parameters = parameters
    }

    var kind: GestureKind { .tap }
    var isDiscrete: Bool { true }

    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        let wasEmpty = active.isEmpty
        for touch in touches { active.add(touch) }
        tapStartTime = context.now
        if active.count > parameters.numberOfTouchesRequired {
            context.fail()
            return
        }
        if parameters.allowableSeparation.isFinite, active.count > 1 {
            var minX = Double.infinity
            var minY = Double.infinity
            var maxX = -Double.infinity
            var maxY = -Double.infinity
            for p in active.positions {
                minX = min(minX, p.x)
                minY = min(minY, p.y)
                maxX = max(maxX, p.x)
                maxY = max(maxY, p.y)
            }
            let diagonal = PhysicalPoint(x: maxX - minX, y: maxY - minY).length
            if diagonal > parameters.allowableSeparation * context.sloppiness {
                context.fail()
                return
            }
        }
        if wasEmpty {
            switch phase {
            case .waiting, .between:
                phase = .touching
                context.schedule(Self.tapTimer, after: parameters.maximumTapDuration)
                let separation = parameters.allowableTouchTimeSeparation ?? parameters.maximumTapDuration
                if parameters.numberOfTouchesRequired >= 2, separation < parameters.maximumTapDuration {
                    context.schedule(Self.multitouchTimer, after: separation)
                }
            case .touching:
                // Fingers came and went one by one within a tap: judged at the lift.
                break
            }
        } else if parameters.restartsTimerOnLanding && phase == .touching {
            context.schedule(Self.tapTimer, after: parameters.maximumTapDuration)
        }
        tapTouchCount = active.count
        if active.count == parameters.numberOfTouchesRequired {
            snapshot.assign(active)
            context.cancelTimer(Self.multitouchTimer)
            let c = snapshot.centroid
            if tapsDone == 0 {
                startPoint = c
                firstSnapshotCount = snapshot.count
            } else if let start = startPoint, c.distance(to: start) > parameters.allowableMovement * context.sloppiness
            {
                context.fail()
            }
        }
    }

    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        for touch in touches {
            active.update(touch)
            snapshot.update(touch)
        }
        guard let start = startPoint, !snapshot.isEmpty else { return }
        if snapshot.centroid.distance(to: start) > parameters.allowableMovement * context.sloppiness {
            context.fail()
        }
    }

    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        // The touch filter says this lift is no tap (a click, a brush after a scroll…).
        if touches.contains(where: { $0.flags.noTap != nil }) {
            for touch in touches { active.remove(touch.id) }
            context.fail()
            return
        }
        for touch in touches {
            snapshot.update(touch)
            active.remove(touch.id)
        }
        if tapTouchCount != parameters.numberOfTouchesRequired {
            context.fail()
            return
        }
        guard active.isEmpty else { return }
        guard context.now - tapStartTime >= parameters.minimumTapDuration else {
            context.fail()
            return
        }
        tapsDone += 1
        context.cancelTimer(Self.tapTimer)
        context.cancelTimer(Self.multitouchTimer)
        if tapsDone >= parameters.numberOfTapsRequired {
            context.request(.ended)
        } else {
            phase = .between
            tapTouchCount = 0
            snapshot.removeAll()
            context.schedule(Self.tapTimer, after: parameters.maximumIntervalBetweenTaps)
        }
    }

    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        for touch in touches { active.remove(touch.id) }
        context.fail()
    }

    mutating func timerFired(_ token: Int, context: inout RecognizerContext) {
        if token == Self.tapTimer {
            context.fail()
        } else if token == Self.multitouchTimer, tapTouchCount < parameters.numberOfTouchesRequired {
            context.fail()
        }
    }

    mutating func reset() {
        phase = .waiting
        active.removeAll()
        snapshot.removeAll()
        firstSnapshotCount = 0
        tapsDone = 0
        tapTouchCount = 0
        startPoint = nil
    }

    func values(at now: Timestamp) -> GestureValues {
        GestureValues(
            fingers: firstSnapshotCount > 0 ? firstSnapshotCount : active.count,
            location: startPoint ?? active.centroid,
            taps: tapsDone
        )
    }

    /// UIKit: a tap never prevents a tap with the same finger count and more taps, nor a long
    /// press with the same finger count and at least as many taps (spec §4.1).
    func canPrevent(_ other: RecognizerKind) -> Bool {
        switch other {
        case .tap(let p):
            return
                !(p.numberOfTouchesRequired == parameters.numberOfTouchesRequired
                && p.numberOfTapsRequired > parameters.numberOfTapsRequired)
        case .longPress(let p):
            return
                !(p.numberOfTouchesRequired == parameters.numberOfTouchesRequired
                && p.numberOfTapsRequired >= parameters.numberOfTapsRequired)
        case .pan, .swipe, .pinch, .rotation, .edgePan, .tickle, .custom:
            return true
        }
    }
}
