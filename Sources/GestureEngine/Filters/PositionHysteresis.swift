/// Position hysteresis for one contact, at rest only: while a contact rests, its filtered
/// position stays put as long as the sensor position wobbles inside a circle of `radius` mm;
/// once the sensor position leaves the circle the contact moves, and its positions pass
/// through unchanged (no lag, unlike libinput's always-on `tp_motion_hysteresis`, so
/// gestures keep their exact translations) until a frame moves it less than
/// ``restingStep`` mm, which puts it at rest again, centred there.
public struct PositionHysteresis: Hashable, Sendable {
    /// Millimetres; 0 passes positions through.
    public let radius: Double
    /// A frame moving a moving contact by less than this (mm) puts it at rest.
    public let restingStep: Double
    /// The filtered position.
    public private(set) var position: PhysicalPoint
    public private(set) var isMoving = false

    public init(radius: Double, position: PhysicalPoint, restingStep: Double = 0.05) {
        self.radius = max(0, radius)
        self.restingStep = restingStep
        self.position = position
    }

    /// Feeds a sensor position; returns the filtered one.
    public mutating func update(_ raw: PhysicalPoint) -> PhysicalPoint {
        let dx = raw.x - position.x
        let dy = raw.y - position.y
        let length = (dx * dx + dy * dy).squareRoot()
        if isMoving {
            if length < restingStep { isMoving = false }
            position = raw
        } else if length > radius {
            isMoving = true
            position = raw
        }
        return position
    }
}
