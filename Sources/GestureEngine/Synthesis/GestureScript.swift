/// Scripted finger paths: what each finger does and when, in millimetres and seconds.
///
/// A script is the input of ``GestureSynthesizer/events(for:startingAt:)``. Times are seconds
/// from the start of the script; positions are millimetres from the surface origin (top-left,
/// spec §0.1). Between keyframes a finger moves in a straight line at constant speed.
public struct GestureScript: Hashable, Sendable {
    /// A finger's position at a moment.
    public struct Keyframe: Hashable, Sendable {
        /// Seconds from the start of the script.
        public var time: Double
        /// Millimetres from the surface origin.
        public var position: PhysicalPoint

        public init(time: Double, position: PhysicalPoint) {
            self.time = time
            self.position = position
        }
    }

    /// One finger from touch-down (first keyframe) to lift (last keyframe).
    public struct Stroke: Hashable, Sendable {
        /// At least one keyframe, in time order.
        public var keyframes: [Keyframe]
        /// The tool the device reports (`ABS_MT_TOOL_TYPE`, when the device has that axis).
        public var toolType: ToolType

        public init(keyframes: [Keyframe], toolType: ToolType = .finger) {
            precondition(!keyframes.isEmpty, "a stroke needs at least one keyframe")
            self.keyframes = keyframes.sorted { $0.time < $1.time }
            self.toolType = toolType
        }

        /// Touch-down time, seconds.
        public var down: Double { keyframes[0].time }
        /// Lift time, seconds.
        public var up: Double { keyframes[keyframes.count - 1].time }

        /// The position at `time` (clamped to the stroke's span).
        public func position(at time: Double) -> PhysicalPoint {
            if time <= down { return keyframes[0].position }
            if time >= up { return keyframes[keyframes.count - 1].position }
            var low = 0
            var high = keyframes.count - 1
            while high - low > 1 {
                let middle = (low + high) / 2
                if keyframes[middle].time <= time { low = middle } else { high = middle }
            }
            let a = keyframes[low]
            let b = keyframes[high]
            let span = b.time - a.time
            guard span > 0 else { return b.position }
            return a.position + (b.position - a.position) * ((time - a.time) / span)
        }

        /// The same stroke `seconds` later.
        public func shifted(by seconds: Double) -> Stroke {
            Stroke(
                keyframes: keyframes.map { Keyframe(time: $0.time + seconds, position: $0.position) },
                toolType: toolType
            )
        }
    }

    /// Every finger of the script, in any order.
    public var strokes: [Stroke]

    public init(strokes: [Stroke] = []) {
        self.strokes = strokes
    }

    /// The time of the last lift, seconds (0 for an empty script).
    public var duration: Double { strokes.map(\.up).max() ?? 0 }

    /// This script, then `next` starting `gap` seconds after this one's last lift.
    public func followed(by next: GestureScript, after gap: Double = 0.5) -> GestureScript {
        let offset = duration + gap
        return GestureScript(strokes: strokes + next.strokes.map { $0.shifted(by: offset) })
    }

    /// Both scripts at once (e.g. a resting thumb during a swipe).
    public func combined(with other: GestureScript) -> GestureScript {
        GestureScript(strokes: strokes + other.strokes)
    }

    /// This script with its strokes landing one after another: stroke k (in script order) is
    /// shifted `k × landing` seconds later as a whole (it lands, moves and lifts that much
    /// behind the first, a lagging finger), then rests where it stopped for a further
    /// `k × lift` seconds before lifting.
    public func staggered(landing: Double, lift: Double = 0) -> GestureScript {
        GestureScript(
            strokes: strokes.enumerated().map { k, stroke in
                var s = stroke.shifted(by: Double(k) * landing)
                if lift > 0 {
                    let last = s.keyframes[s.keyframes.count - 1]
                    s.keyframes.append(Keyframe(time: last.time + Double(k) * lift, position: last.position))
                }
                return s
            }
        )
    }

    /// A sequence of scripts, each `gap` seconds after the previous one's last lift.
    public static func sequence(_ scripts: [GestureScript], gap: Double = 0.5) -> GestureScript {
        guard var result = scripts.first else { return GestureScript() }
        for script in scripts.dropFirst() { result = result.followed(by: script, after: gap) }
        return result
    }
}

/// A place on the surface, in millimetres or as fractions of its width and height.
public enum SurfacePoint: Hashable, Sendable {
    /// Millimetres from the surface origin (top-left).
    case millimeters(x: Double, y: Double)
    /// Fractions (0…1) of the surface's width and height.
    case fraction(x: Double, y: Double)

    /// The middle of the surface.
    public static let center = SurfacePoint.fraction(x: 0.5, y: 0.5)
}
