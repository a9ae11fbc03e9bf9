/// A position or displacement on the device surface in millimetres, x to the right, y down
/// (spec §0.1). Used both for points and for vectors (translation, velocity in mm/s).
public struct PhysicalPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = PhysicalPoint(x: 0, y: 0)

    /// Euclidean length in millimetres.
    public var length: Double { (x * x + y * y).squareRoot() }
    public var lengthSquared: Double { x * x + y * y }

    public static func + (a: PhysicalPoint, b: PhysicalPoint) -> PhysicalPoint { PhysicalPoint(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: PhysicalPoint, b: PhysicalPoint) -> PhysicalPoint { PhysicalPoint(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: PhysicalPoint, k: Double) -> PhysicalPoint { PhysicalPoint(x: a.x * k, y: a.y * k) }
    public static func / (a: PhysicalPoint, k: Double) -> PhysicalPoint { PhysicalPoint(x: a.x / k, y: a.y / k) }
    public static func += (a: inout PhysicalPoint, b: PhysicalPoint) { a = a + b }
    public static func -= (a: inout PhysicalPoint, b: PhysicalPoint) { a = a - b }

    public func distance(to other: PhysicalPoint) -> Double { (self - other).length }

    /// Mean of a set of points; `.zero` for an empty set.
    public static func centroid<S: Sequence>(of points: S) -> PhysicalPoint where S.Element == PhysicalPoint {
        var sum = PhysicalPoint.zero
        var count = 0
        for point in points {
            sum += point
            count += 1
        }
        return count == 0 ? .zero : sum / Double(count)
    }

    public var description: String { "(\(x), \(y))" }
}

/// A position in raw device units (`ABS_MT_POSITION_X/Y` values). Convert to millimetres only
/// through ``DeviceDescription/physicalPoint(_:)``.
public struct DevicePoint: Hashable, Sendable {
    public var x: Int32
    public var y: Int32

    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// A rectangle in millimetres (origin top-left).
public struct PhysicalRect: Hashable, Sendable {
    public var origin: PhysicalPoint
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = PhysicalPoint(x: x, y: y)
        self.width = width
        self.height = height
    }

    public func contains(_ p: PhysicalPoint) -> Bool {
        p.x >= origin.x && p.x <= origin.x + width && p.y >= origin.y && p.y <= origin.y + height
    }
}
