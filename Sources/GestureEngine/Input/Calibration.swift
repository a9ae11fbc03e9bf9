/// An affine calibration of a device's positions (spec §2.1 step 5), in libinput's form
/// (`LIBINPUT_CALIBRATION_MATRIX`): the first two rows of a 3×3 matrix applied to positions
/// normalised to 0…1 over each axis's range, so the same six numbers work on any resolution:
///
///     x' = a·x + b·y + c
///     y' = d·x + e·y + f
///
/// `1 0 0 0 -1 1` inverts Y (a panel mounted upside down relative to its sensor), `0 1 0 1 0 0`
/// swaps the axes. The result is mapped back onto each axis's range, in device units, before
/// the conversion to millimetres.
public struct Calibration: Hashable, Sendable {
    public var a: Double, b: Double, c: Double
    public var d: Double, e: Double, f: Double

    /// - Parameter matrix: exactly six numbers, row by row.
    public init?(_ matrix: [Double]) {
        guard matrix.count == 6, matrix.allSatisfy(\.isFinite) else { return nil }
        (a, b, c, d, e, f) = (matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5])
    }

    /// The identity leaves positions untouched (and costs nothing per frame).
    public var isIdentity: Bool { a == 1 && b == 0 && c == 0 && d == 0 && e == 1 && f == 0 }

    /// Applies the calibration to a position in device units, with the axes' ranges.
    func apply(x: Double, y: Double, xRange: (min: Double, max: Double), yRange: (min: Double, max: Double)) -> (x: Double, y: Double) {
        let xSpan = xRange.max - xRange.min
        let ySpan = yRange.max - yRange.min
        guard xSpan > 0, ySpan > 0 else { return (x, y) }
        let nx = (x - xRange.min) / xSpan
        let ny = (y - yRange.min) / ySpan
        return (xRange.min + (a * nx + b * ny + c) * xSpan, yRange.min + (d * nx + e * ny + f) * ySpan)
    }
}
