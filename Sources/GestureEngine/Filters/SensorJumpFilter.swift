/// Takes sensor jumps out of a contact's motion, axis by axis, as the ChromiumOS gestures
/// library's sensor jump filter does for the Cypress touchpads (its "Sensor Jump" settings for
/// lumpy): a step that turns back on an axis, or a sudden step of
/// ``minimumStep``…``maximumStep`` mm unlike the one before, moves the sensor position but not
/// the delivered one; the contact goes on from where it was. A palm's centre on those pads
/// jumps 2–3 mm back and forth between still frames, which a finger never does; a finger
/// starting to move quickly loses at most its first two steps.
///
/// Pure value type: sensor positions in, positions to deliver out.
public struct SensorJumpFilter: Hashable, Sendable {
    /// A step shorter than this (mm) on an axis is always passed, unless it turns back.
    public let minimumStep: Double
    /// A step longer than this (mm) is passed: a real jump of the finger, not the sensor's.
    public let maximumStep: Double
    /// A step within this fraction of the previous one is "similar": steady motion.
    public let similarity: Double
    /// A turn back with both steps below this (mm) is jitter and is passed.
    public let turnTolerance: Double

    private var last: PhysicalPoint?
    private var lastStep = PhysicalPoint.zero
    private var hasStep = false
    private var flaggedX = false
    private var flaggedY = false
    /// What the delivered position is off the sensor's (mm): the jumps taken out so far.
    public private(set) var offset = PhysicalPoint.zero

    public init(minimumStep: Double, maximumStep: Double = 7.5, similarity: Double = 0.9, turnTolerance: Double = 0.95) {
        self.minimumStep = minimumStep
        self.maximumStep = maximumStep
        self.similarity = similarity
        self.turnTolerance = turnTolerance
    }

    /// Feeds the sensor position of the next frame; returns the position to deliver.
    public mutating func update(_ raw: PhysicalPoint) -> PhysicalPoint {
        guard minimumStep > 0, let previous = last else {
            last = raw
            return position(for: raw)
        }
        let step = PhysicalPoint(x: raw.x - previous.x, y: raw.y - previous.y)
        // A step is judged against the one before it: from the third position on.
        if hasStep {
            if judge(step.x, lastStep.x, flag: &flaggedX) { offset.x -= step.x }
            if judge(step.y, lastStep.y, flag: &flaggedY) { offset.y -= step.y }
        }
        last = raw
        lastStep = step
        hasStep = true
        return PhysicalPoint(x: raw.x + offset.x, y: raw.y + offset.y)
    }

    /// Takes everything the sensor moved so far out: `raw` is delivered as `position` from
    /// now on (a contact whose held-back motion is dropped).
    public mutating func rebase(_ raw: PhysicalPoint, to position: PhysicalPoint) {
        offset = PhysicalPoint(x: position.x - raw.x, y: position.y - raw.y)
    }

    /// The position to deliver for `raw` without judging a step (a lift's last position).
    public func position(for raw: PhysicalPoint) -> PhysicalPoint {
        PhysicalPoint(x: raw.x + offset.x, y: raw.y + offset.y)
    }

    /// Whether the newer step `d0` (after `d1`) is a sensor jump on its axis.
    private func judge(_ d0: Double, _ d1: Double, flag: inout Bool) -> Bool {
        var jump = false
        var keepFlag = false
        if d0 * d1 < 0 {
            // Turned back: a jump, unless both steps are small (jitter).
            if !(abs(d0) < turnTolerance && abs(d1) < turnTolerance) { jump = true; keepFlag = true }
        } else if abs(d0) < minimumStep || abs(d0) > maximumStep {
            // Slow motion, or a real leap.
        } else if abs(d0 - d1) <= abs(d1) * similarity {
            // As fast as the step before: a jump only right after one (its second frame).
            jump = flag
        } else {
            jump = true
            keepFlag = true
        }
        flag = keepFlag
        return jump
    }
}

/// A box a contact pushes around (the ChromiumOS gestures library's box filter, which it
/// sets to 1 × 1 mm for the Cypress touchpads): the delivered position moves only when the
/// sensor position leaves the box around it, by as much as it left, on each axis. Unlike
/// ``PositionHysteresis`` it also filters a moving contact: wobble narrower than the box
/// never comes through, at the cost of a lag of up to half the box.
public struct BoxFilter: Hashable, Sendable {
    /// The box's width and height (mm); 0 passes positions through.
    public let size: Double
    public private(set) var position: PhysicalPoint

    public init(size: Double, position: PhysicalPoint) {
        self.size = max(0, size)
        self.position = position
    }

    /// Feeds a sensor position; returns the filtered one.
    public mutating func update(_ raw: PhysicalPoint) -> PhysicalPoint {
        let half = size / 2
        if raw.x > position.x + half { position.x = raw.x - half } else if raw.x < position.x - half { position.x = raw.x + half }
        if raw.y > position.y + half { position.y = raw.y - half } else if raw.y < position.y - half { position.y = raw.y + half }
        return position
    }
}
