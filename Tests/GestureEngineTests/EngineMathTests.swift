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

    @Test("EngineMath.sine and cosine (synthesizer, stress scripts) match known values all around")
    func sineAndCosine() {
        #expect(close(EngineMath.sine(Double.pi / 6), 0.5, 1e-12))
        #expect(close(EngineMath.cosine(Double.pi / 3), 0.5, 1e-12))
        #expect(close(EngineMath.sine(-Double.pi / 2), -1, 1e-12))
        for k in -720...720 {
            let a = Double(k) * Double.pi / 180
            #expect(abs(EngineMath.sine(a) - sine(a)) < 1e-12, "sin \(k)°")
            #expect(abs(EngineMath.cosine(a) - cosine(a)) < 1e-12, "cos \(k)°")
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
