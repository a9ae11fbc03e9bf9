import GesturedRandom
import Testing

/// The one seeded generator must stay SplitMix64: the synthesizer's jitter, the stress set,
/// the tests' cases (and any seed quoted in a failure) are defined by its sequence.
@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("the sequence is SplitMix64's (reference outputs for seeds 0 and 16)")
    func referenceSequence() {
        var zero = SplitMix64(seed: 0)
        #expect([zero.next(), zero.next(), zero.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var sixteen = SplitMix64(seed: 16)
        #expect([sixteen.next(), sixteen.next()] == [0x5DE1_86DC_BA77_9207, 0x145A_11CA_C985_644B])
    }

    @Test("nextIndex(n) is next() mod n")
    func nextIndex() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        for n in [1, 2, 7, 1000] {
            #expect(a.nextIndex(n) == Int(b.next() % UInt64(n)))
        }
    }

    @Test("nextUnit() is the top 53 bits of next() over 2^53, in [0, 1)")
    func nextUnit() {
        var a = SplitMix64(seed: 0)
        #expect(a.nextUnit() == Double(0xE220_A839_7B1D_CDAF as UInt64 >> 11) / 9_007_199_254_740_992)
        var b = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let u = b.nextUnit()
            #expect(u >= 0 && u < 1)
        }
    }

    @Test("as a RandomNumberGenerator it draws from the same sequence")
    func randomNumberGenerator() {
        func draw(_ generator: inout some RandomNumberGenerator) -> [UInt64] { [generator.next(), generator.next()] }
        var generator = SplitMix64(seed: 16)
        #expect(draw(&generator) == [0x5DE1_86DC_BA77_9207, 0x145A_11CA_C985_644B])
    }
}
