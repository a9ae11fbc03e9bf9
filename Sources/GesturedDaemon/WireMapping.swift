public import GestureEngine
public import GesturedProtocol

/// Maps engine values onto wire DTOs. The protocol module does not know the engine (STYLE.md
/// B3), so this is the one place where the two vocabularies meet.
public enum WireMapping {
    /// The decoded form of the line ``appendGesture(_:device:locked:consumed:audience:state:to:)``
    /// writes for `e` (what a client reads back): the reference the encoder is tested against,
    /// and what tools that show events print. Not on the daemon's per-frame path.
    public static func gestureMessage(_ e: GestureEvent, node: String, device: DeviceDescription) -> GestureEventMessage {
        let translation = e.translation.map { WireVector(x: rounded($0.x), y: rounded($0.y)) }
        let velocity = e.velocity.map { WireVector(x: rounded($0.x), y: rounded($0.y)) }
        var scaleVelocity: Double?
        var rotationVelocity: Double?
        if let v = e.scalarVelocity {
            if e.scale != nil { scaleVelocity = rounded(v) } else if e.rotation != nil { rotationVelocity = rounded(v) }
        }
        var message = GestureEventMessage(
            name: e.name,
            kind: e.kind.name,
            state: wireState(e.state),
            device: node,
            deviceName: device.name,
            timeUS: e.timestamp.microseconds,
            gestureID: GestureEventMessage.gestureID(device: node, sequence: e.sequence),
            fingers: e.fingers,
            centroidMM: WireVector(x: rounded(e.location.x), y: rounded(e.location.y)),
            centroidFraction: WireVector(x: rounded(e.locationFraction.x, places: 4), y: rounded(e.locationFraction.y, places: 4)),
            taps: e.taps,
            direction: e.direction?.rawValue,
            edge: e.edge?.rawValue,
            translationMM: translation,
            velocityMMPerS: velocity,
            scale: e.scale.map { rounded($0, places: 4) },
            scaleVelocity: scaleVelocity,
            rotation: e.rotation.map { rounded($0, places: 4) },
            rotationVelocity: rotationVelocity,
            approximateUnits: !device.hasResolution,
            values: e.values
        )
        addMotion(of: e, to: &message)
        return message
    }

    /// The decoded form of a touch line (as ``gestureMessage(_:node:device:)``).
    public static func touchMessage(_ t: SinkTouchEvent, node: String) -> TouchEventMessage {
        TouchEventMessage(
            device: node,
            timeUS: t.timestamp.microseconds,
            touchID: t.touch.rawValue,
            phase: wirePhase(t.phase),
            xMM: rounded(t.position.x),
            yMM: rounded(t.position.y)
        )
    }

    public static func wirePhase(_ phase: TouchPhase) -> WireTouchPhase {
        switch phase {
        case .began: .began
        case .moved, .stationary: .moved
        case .ended: .ended
        case .cancelled: .cancelled
        }
    }

    public static func wireState(_ s: GestureState) -> WireGestureState {
        switch s {
        case .began: .began
        case .changed: .changed
        case .ended: .ended
        case .cancelled: .cancelled
        case .recognized: .recognized
        // The engine never emits possible or failed as actions (spec §3.6); map defensively.
        case .possible, .failed: .cancelled
        }
    }

    /// Device facts for `list_devices` and `device_added`.
    public static func deviceInfo(node: String, device: DeviceDescription, kind: DeviceKind, gestures: [String], seat: String? = nil) -> DeviceInfo {
        DeviceInfo(
            device: node,
            name: device.name,
            kind: kind.rawValue,
            vendor: Int(device.vendor),
            product: Int(device.product),
            widthMM: rounded(device.widthMillimeters, places: 1),
            heightMM: rounded(device.heightMillimeters, places: 1),
            slots: device.slotCount,
            approximateUnits: !device.hasResolution,
            gestures: gestures,
            seat: seat
        )
    }

    /// Fixed decimals keep the JSON short and byte-stable across runs.
    static func rounded(_ value: Double, places: Int = 2) -> Double {
        guard value.isFinite else { return 0 }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
