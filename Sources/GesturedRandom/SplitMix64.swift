/// Vigna's SplitMix64: a small, fast, seedable generator, for everything in gestured whose
/// "random" choices must be the same on every run and machine — the synthesizer's jitter,
/// the evaluation's stress set, and the tests' seeded cases (a failing case is reproduced
/// from its seed). The state starts at the seed and is advanced by the golden gamma before
/// each output, so the outputs are the published reference sequence for that seed.
///
/// A module of its own, without dependencies, so that the engine and the protocol and
/// configuration tests share one generator without any of them linking another module for
/// it (DESIGN.md "Targets and boundaries").
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits of `next()`.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// `next() % count`, in `0..<count` (count > 0).
    public mutating func nextIndex(_ count: Int) -> Int { Int(next() % UInt64(count)) }
}
