import GesturedTestRandom
import Testing

/// The shared test generator must stay SplitMix64: the protocol and configuration tests'
/// cases (and any seed quoted in a failure) are defined by its sequence.
@Suite("Seeded test generator")
struct SeededRandomTests {
    @Test("the sequence is SplitMix64's (reference outputs for seeds 0 and 16)")
    func referenceSequence() {
        var zero = SeededRandom(state: 0)
        #expect([zero.next(), zero.next(), zero.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var sixteen = SeededRandom(state: 16)
        #expect([sixteen.next(), sixteen.next()] == [0x5DE1_86DC_BA77_9207, 0x145A_11CA_C985_644B])
    }

    @Test("below(n) is next() mod n")
    func below() {
        var a = SeededRandom(state: 42)
        var b = SeededRandom(state: 42)
        for n in [1, 2, 7, 1000] {
            #expect(a.below(n) == Int(b.next() % UInt64(n)))
        }
    }
}
