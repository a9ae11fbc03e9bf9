// Trigonometry for the engine. The standard library has no atan2/acos/sin/cos and the engine
// may not import Glibc (STYLE.md B3), so the functions the recognizers and the synthesizer
// need are written here: argument reduction plus a short Taylor series, accurate to about
// 1e-15 rad (atan) and 1e-12 (sine, far beyond what device units resolve).

/// Sine and cosine for code that may import no libm module: the synthesizer here and
/// `gestured-eval`'s stress scripts (which lint keeps off Glibc too), so both draw the same arcs.
public enum EngineMath {
    /// sin(x), Taylor series after reducing `x` to [−π, π].
    public static func sine(_ x: Double) -> Double {
        var r = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if r > Double.pi { r -= 2 * Double.pi } else if r < -Double.pi { r += 2 * Double.pi }
        var term = r
        var sum = r
        for n in 1..<20 {
            term *= -r * r / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }

    /// cos(x) = sin(x + π/2).
    public static func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
}

/// atan(x) for any finite x, radians.
func atanApprox(_ x: Double) -> Double {
    if x.isNaN { return x }
    if x < 0 { return -atanApprox(-x) }
    if x > 1 { return Double.pi / 2 - atanApprox(1 / x) }
    // Two halvings, atan(x) = 2·atan(x / (1 + √(1 + x²))), bring |x| ≤ 0.2.
    var y = x
    var factor = 1.0
    for _ in 0..<2 {
        y = y / (1 + (1 + y * y).squareRoot())
        factor *= 2
    }
    let y2 = y * y
    var term = y
    var sum = 0.0
    var n = 1.0
    var sign = 1.0
    for _ in 0..<14 {
        sum += sign * term / n
        term *= y2
        n += 2
        sign = -sign
    }
    return factor * sum
}

/// atan2(y, x) in (−π, π], radians; 0 for the origin.
func atan2Approx(_ y: Double, _ x: Double) -> Double {
    if x == 0 {
        if y > 0 { return Double.pi / 2 }
        if y < 0 { return -Double.pi / 2 }
        return 0
    }
    let base = atanApprox(y / x)
    if x > 0 { return base }
    return y >= 0 ? base + Double.pi : base - Double.pi
}

/// acos(c) with `c` clamped to [−1, 1], radians.
func acosClamped(_ c: Double) -> Double {
    let clamped = min(max(c, -1), 1)
    return atan2Approx((1 - clamped * clamped).squareRoot(), clamped)
}

/// `angle` wrapped into (−π, π].
func wrapAngle(_ angle: Double) -> Double {
    guard angle.isFinite else { return 0 }
    var a = angle
    let twoPi = 2 * Double.pi
    while a > Double.pi { a -= twoPi }
    while a <= -Double.pi { a += twoPi }
    return a
}
