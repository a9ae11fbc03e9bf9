import Testing

@testable import GestureEngine

@Suite("Engine trigonometry")
struct EngineMathTests {
    @Test("atan2 matches the angle of a point on the unit circle all around")
    func atan2AllAround() {
        for k in -359...359 {
            let a = Double(k) * Double.pi / 180
            let expected = reduced(a)
            let got = atan2Approx(sine(a) * 3, cosine(a) * 3)
            // ±π are the same angle.
            let error = abs(wrapAngle(got - expected))
            #expect(error < 1e-12, "angle \(k)°: \(got) vs \(expected)")
        }
    }

    @Test("atan2 of the axes and the origin")
    func axes() {
        #expect(atan2Approx(1, 0) == Double.pi / 2)
        #expect(atan2Approx(-1, 0) == -Double.pi / 2)
        #expect(atan2Approx(0, 0) == 0)
        #expect(atan2Approx(0, -1) == Double.pi)
        #expect(close(acosClamped(0.5), Double.pi / 3, 1e-12))
        #expect(acosClamped(2) == 0)
    }

    @Test("wrapAngle maps into (−π, π] and treats non-finite input as zero")
    func wrap() {
        #expect(close(wrapAngle(3 * Double.pi / 2), -Double.pi / 2, 1e-12))
        #expect(wrapAngle(-Double.pi) == Double.pi)
        #expect(wrapAngle(.infinity) == 0)
    }
}
