/// Screen-edge pan, continuous (spec §4.4): a pan whose first touch starts within `startBand`
/// of a configured edge and whose first movement points inward (±`angleWindow`).
///
/// | State | Event | Next |
/// |---|---|---|
/// | possible | first touch farther than startBand from every edge | fail |
/// | possible | |L − F| ≥ hysteresis, inside the angle window | began |
/// | possible | |L − F| ≥ hysteresis, outside the window | fail |
/// | began/changed | as pan | changed / ended / cancelled |
struct EdgePanRecognizer: CustomRecognizer {
    let parameters: EdgePanParameters
    private var pan: PanRecognizer
    private(set) var edge: Edge?

    init(parameters: EdgePanParameters) {
        self.parameters = parameters
        var p = PanParameters()
        p.maximumNumberOfTouches = max(parameters.maximumNumberOfTouches, 1)
        // The pan never begins on its own; the edge test below decides.
        p.hysteresis = .infinity
        self.pan = PanRecognizer(parameters: p)
    }

    var kind: GestureKind { .edgePan }
    var isDiscrete: Bool { false }

    /// The inward unit normal of `edge` (y down).
    static func inwardNormal(_ edge: Edge) -> PhysicalPoint {
        switch edge {
        case .left: PhysicalPoint(x: 1, y: 0)
        case .right: PhysicalPoint(x: -1, y: 0)
        case .top: PhysicalPoint(x: 0, y: 1)
        case .bottom: PhysicalPoint(x: 0, y: -1)
        }
    }

    static func distance(of p: PhysicalPoint, to edge: Edge, width: Double, height: Double) -> Double {
        switch edge {
        case .left: p.x
        case .right: width - p.x
        case .top: p.y
        case .bottom: height - p.y
        }
    }

    /// The configured edge whose band holds `position` (the nearest, when bands overlap).
    func edge(at position: PhysicalPoint, surfaceWidth: Double, surfaceHeight: Double) -> Edge? {
        var best: (edge: Edge, distance: Double)?
        for candidate in Edge.allCases where parameters.edges.contains(candidate) {
            let d = Self.distance(of: position, to: candidate, width: surfaceWidth, height: surfaceHeight)
            if d <= parameters.startBand, best.map({ d < $0.distance }) ?? true { best = (candidate, d) }
        }
        return best?.edge
    }

    /// Idle, and a first touch at `position` is outside every band: ``touchesBegan(_:context:)``
    /// will fail at once.
    func failsOnFirstTouch(at position: PhysicalPoint, surfaceWidth: Double, surfaceHeight: Double) -> Bool {
        pan.held.isEmpty && edge == nil && edge(at: position, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight) == nil
    }

    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext) {
        if pan.held.isEmpty, edge == nil, let firstTouch = touches.first {
            guard let found = edge(at: firstTouch.position, surfaceWidth: context.surfaceWidth, surfaceHeight: context.surfaceHeight)
            else {
                context.fail()
                return
            }
            edge = found
        }
        pan.touchesBegan(touches, context: &context)
    }

    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext) {
        pan.touchesMoved(touches, context: &context)
        guard context.state == .possible, let edge else { return }
        let t = pan.last - pan.first
        let length = t.length
        guard length >= parameters.hysteresis else { return }
        let normal = Self.inwardNormal(edge)
        let cosine = (t.x * normal.x + t.y * normal.y) / length
        let angle = acosClamped(cosine)
        if angle <= parameters.angleWindow {
            pan.subtractHysteresis(parameters.hysteresis)
            context.request(.began)
        } else {
            context.fail()
        }
    }

    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext) {
        pan.touchesEnded(touches, context: &context)
    }

    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext) {
        pan.touchesCancelled(touches, context: &context)
    }

    mutating func reset() {
        pan.reset()
        edge = nil
    }

    mutating func willBeginAfterSatisfyingFailureRequirements() {
        pan.willBeginAfterSatisfyingFailureRequirements()
    }

    func values(at now: Timestamp) -> GestureValues {
        var v = pan.values(at: now)
        v.edge = edge
        return v
    }
}
