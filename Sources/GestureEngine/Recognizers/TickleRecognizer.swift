/// The tickle of spec §9, written against the public ``CustomRecognizer`` protocol exactly as a
/// user would write their own recognizer: rub one finger left and right; every stroke of at
/// least `minimumTravel` that reverses the previous one counts (the first stroke too), and the
/// gesture is recognized at `requiredStrokes` strokes. Discrete.
///
/// | State | Event | Next |
/// |---|---|---|
/// | possible | tracked touch moved ≥ minimumTravel, reversing | count + 1; recognized at requiredStrokes |
/// | possible | tracked touch lifted or cancelled | fail |
/// | possible | any other touch | ignored |
public struct TickleRecognizer: CustomRecognizer {
    /// The horizontal direction of the last stroke.
    public enum StrokeDirection: Sendable, Hashable {
        case unknown
        case left
        case right
    }

    public let parameters: TickleParameters
    /// The first touch of the attempt; every other touch is ignored.
    public private(set) var tracked: TouchID?
    /// The tracked touch's latest position (mm), reported as the location.
    public private(set) var position = PhysicalPoint.zero
    /// x (mm) where the current stroke started.
    public private(set) var strokeStart = 0.0
    public private(set) var lastDirection = StrokeDirection.unknown
    /// Strokes counted so far.
    public private(set) var count = 0

    public init(parameters: TickleParameters = TickleParameters()) {
        self.parameters = parameters
    }

    public var kind: GestureKind { .custom("tickle") }
    public var isDiscrete: Bool { true }

    public mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        for touch in touches {
            if tracked == nil {
                tracked = touch.id
                position = touch.position
                strokeStart = touch.position.x
            } else {
                context.ignore(touch.id)
            }
        }
    }

    public mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        guard let tracked, let touch = touches.first(where: { $0.id == tracked }) else { return }
        position = touch.position
        let dx = touch.position.x - strokeStart
        guard abs(dx) >= parameters.minimumTravel else { return }
        let direction: StrokeDirection = dx < 0 ? .left : .right
        guard lastDirection == .unknown || direction != lastDirection else { return }
        count += 1
        strokeStart = touch.position.x
        lastDirection = direction
        if count >= parameters.requiredStrokes, context.state == .possible {
            context.request(.ended)
        }
    }

    public mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        if touches.contains(where: { $0.id == tracked }), context.state == .possible { context.fail() }
    }

    public mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        if touches.contains(where: { $0.id == tracked }), context.state == .possible { context.fail() }
    }

    public mutating func reset() {
        tracked = nil
        position = .zero
        strokeStart = 0
        lastDirection = .unknown
        count = 0
    }

    public func values(at now: Timestamp) -> GestureValues {
        GestureValues(
            fingers: tracked == nil ? 0 : 1,
            location: position,
            taps: count,
            values: ["strokes": Double(count)]
        )
    }
}
