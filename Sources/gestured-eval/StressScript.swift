import GestureEngine
import GesturedRandom

/// Finger paths of one stress scenario under one variant (docs/evaluation.md, "The stress
/// set"). A hand lays its fingers side by side (18 mm apart on a screen, up to 15 mm on a
/// pad, the middle ones 3 mm higher), whatever the direction it moves in; the gesture is
/// placed in the middle of the surface, away from the edge and thumb bands.
enum StressScript {
    /// Seconds from the start to the first finger (a resting palm lands at 0).
    static let start = 0.3
    /// Seconds fingers rest after the last landing before the hand moves.
    static let settle = 0.03
    /// Seconds between keyframes of a moving finger (the synthesizer interpolates).
    static let step = 0.005

    static func script(_ scenario: StressScenario, _ variant: StressVariant, device: DeviceDescription, kind: DeviceKind, index: Int)
        -> GestureScript
    {
        let width = device.widthMillimeters
        let height = device.heightMillimeters
        let n = scenario.fingers
        var random = SplitMix64(seed: variant.seed &* 31 &+ UInt64(index))
        let landOrder = shuffled(n, &random)
        let liftOrder = shuffled(n, &random)
        let pressureAxis = device.axis(.absMTPressure) ?? device.axis(.absPressure)
        // Devices whose "pressure" is contact area in a small range see a finger cover most
        // of it; 0…255 pressure axes see a finger press a third of it.
        let fingerPressure = pressureAxis.map { $0.maximum - $0.minimum <= 63 ? 0.7 : 0.3 }
        let spacing = kind == .touchscreen ? 18.0 : min(15, 0.5 * width / Double(max(1, n - 1)))
        // The gesture's middle: the centre of a screen; on a pad the middle of the part above
        // the thumb band.
        let middle = PhysicalPoint(x: 0.5 * width, y: kind == .touchpad ? 0.475 * height : 0.5 * height)
        let hand: [PhysicalPoint] = (0..<n).map { i in
            let arc = n >= 3 && i != 0 && i != n - 1 ? -3.0 : 0
            return PhysicalPoint(x: (Double(i) - Double(n - 1) / 2) * spacing, y: arc)
        }
        let landing = (0..<n).map { i in start + Double(landOrder[i]) * variant.landingGap }
        let lastLanding = landing.max() ?? start
        let lifting = (0..<n).map { i in Double(liftOrder[i]) * variant.liftGap }
        let lags = (0..<n).map { i in Double(landOrder[i]) * variant.lag }

        // Finger i at motion progress u (0…1).
        var path: (Int, Double) -> PhysicalPoint
        var duration = 0.0
        var hold = 0.0
        switch scenario.motion {
        case .still(let seconds):
            hold = seconds
            path = { i, _ in middle + hand[i] }
        case .doubleTap:
            let p = middle
            let tap1 = GestureScript.Stroke(keyframes: [.init(time: start, position: p), .init(time: start + 0.06, position: p)])
            let tap2 = GestureScript.Stroke(keyframes: [.init(time: start + 0.21, position: p), .init(time: start + 0.27, position: p)])
            return withPalm(
                repeated(GestureScript(strokes: [profiled(tap1, fingerPressure), profiled(tap2, fingerPressure)]), scenario),
                variant, device, kind)
        case .translate(let direction):
            let horizontal = direction == .left || direction == .right
            let span = (hand.map(\.x).max() ?? 0) - (hand.map(\.x).min() ?? 0)
            let along = horizontal ? width : height
            let room = horizontal ? 0.76 * width - span : 0.6 * height
            let wanted = n == 1 && kind == .touchpad ? 30.0 : (kind == .touchpad ? 35 : 40)
            let distance = max(10, min(wanted, room, 0.5 * along))
            let unit: PhysicalPoint =
                switch direction {
                case .left: PhysicalPoint(x: -1, y: 0)
                case .right: PhysicalPoint(x: 1, y: 0)
                case .up: PhysicalPoint(x: 0, y: -1)
                case .down: PhysicalPoint(x: 0, y: 1)
                }
            let vector = unit * distance
            duration = n == 1 && kind == .touchpad ? 0.5 : 0.25
            path = { i, u in middle - vector / 2 + hand[i] + vector * u }
        case .pinch(let scale):
            let span = min(40, 0.4 * width)
            duration = 0.4
            path = { i, u in
                let radius = span / 2 * (1 + (scale - 1) * u)
                return middle + PhysicalPoint(x: i == 0 ? -radius : radius, y: 0)
            }
        case .rotate(let angle):
            let radius = min(20, 0.2 * width)
            duration = 0.5
            path = { i, u in
                let theta = (i == 0 ? Double.pi : 0) + angle * u
                return middle + PhysicalPoint(x: EngineMath.cosine(theta), y: EngineMath.sine(theta)) * radius
            }
        case .palmAlone:
            return palm(GestureScript(strokes: []), end: start + 1.0, device, kind)
        case .fromEdge(let edge):
            let inset = 0.5
            let (origin, inward): (PhysicalPoint, PhysicalPoint) =
                switch edge {
                case .left: (PhysicalPoint(x: inset, y: height / 2), PhysicalPoint(x: 1, y: 0))
                case .right: (PhysicalPoint(x: width - inset, y: height / 2), PhysicalPoint(x: -1, y: 0))
                case .top: (PhysicalPoint(x: width / 2, y: inset), PhysicalPoint(x: 0, y: 1))
                case .bottom: (PhysicalPoint(x: width / 2, y: height - inset), PhysicalPoint(x: 0, y: -1))
                }
            duration = 0.25
            let distance = min(30, 0.4 * min(width, height))
            path = { _, u in origin + inward * (distance * u) }
        }
        duration *= variant.speedFactor
        let motionStart = variant.landsWhileMoving && duration > 0 ? start + 0.01 : lastLanding + (duration > 0 ? settle : 0)
        let lastLag = lags.max() ?? 0
        var strokes: [GestureScript.Stroke] = []
        for i in 0..<n {
            let down = landing[i]
            let up = (duration > 0 ? motionStart + duration + lastLag + 0.02 : lastLanding + hold) + lifting[i]
            func progress(_ t: Double) -> Double {
                guard duration > 0 else { return 0 }
                return min(1, max(0, (t - motionStart - lags[i]) / duration))
            }
            var keyframes: [GestureScript.Keyframe] = [.init(time: down, position: path(i, progress(down)))]
            var t = down + step
            while t < up {
                keyframes.append(.init(time: t, position: path(i, progress(t))))
                t += step
            }
            keyframes.append(.init(time: up, position: path(i, progress(up))))
            strokes.append(profiled(GestureScript.Stroke(keyframes: keyframes), fingerPressure))
        }
        return withPalm(repeated(GestureScript(strokes: strokes), scenario), variant, device, kind)
    }

    /// The gesture made ``StressScenario/repeats`` times, 0.4 s from one lift to the next
    /// landing (the resting palm, added after, stays down throughout).
    private static func repeated(_ script: GestureScript, _ scenario: StressScenario) -> GestureScript {
        guard scenario.repeats > 1 else { return script }
        var result = script
        let first = script.strokes.map(\.down).min() ?? 0
        let once = GestureScript(strokes: script.strokes.map { $0.shifted(by: -first) })
        for _ in 1..<scenario.repeats { result = result.followed(by: once, after: 0.4) }
        return result
    }

    /// A finger's pressure rises from 40 % of its level over 30 ms after landing.
    private static func profiled(_ stroke: GestureScript.Stroke, _ pressure: Double?) -> GestureScript.Stroke {
        var stroke = stroke
        if let pressure { stroke.pressure = PressureProfile(level: pressure, landing: 0.4 * pressure, rise: 0.03) }
        stroke.touchMajorMillimeters = 9
        return stroke
    }

    /// Adds a palm resting from 0 until after the gesture: on a pad at the bottom-left, in
    /// the thumb and edge bands; on a screen at the bottom-left too, where a hand holding a
    /// tablet rests. Full pressure and 35 mm across where the device measures them, and
    /// `MT_TOOL_PALM` where it reports a tool type.
    private static func withPalm(_ script: GestureScript, _ variant: StressVariant, _ device: DeviceDescription, _ kind: DeviceKind)
        -> GestureScript
    {
        guard variant.palm else { return script }
        return palm(script, end: script.duration + 0.1, device, kind)
    }

    /// `script` with a palm resting from 0 to `end`.
    private static func palm(_ script: GestureScript, end: Double, _ device: DeviceDescription, _ kind: DeviceKind) -> GestureScript {
        let position =
            kind == .touchpad
            ? PhysicalPoint(x: 0.06 * device.widthMillimeters, y: 0.93 * device.heightMillimeters)
            : PhysicalPoint(x: 0.12 * device.widthMillimeters, y: 0.85 * device.heightMillimeters)
        var palm = GestureScript.Stroke(
            keyframes: [.init(time: 0, position: position), .init(time: end, position: position + PhysicalPoint(x: 0.5, y: 0.3))])
        // Screens whose firmware classifies contacts say so (`MT_TOOL_PALM`).
        palm.toolType = .palm
        palm.pressure = .palm
        palm.touchMajorMillimeters = 35
        return script.combined(with: GestureScript(strokes: [palm]))
    }

    private static func shuffled(_ n: Int, _ random: inout SplitMix64) -> [Int] {
        var order = Array(0..<n)
        if n > 1 {
            for i in stride(from: n - 1, to: 0, by: -1) {
                order.swapAt(i, random.nextIndex(i + 1))
            }
        }
        return order
    }
}
