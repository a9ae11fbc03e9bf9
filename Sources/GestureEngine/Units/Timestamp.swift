/// A point on the kernel's `CLOCK_MONOTONIC` time line, in microseconds.
///
/// Every time value inside the engine is a `Timestamp` taken from frame timestamps or from
/// `advance(to:)`; the engine never reads a clock. Spans are `Double` seconds (spec §0.1).
public struct Timestamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Microseconds since the `CLOCK_MONOTONIC` origin.
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// A timestamp `seconds` after the origin, rounded to the nearest microsecond.
    public init(seconds: Double) {
        self.microseconds = Int64((seconds * 1_000_000).rounded())
    }

    /// The kernel's `struct timeval` split (seconds, microseconds).
    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds * 1_000_000 + microseconds
    }

    public static let zero = Timestamp(microseconds: 0)

    /// Seconds since the origin.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// This timestamp moved by a span in seconds (rounded to the microsecond).
    public func adding(seconds span: Double) -> Timestamp {
        Timestamp(microseconds: microseconds + Int64((span * 1_000_000).rounded()))
    }

    /// The span from `rhs` to `lhs`, in seconds.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Double {
        Double(lhs.microseconds - rhs.microseconds) / 1_000_000
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    /// `sec.usec` with six decimals, as evemu prints it.
    public var description: String {
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(magnitude / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}
