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
        /// How hard the finger presses (`ABS_MT_PRESSURE`, `ABS_PRESSURE`, when the device has them).
        public var pressure: PressureProfile
        /// The contact's touch major (mm), sent at touch-down when the device has that axis;
        /// 8 mm, a fingertip, by default (a palm is 25 mm and more).
        public var touchMajorMillimeters: Double

        public init(
            keyframes: [Keyframe], toolType: ToolType = .finger, pressure: PressureProfile = .medium,
            touchMajorMillimeters: Double = 8
        ) {
            precondition(!keyframes.isEmpty, "a stroke needs at least one keyframe")
            self.keyframes = keyframes.sorted { $0.time < $1.time }
            self.toolType = toolType
            self.pressure = pressure
            self.touchMajorMillimeters = touchMajorMillimeters
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
                toolType: toolType,
                pressure: pressure,
                touchMajorMillimeters: touchMajorMillimeters
            )
        }

        /// The same path, the finger landing `delay` seconds later where the path is then
        /// (at most until 10 ms before the lift) and lifting `lingering` seconds later where
        /// the path ends.
        public func landing(after delay: Double, lifting lingering: Double) -> Stroke {
            let landing = down + Swift.max(0, Swift.min(delay, up - down - 0.01))
            var frames = [Keyframe(time: landing, position: position(at: landing))]
            frames += keyframes.filter { $0.time > landing }
            if lingering > 0 {
                frames.append(Keyframe(time: up + lingering, position: keyframes[keyframes.count - 1].position))
            }
            return Stroke(keyframes: frames, toolType: toolType, pressure: pressure, touchMajorMillimeters: touchMajorMillimeters)
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

    /// The same gesture with its fingers landing one after another, `landing` seconds apart
    /// in the order of ``strokes`` (each joining its path where the path is at that moment),
    /// and lifting `lifting` seconds apart in the same order: how real hands put several
    /// fingers down (0–40 ms apart, issue 12).
    ///
    /// With `lagging`, finger k instead follows its whole path `k × landing` seconds behind
    /// the first (it lands, moves and stops that much later: a finger lagging in motion), then
    /// rests where it stopped for a further `k × lifting` seconds before lifting.
    public func staggered(landing: Double, lifting: Double = 0, lagging: Bool = false) -> GestureScript {
        GestureScript(
            strokes: strokes.enumerated().map { index, stroke in
                let k = Double(index)
                guard lagging else { return stroke.landing(after: k * landing, lifting: k * lifting) }
                var lagged = stroke.shifted(by: k * landing)
                if lifting > 0 {
                    let last = lagged.keyframes[lagged.keyframes.count - 1]
                    lagged.keyframes.append(Keyframe(time: last.time + k * lifting, position: last.position))
                }
                return lagged
            }
        )
    }

    /// Every finger pressing with `profile`.
    public func pressing(_ profile: PressureProfile) -> GestureScript {
        GestureScript(strokes: strokes.map { GestureScript.Stroke(
                    keyframes: $0.keyframes, toolType: $0.toolType, pressure: profile, touchMajorMillimeters: $0.touchMajorMillimeters) })
    }

    /// Every finger's contact `millimeters` across (touch major).
    public func touching(millimeters: Double) -> GestureScript {
        GestureScript(strokes: strokes.map { GestureScript.Stroke(
                    keyframes: $0.keyframes, toolType: $0.toolType, pressure: $0.pressure, touchMajorMillimeters: millimeters) })
    }

    /// Both scripts at once (e.g. a resting thumb during a swipe).
    public func combined(with other: GestureScript) -> GestureScript {
        GestureScript(strokes: strokes + other.strokes)
    }

    /// A sequence of scripts, each `gap` seconds after the previous one's last lift.
    public static func sequence(_ scripts: [GestureScript], gap: Double = 0.5) -> GestureScript {
        guard var result = scripts.first else { return GestureScript() }
        for script in scripts.dropFirst() { result = result.followed(by: script, after: gap) }
        return result
    }
}

/// How hard a finger presses over its stroke, as fractions (0…1) of the device's pressure axis
/// range: `landing` at touch-down, rising (or falling) linearly to `level` over `rise` seconds,
/// then held. Real fingers land light and press harder over the first tens of milliseconds;
/// libinput counts a touch only once its pressure passes a threshold.
public struct PressureProfile: Hashable, Sendable {
    /// The pressure held after the rise.
    public var level: Double
    /// The pressure at touch-down.
    public var landing: Double
    /// Seconds from touch-down to `level` (0: `level` from the start).
    public var rise: Double

    public init(level: Double, landing: Double? = nil, rise: Double = 0) {
        self.level = level
        self.landing = landing ?? level
        self.rise = rise
    }

    /// Half the range, from touch-down to lift (what the synthesizer always sent before).
    public static let medium = PressureProfile(level: 0.5)

    /// A firm finger on a device whose pressure axis is `axis` (nil: none; the level is then
    /// never sent). On an axis that reaches the palm threshold both readers apply by default,
    /// 130 units (libinput's `tp_init_palmdetect_pressure`, "the Synaptics default", and
    /// ``TouchFilterSettings/palmPressure``), pressure is the Synaptics Z scale, absolute in
    /// device units, and a firm finger presses ``firmFingerPressure`` units (not a fraction of
    /// the range: 0.65 of 0…255 is 165, a palm to both). On a smaller axis (0…50 on the HID
    /// pads, contact area there) no finger reaches that threshold and a firm one covers 0.65
    /// of the range, as before.
    public static func firm(on axis: AxisInfo?) -> PressureProfile {
        guard let axis, axis.maximum > axis.minimum, Double(axis.maximum) >= palmPressureScale else {
            return PressureProfile(level: 0.65)
        }
        let units = Swift.min(firmFingerPressure, Double(axis.maximum - axis.minimum))
        return PressureProfile(level: (units + 0.5) / Double(axis.maximum - axis.minimum))
    }

    /// A palm: the whole range, landing at 0.4 of it and pressing fully 30 ms later (the
    /// stress set's resting palm). Pair it with a wide contact (``GestureScript/Stroke/touchMajorMillimeters``
    /// 35 mm) where the device measures size.
    public static let palm = PressureProfile(level: 1, landing: 0.4, rise: 0.03)

    /// Where an axis's maximum makes pressure the Synaptics Z scale: the default palm
    /// threshold, 130 units.
    static let palmPressureScale = 130.0

    /// A firm finger's pressure on the Synaptics Z scale, device units: the 90th percentile of
    /// the fingers' pressure on alex, the corpus's Synaptics 0…255 board (hardware_Trackpad,
    /// the 67 recordings without palm or thumb, 3 943 `ABS_MT_PRESSURE` values: p50 76, p90
    /// 111, p99 122, max 126; the 32 palm and thumb recordings: p50 167). Below both
    /// readers' palm threshold, 130.
    public static let firmFingerPressure = 111.0

    /// The fraction of the range `seconds` after touch-down.
    public func fraction(after seconds: Double) -> Double {
        guard rise > 0, seconds < rise else { return level }
        return landing + (level - landing) * Swift.max(0, seconds) / rise
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
