/// Scripts for the common gestures. Positions are ``SurfacePoint``s (mm or fractions of the
/// surface), distances millimetres, durations and times seconds, angles radians (positive =
/// clockwise on the surface, spec §0.1). Several fingers lie side by side in a row along x,
/// as a hand's fingers lie, whatever the direction they move in (``fingerSpacing(for:)``).
extension GestureSynthesizer {
    /// Distance between neighbouring fingertips of a multi-finger gesture, mm, on a surface
    /// wide enough for it.
    public static let fingerSpacingMillimeters = 15.0

    /// The distance between neighbouring fingers of `count` (mm): ``fingerSpacingMillimeters``,
    /// closer on a narrow surface so that the row takes at most half its width (a hand
    /// squeezes its fingers together on a small pad; the stress set's hand, `StressScript`,
    /// is laid out the same way). A four-finger row is 45 mm on a pad 90 mm or wider, 34.5 mm
    /// on libinput's 69 mm fallback size.
    public func fingerSpacing(for count: Int) -> Double {
        guard count > 1, width > 0 else { return Self.fingerSpacingMillimeters }
        return Swift.min(Self.fingerSpacingMillimeters, 0.5 * width / Double(count - 1))
    }

    /// Fingers down and up without moving.
    public func tap(fingers: Int = 1, at point: SurfacePoint = .center, duration: Double = 0.05) -> GestureScript {
        hold(fingers: fingers, at: point, duration: duration)
    }

    /// Two taps `interval` seconds apart (lift to touch-down).
    public func doubleTap(fingers: Int = 1, at point: SurfacePoint = .center, interval: Double = 0.15) -> GestureScript
    {
        tap(fingers: fingers, at: point).followed(by: tap(fingers: fingers, at: point), after: interval)
    }

    /// Fingers held still for `duration` seconds.
    public func longPress(fingers: Int = 1, at point: SurfacePoint = .center, duration: Double = 0.8) -> GestureScript {
        hold(fingers: fingers, at: point, duration: duration)
    }

    /// Fingers moving `distance` mm in `direction` over `duration` seconds, starting around
    /// `start` (default: placed so that the swipe is centred on the surface).
    public func swipe(
        fingers: Int = 1,
        direction: Direction,
        distance: Double = 40,
        duration: Double = 0.25,
        from start: SurfacePoint? = nil
    ) -> GestureScript {
        let vector = Self.unitVector(direction) * distance
        let origin = start.map(millimeters) ?? (millimeters(.center) - vector / 2)
        return move(fingers: fingers, from: origin, by: vector, duration: duration, settle: 0.02)
    }

    /// Fingers placed at `from` and moved to `to` over `duration` seconds, after resting
    /// `hold` seconds (a drag, or a pan when `hold` is 0).
    public func drag(
        fingers: Int = 1,
        from start: SurfacePoint,
        to end: SurfacePoint,
        duration: Double = 0.5,
        hold: Double = 0
    ) -> GestureScript {
        let origin = millimeters(start)
        return move(fingers: fingers, from: origin, by: millimeters(end) - origin, duration: duration, settle: hold)
    }

    /// Two (or more) fingers on a circle of diameter `span` mm around `center`, spreading to
    /// `span × scale` over `duration` seconds (`scale` < 1 pinches in, > 1 pinches out).
    public func pinch(
        scale: Double,
        fingers: Int = 2,
        at center: SurfacePoint = .center,
        span: Double = 40,
        duration: Double = 0.5
    ) -> GestureScript {
        circular(
            fingers: fingers,
            at: center,
            startRadius: span / 2,
            endRadius: span * scale / 2,
            angle: 0,
            duration: duration
        )
    }

    /// Two (or more) fingers `span` mm apart turning by `angle` radians (positive clockwise)
    /// around `center` over `duration` seconds.
    public func rotation(
        angle: Double,
        fingers: Int = 2,
        at center: SurfacePoint = .center,
        span: Double = 40,
        duration: Double = 0.6
    ) -> GestureScript {
        circular(
            fingers: fingers,
            at: center,
            startRadius: span / 2,
            endRadius: span / 2,
            angle: angle,
            duration: duration
        )
    }

    /// Fingers starting 0.5 mm inside `edge`, halfway along it, moving `distance` mm inwards.
    public func edgeSwipe(from edge: Edge, fingers: Int = 1, distance: Double = 30, duration: Double = 0.25)
        -> GestureScript
    {
        let inset = 0.5
        let start: PhysicalPoint
        let direction: Direction
        switch edge {
        case .left:
            start = PhysicalPoint(x: inset, y: height / 2)
            direction = .right
        case .right:
            start = PhysicalPoint(x: width - inset, y: height / 2)
            direction = .left
        case .top:
            start = PhysicalPoint(x: width / 2, y: inset)
            direction = .down
        case .bottom:
            start = PhysicalPoint(x: width / 2, y: height - inset)
            direction = .up
        }
        return move(
            fingers: fingers,
            from: start,
            by: Self.unitVector(direction) * distance,
            duration: duration,
            settle: 0
        )
    }

    // MARK: - Building blocks

    private func hold(fingers: Int, at point: SurfacePoint, duration: Double) -> GestureScript {
        let positions = layout(fingers: fingers, around: millimeters(point))
        return GestureScript(
            strokes: positions.map { p in
                GestureScript.Stroke(keyframes: [.init(time: 0, position: p), .init(time: duration, position: p)])
            }
        )
    }

    /// Fingers centred on `origin`, resting `settle` s, then moving by `vector` over `duration` s.
    /// The row lies along x for every direction: a horizontal swipe's fingers follow one
    /// another, as a hand's do (a column across the motion, 45 mm tall for four fingers, put
    /// the lowest finger of a swipe on a 58 mm pad in its clickpad button area).
    private func move(
        fingers: Int,
        from origin: PhysicalPoint,
        by vector: PhysicalPoint,
        duration: Double,
        settle: Double
    )
        -> GestureScript
    {
        let positions = layout(fingers: fingers, around: origin)
        let steps = Swift.max(2, Int((duration / frameInterval).rounded()))
        return GestureScript(
            strokes: positions.map { start in
                var keyframes = [GestureScript.Keyframe(time: 0, position: start)]
                for step in 0...steps {
                    let fraction = Double(step) / Double(steps)
                    keyframes.append(.init(time: settle + duration * fraction, position: start + vector * fraction))
                }
                return GestureScript.Stroke(keyframes: keyframes)
            }
        )
    }

    /// Fingers evenly spaced on a circle whose radius and angle change linearly.
    private func circular(
        fingers: Int,
        at center: SurfacePoint,
        startRadius: Double,
        endRadius: Double,
        angle: Double,
        duration: Double
    ) -> GestureScript {
        let middle = millimeters(center)
        let count = Swift.max(2, fingers)
        let steps = Swift.max(2, Int((duration / frameInterval).rounded()))
        let settle = 0.02
        return GestureScript(
            strokes: (0..<count).map { finger in
                let base = Double(finger) * 2 * Double.pi / Double(count) + Double.pi  // first finger on the left
                var keyframes: [GestureScript.Keyframe] = []
                for step in 0...steps {
                    let fraction = Double(step) / Double(steps)
                    let radius = startRadius + (endRadius - startRadius) * fraction
                    let theta = base + angle * fraction
                    let position = middle + PhysicalPoint(x: EngineMath.cosine(theta), y: EngineMath.sine(theta)) * radius
                    if step == 0 { keyframes.append(.init(time: 0, position: position)) }
                    keyframes.append(.init(time: settle + duration * fraction, position: position))
                }
                return GestureScript.Stroke(keyframes: keyframes)
            }
        )
    }

    /// `count` points in a row along x centred on `center`, ``fingerSpacing(for:)`` apart.
    private func layout(fingers count: Int, around center: PhysicalPoint) -> [PhysicalPoint] {
        let n = Swift.max(1, count)
        let spacing = fingerSpacing(for: n)
        return (0..<n).map { i in
            center + PhysicalPoint(x: (Double(i) - Double(n - 1) / 2) * spacing, y: 0)
        }
    }

    private static func unitVector(_ direction: Direction) -> PhysicalPoint {
        switch direction {
        case .left: PhysicalPoint(x: -1, y: 0)
        case .right: PhysicalPoint(x: 1, y: 0)
        case .up: PhysicalPoint(x: 0, y: -1)
        case .down: PhysicalPoint(x: 0, y: 1)
        }
    }
}
