public import GestureEngine
public import GesturedProtocol

/// Maps engine values onto wire DTOs. The protocol module does not know the engine (STYLE.md
/// B3), so this is the one place where the two vocabularies meet.
public enum WireMapping {
    /// The `gesture`/`touch` messages for one batch of engine outputs of a device.
    /// - Parameter touches: map the raw touches too (only when someone subscribed to them).
    public static func messages(
        for outputs: [EngineOutput],
        node: String,
        device: DeviceDescription,
        touches: Bool = true
    ) -> [PublishedEvent] {
        var messages: [PublishedEvent] = []
        for output in outputs {
            switch output {
            case .gesture(let event): messages.append(.gesture(gestureMessage(event, node: node, device: device)))
            case .touch(let touch): if touches { messages.append(.touch(touchMessage(touch, node: node))) }
            }
        }
        return messages
    }

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

    public static func touchMessage(_ t: SinkTouchEvent, node: String) -> TouchEventMessage {
        let phase: WireTouchPhase
        switch t.phase {
        case .began: phase = .began
        case .moved, .stationary: phase = .moved
        case .ended: phase = .ended
        case .cancelled: phase = .cancelled
        }
        return TouchEventMessage(
            device: node,
            timeUS: t.timestamp.microseconds,
            touchID: t.touch.rawValue,
            phase: phase,
            xMM: rounded(t.position.x),
            yMM: rounded(t.position.y)
        )
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
