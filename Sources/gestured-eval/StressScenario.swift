public import GestureEngine
import GesturedRandom

/// One gesture of the shipped configuration as a user makes it, and what the user means by
/// it (docs/evaluation.md, "The stress set").
public struct StressScenario: Sendable, Hashable {
    /// What the fingers do.
    public enum Motion: Sendable, Hashable {
        /// Fingers down and up without moving, `hold` seconds after the last one landed.
        case still(hold: Double)
        /// Two taps of one finger, 0.15 s apart.
        case doubleTap
        /// The hand moves in `direction`.
        case translate(Direction)
        /// The fingers spread (`scale` > 1) or close around their centre.
        case pinch(scale: Double)
        /// The fingers turn around their centre by `angle` radians (positive clockwise).
        case rotate(angle: Double)
        /// One finger from 0.5 mm inside `edge` inwards.
        case fromEdge(Edge)
        /// No finger: a palm rests on the surface for a second and lifts (a hand holding a
        /// tablet), drifting half a millimetre.
        case palmAlone
    }

    /// `three-finger-swipe left`: the report's name.
    public var name: String
    public var fingers: Int
    public var motion: Motion
    /// The gesture the user means (a name of the shipped configuration); nil: nothing at all
    /// (on a touchpad the compositor moves the pointer and scrolls from the raw touches).
    public var expected: String?
    /// For swipes, the direction the expected gesture must report.
    public var direction: Direction?
    /// For pinches, whether the scale must end above 1.
    public var spreads: Bool?
    /// For rotations, whether the rotation must end clockwise (positive).
    public var clockwise: Bool?
    /// Gestures tolerated beside the expected one.
    public var tolerated: Set<String> = []
    /// How many times the gesture is made in a row (0.4 s apart): each must be recognized,
    /// also while a palm rests throughout.
    public var repeats = 1

    /// Whether the fingers move (a speed variant changes something).
    public var moves: Bool {
        switch motion {
        case .still, .doubleTap, .palmAlone: false
        case .translate, .pinch, .rotate, .fromEdge: true
        }
    }

    /// The shipped configuration's gestures on a touchscreen.
    public static let touchscreen: [StressScenario] = {
        var list: [StressScenario] = [
            StressScenario(name: "tap", fingers: 1, motion: .still(hold: 0.06), expected: "tap"),
            StressScenario(name: "double-tap", fingers: 1, motion: .doubleTap, expected: "double-tap"),
            StressScenario(name: "two-finger-tap", fingers: 2, motion: .still(hold: 0.06), expected: "two-finger-tap"),
            StressScenario(name: "long-press", fingers: 1, motion: .still(hold: 0.8), expected: "long-press"),
        ]
        for (fingers, name) in [(1, "swipe"), (2, "two-finger-swipe"), (3, "three-finger-swipe"), (4, "four-finger-swipe")] {
            for direction in Direction.allCases {
                list.append(
                    StressScenario(
                        name: "\(name) \(direction.rawValue)", fingers: fingers, motion: .translate(direction), expected: name,
                        direction: direction))
            }
        }
        list.append(StressScenario(name: "pinch in", fingers: 2, motion: .pinch(scale: 0.5), expected: "pinch", spreads: false))
        list.append(StressScenario(name: "pinch out", fingers: 2, motion: .pinch(scale: 1.8), expected: "pinch", spreads: true))
        list.append(
            StressScenario(name: "rotate clockwise", fingers: 2, motion: .rotate(angle: 1.0), expected: "rotate", clockwise: true))
        list.append(
            StressScenario(
                name: "rotate counter-clockwise", fingers: 2, motion: .rotate(angle: -1.0), expected: "rotate", clockwise: false))
        var twice = StressScenario(name: "swipe right twice", fingers: 1, motion: .translate(.right), expected: "swipe", direction: .right)
        twice.repeats = 2
        list.append(twice)
        var tapTwice = StressScenario(name: "two-finger-tap twice", fingers: 2, motion: .still(hold: 0.06), expected: "two-finger-tap")
        tapTwice.repeats = 2
        list.append(tapTwice)
        list.append(StressScenario(name: "palm resting alone (no gesture)", fingers: 1, motion: .palmAlone, expected: nil))
        for edge in [Edge.left, .right, .top, .bottom] {
            list.append(StressScenario(name: "edge-\(edge)", fingers: 1, motion: .fromEdge(edge), expected: "edge-\(edge)"))
        }
        return list
    }()

    /// The shipped configuration's gestures on a touchpad (with the policy the daemon applies),
    /// and the everyday touches that must produce no gesture there.
    public static let touchpad: [StressScenario] = {
        var list: [StressScenario] = [
            StressScenario(name: "two-finger-tap", fingers: 2, motion: .still(hold: 0.06), expected: "touchpad-two-finger-tap"),
            StressScenario(name: "three-finger-tap", fingers: 3, motion: .still(hold: 0.06), expected: "touchpad-three-finger-tap"),
            StressScenario(name: "three-finger hold", fingers: 3, motion: .still(hold: 0.8), expected: "touchpad-hold"),
        ]
        for (fingers, name) in [(3, "touchpad-three-finger-swipe"), (4, "touchpad-four-finger-swipe")] {
            for direction in Direction.allCases {
                list.append(
                    StressScenario(
                        name: "\(fingers)-finger swipe \(direction.rawValue)", fingers: fingers, motion: .translate(direction),
                        expected: name, direction: direction))
            }
        }
        var twice = StressScenario(
            name: "3-finger swipe left twice", fingers: 3, motion: .translate(.left), expected: "touchpad-three-finger-swipe",
            direction: .left)
        twice.repeats = 2
        list.append(twice)
        list.append(StressScenario(name: "pinch in", fingers: 2, motion: .pinch(scale: 0.5), expected: "touchpad-pinch", spreads: false))
        list.append(StressScenario(name: "pinch out", fingers: 2, motion: .pinch(scale: 1.6), expected: "touchpad-pinch", spreads: true))
        list.append(StressScenario(name: "one-finger tap (no gesture)", fingers: 1, motion: .still(hold: 0.06), expected: nil))
        list.append(StressScenario(name: "pointer motion (no gesture)", fingers: 1, motion: .translate(.right), expected: nil))
        list.append(StressScenario(name: "two-finger scroll down (no gesture)", fingers: 2, motion: .translate(.down), expected: nil))
        list.append(StressScenario(name: "two-finger scroll left (no gesture)", fingers: 2, motion: .translate(.left), expected: nil))
        return list
    }()
}

extension StressScenario {
    /// The gestures of `config/evaluation.conf` (the configuration the held-back scoring
    /// replays unseen touchpads with) on a touchscreen, each with what the user means.
    public static let evaluationTouchscreen: [StressScenario] = {
        var list: [StressScenario] = [
            StressScenario(name: "tap", fingers: 1, motion: .still(hold: 0.06), expected: "tap"),
            StressScenario(name: "double-tap", fingers: 1, motion: .doubleTap, expected: "double-tap", tolerated: ["tap"]),
            StressScenario(name: "two-finger-tap", fingers: 2, motion: .still(hold: 0.06), expected: "two-finger-tap"),
            StressScenario(name: "hold", fingers: 1, motion: .still(hold: 0.8), expected: "hold"),
            StressScenario(name: "two-finger hold", fingers: 2, motion: .still(hold: 0.8), expected: "two-finger-hold"),
            StressScenario(name: "pinch in", fingers: 2, motion: .pinch(scale: 0.5), expected: "pinch", spreads: false),
            StressScenario(name: "pinch out", fingers: 2, motion: .pinch(scale: 1.8), expected: "pinch", spreads: true),
            StressScenario(name: "palm resting alone (no gesture)", fingers: 1, motion: .palmAlone, expected: nil),
        ]
        for (fingers, name) in [(1, "drag"), (2, "scroll"), (3, "three-finger-swipe"), (4, "four-finger-swipe")] {
            for direction in Direction.allCases {
                list.append(
                    StressScenario(
                        name: "\(name) \(direction.rawValue)", fingers: fingers, motion: .translate(direction), expected: name,
                        direction: direction))
            }
        }
        return list
    }()

    /// The gestures of `config/evaluation.conf` on a touchpad, and the touches that must make
    /// none there (pointer motion is the compositor's).
    public static let evaluationTouchpad: [StressScenario] = {
        var list: [StressScenario] = [
            StressScenario(name: "tap", fingers: 1, motion: .still(hold: 0.06), expected: "tap"),
            StressScenario(name: "double-tap", fingers: 1, motion: .doubleTap, expected: "double-tap", tolerated: ["tap"]),
            StressScenario(name: "two-finger-tap", fingers: 2, motion: .still(hold: 0.06), expected: "two-finger-tap"),
            StressScenario(name: "three-finger-tap", fingers: 3, motion: .still(hold: 0.06), expected: "three-finger-tap"),
            StressScenario(name: "three-finger hold", fingers: 3, motion: .still(hold: 0.8), expected: "three-finger-hold"),
            StressScenario(name: "pinch in", fingers: 2, motion: .pinch(scale: 0.5), expected: "pinch", spreads: false),
            StressScenario(name: "pinch out", fingers: 2, motion: .pinch(scale: 1.6), expected: "pinch", spreads: true),
            StressScenario(name: "pointer motion (no gesture)", fingers: 1, motion: .translate(.right), expected: nil),
            StressScenario(name: "palm resting alone (no gesture)", fingers: 1, motion: .palmAlone, expected: nil),
        ]
        for (fingers, name) in [(2, "scroll"), (3, "three-finger-swipe"), (4, "four-finger-swipe")] {
            for direction in Direction.allCases {
                list.append(
                    StressScenario(
                        name: "\(fingers)-finger \(name == "scroll" ? "scroll" : "swipe") \(direction.rawValue)", fingers: fingers,
                        motion: .translate(direction), expected: name, direction: direction))
            }
        }
        return list
    }()
}

/// How the fingers and the device differ from the plain gesture: one stress variant.
public struct StressVariant: Sendable, Hashable {
    /// How the device's pressure axes are replaced.
    public enum Pressure: String, Sendable, Hashable {
        case native, range50 = "0…50", range255 = "0…255", none
    }

    /// How the device's touch-size axis is replaced.
    public enum Size: String, Sendable, Hashable {
        case native, present, absent
    }

    public var name: String
    /// Seconds between successive fingers landing (in a shuffled order).
    public var landingGap = 0.0
    /// Seconds between successive fingers lifting.
    public var liftGap = 0.0
    /// Seconds each successive finger trails the one before during the motion.
    public var lag = 0.0
    /// The hand starts moving 10 ms after the first finger lands, while the others land.
    public var landsWhileMoving = false
    /// Frames per second.
    public var rate = 100.0
    /// The motion takes this many times its usual duration (0.5: a flick; 1.6: unhurried).
    public var speedFactor = 1.0
    public var pressure = Pressure.native
    public var size = Size.native
    /// Uniform noise (±mm) on every reported position.
    public var jitter = 0.0
    /// A palm rests beside the fingers from before the gesture to after it.
    public var palm = false
    /// Seed of the finger order and the jitter.
    public var seed: UInt64 = 1

    /// Whether the variant changes anything for a gesture of `fingers` fingers.
    public func applies(toFingers fingers: Int) -> Bool {
        if fingers == 1 && (landingGap > 0 || liftGap > 0 || lag > 0 || landsWhileMoving) && !isMixed { return false }
        return true
    }

    var isMixed: Bool { name.hasPrefix("mixed") }

    /// The variants of the stress set: each factor alone, then seeded mixtures of all.
    public static let all: [StressVariant] = {
        var list: [StressVariant] = [StressVariant(name: "plain")]
        for ms in [10, 20, 40] { list.append(StressVariant(name: "land \(ms) ms apart", landingGap: Double(ms) / 1000)) }
        list.append(StressVariant(name: "land 25 ms apart while moving", landingGap: 0.025, landsWhileMoving: true))
        for ms in [20, 40] { list.append(StressVariant(name: "lift \(ms) ms apart", liftGap: Double(ms) / 1000)) }
        for ms in [12, 25] { list.append(StressVariant(name: "lag \(ms) ms in motion", lag: Double(ms) / 1000)) }
        for hz in [60, 120, 240] { list.append(StressVariant(name: "\(hz) Hz", rate: Double(hz))) }
        list.append(StressVariant(name: "fast (motion in half the time)", speedFactor: 0.5))
        list.append(StressVariant(name: "slow (motion in 1.6× the time)", speedFactor: 1.6))
        list.append(StressVariant(name: "pressure 0…50", pressure: .range50))
        list.append(StressVariant(name: "pressure 0…255", pressure: .range255))
        list.append(StressVariant(name: "no pressure", pressure: .none))
        list.append(StressVariant(name: "touch size", size: .present))
        list.append(StressVariant(name: "no touch size", size: .absent))
        list.append(StressVariant(name: "jitter 0.3 mm", jitter: 0.3))
        list.append(StressVariant(name: "resting palm", palm: true))
        var random = SplitMix64(seed: 0x5EED)
        let rates = [60.0, 90.0, 120.0, 240.0]
        let pressures: [Pressure] = [.native, .range50, .range255, .none]
        let sizes: [Size] = [.native, .present, .absent]
        for index in 1...6 {
            var variant = StressVariant(name: "mixed \(index)")
            variant.landingGap = (random.nextUnit() * 40).rounded() / 1000
            variant.liftGap = (random.nextUnit() * 40).rounded() / 1000
            variant.lag = (random.nextUnit() * 25).rounded() / 1000
            variant.rate = rates[random.nextIndex(rates.count)]
            variant.pressure = pressures[random.nextIndex(pressures.count)]
            variant.size = sizes[random.nextIndex(sizes.count)]
            variant.jitter = random.nextUnit() < 0.5 ? 0 : 0.2
            variant.seed = UInt64(index) * 7919
            variant.name += " (land \(Int(variant.landingGap * 1000)), lift \(Int(variant.liftGap * 1000)), lag \(Int(variant.lag * 1000)) ms, \(Int(variant.rate)) Hz, pressure \(variant.pressure.rawValue), size \(variant.size.rawValue), jitter \(variant.jitter))"
            list.append(variant)
        }
        return list
    }()
}

