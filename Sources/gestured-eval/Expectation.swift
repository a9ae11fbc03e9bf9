public import GestureEngine

/// How a count compares with the expected figure.
public enum Relation: String, Sendable, Hashable {
    case equal = "=="
    case atLeast = ">="
    case atMost = "<="

    func holds(_ value: Int, _ expected: Int) -> Bool {
        switch self {
        case .equal: value == expected
        case .atLeast: value >= expected
        case .atMost: value <= expected
        }
    }
}

/// One thing a recording's outcome must show. Gesture names are those of
/// `config/evaluation.conf`.
public enum Check: Sendable, Hashable {
    /// Recognitions of `gesture` (discrete: `recognized`; continuous: `began`) compared with a
    /// figure.
    case count(String, Relation, Int)
    /// The summed recognitions of several gestures (a touch-and-release that may be a tap or a
    /// hold) compared with a figure.
    case countOfAny([String], Relation, Int)
    /// No gesture outside `allowed` is recognized.
    case nothingBut(Set<String>)
    /// The summed translation of every recognition of `gesture` (a pan) points in `direction`
    /// (its dominant axis and sign).
    case panDirection(String, Direction)
    /// Like ``panDirection``, but only the translation after the last filtered frame with at
    /// least `fingers` touches down counts: a prompt that asks for motion "in any direction"
    /// with more fingers first and the named direction only after they lifted.
    case panDirectionAfter(String, Direction, fingers: Int)
    /// The summed translation of every recognition of `gesture` is mostly along one axis.
    case panAxis(String, horizontal: Bool)
    /// Every recognition of a swipe `gesture` reports `direction`, and there is at least one.
    case swipeDirection(String, Direction)
    /// The last pinch ends with a scale above 1 (fingers spread, zoom in) or below 1.
    case pinchScale(spread: Bool)
    /// Pointer motion: path length in mm of the single touch the engine passes on while it is
    /// the only one down (what a compositor would move the pointer with).
    case pointerMotion(Relation, Double)

    /// A short phrase for the report.
    public var summary: String {
        switch self {
        case .count(let name, let relation, let n): "\(name) \(relation.rawValue) \(n)"
        case .countOfAny(let names, let relation, let n): "\(names.joined(separator: "+")) \(relation.rawValue) \(n)"
        case .nothingBut(let allowed):
            allowed.isEmpty ? "no gesture" : "nothing but \(allowed.sorted().joined(separator: ","))"
        case .panDirection(let name, let direction): "\(name) \(direction.rawValue)"
        case .panDirectionAfter(let name, let direction, let fingers):
            "\(name) \(direction.rawValue) after the last \(fingers)-finger frame"
        case .panAxis(let name, let horizontal): "\(name) \(horizontal ? "horizontal" : "vertical")"
        case .swipeDirection(let name, let direction): "\(name) \(direction.rawValue)"
        case .pinchScale(let spread): "pinch scale \(spread ? "> 1" : "< 1")"
        case .pointerMotion(let relation, let mm): "pointer \(relation.rawValue) \(formatMM(mm))"
        }
    }
}

/// What gestured should report for one labelled recording.
public struct Expectation: Sendable, Hashable {
    /// The label kind, the row of the report ("taps", "palm alone", …).
    public var category: String
    /// The device (ChromeOS board or kernel device name), the column of the report.
    public var device: String
    /// The label as read from the file name.
    public var label: String
    public var checks: [Check]
    /// Header-less recordings: the corpus description to use (relative to `devices/`), if one
    /// matches; otherwise ranges are inferred from the data.
    public var descriptionPath: String?
    /// The device kind when the recording cannot say (header-less touchscreen recordings).
    public var kind: DeviceKind?

    public init(category: String, device: String, label: String, checks: [Check], descriptionPath: String? = nil, kind: DeviceKind? = nil) {
        self.category = category
        self.device = device
        self.label = label
        self.checks = checks
        self.descriptionPath = descriptionPath
        self.kind = kind
    }

    public var summary: String { checks.map(\.summary).joined(separator: "; ") }
}

func formatMM(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))mm"
}
