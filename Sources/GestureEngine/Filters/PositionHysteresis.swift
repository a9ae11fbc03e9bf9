/// Position hysteresis for one contact (libinput's `tp_motion_hysteresis`): the filtered
/// position stays put while the sensor position wobbles inside a circle of `radius` mm around
/// it, and is dragged along (staying `radius` behind) once the sensor position leaves it. A
/// resting finger reports no motion; a moving one lags by at most `radius`.
public struct PositionHysteresis: Hashable, Sendable {
    /// Millimetres; 0 passes positions through.
    public let radius: Double
    /// The filtered position.
    public private(set) var position: PhysicalPoint

    public init(radius: Double, position: PhysicalPoint) {
        self.radius = max(0, radius)
        self.position = position
    }

    /// Feeds a sensor position; returns the filtered one.
    public mutating func update(_ raw: PhysicalPoint) -> PhysicalPoint {
        let dx = raw.x - position.x
        let dy = raw.y - position.y
        let length = (dx * dx + dy * dy).squareRoot()
        if length > radius {
            let keep = radius / length
            position = PhysicalPoint(x: raw.x - dx * keep, y: raw.y - dy * keep)
        }
        return position
    }
}
