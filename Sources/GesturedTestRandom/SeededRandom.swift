/// Vigna's SplitMix64, for tests whose cases must be the same on every run and machine:
/// a failing case is reproduced from its seed. The same sequence as the engine's
/// `GestureEngine.SplitMix64` (the state is the seed, then advanced by the golden gamma
/// before each output); a module of its own, without dependencies, so that the protocol
/// tests do not link the engine for it.
public struct SeededRandom: Sendable {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `next() % n`, in `0..<n` (n > 0).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
