import GestureEngine
import GesturedLogging
import GesturedProtocol

extension InputHub {
    /// Encodes one step's engine outputs of a device, each line once, and publishes them
    /// (DESIGN.md "Daemon, event loop and socket protocol" › "The wire"): the lock policy and the grab's `touches_consumed` are
    /// decided per event before it is written, so nothing is rewritten after.
    /// - Parameters:
    ///   - wire: the device as every line names it, made once when its session opened.
    ///   - consuming: the gestures whose touches the grab's clone withholds (nil: no clone).
    func publishOutputs(_ outputs: [EngineOutput], wire: WireDevice, seat: String, consuming: Set<String>?) {
        guard !outputs.isEmpty else { return }
        let batch = takeBatch()
        let node = wire.node
        let touches = publisher.wantsTouches
        var locked: Bool?
        var gestures = 0
        for i in outputs.indices {
            switch outputs[i] {
            case .gesture(let e):
                gestures += 1
                // Asked once per batch, only when it holds a gesture.
                let isLocked = locked ?? state.seatSessions.isLocked(seat: seat)
                locked = isLocked
                let consumed = consuming.map { !$0.isEmpty && $0.contains(e.name) } ?? false
                let wireState = WireMapping.wireState(e.state)
                let attempt = CoalesceKey.attempt(device: node, sequence: e.sequence)
                let written: Bool
                switch lockGate.decide(name: e.name, state: wireState, attempt: attempt, locked: isLocked) {
                case .everyone:
                    written = WireMapping.appendGesture(e, device: wire, locked: isLocked, consumed: consumed, to: batch)
                case .rootOnly:
                    written = WireMapping.appendGesture(e, device: wire, locked: isLocked, consumed: consumed, audience: .root, to: batch)
                case .cancelledForOthers:
                    written =
                        WireMapping.appendGesture(e, device: wire, locked: isLocked, consumed: consumed, audience: .root, to: batch)
                        && WireMapping.appendGesture(
                            e, device: wire, locked: isLocked, consumed: consumed, audience: .others, state: .cancelled, to: batch)
                }
                if !written {
                    // Only a custom recognizer's value can be NaN or infinite (the others are rounded).
                    logger.error("Failed to encode a gesture event (a value is not finite), dropping it", [("device.node", node), ("gesture", e.name)])
                }
            case .touch(let t):
                if touches { WireMapping.appendTouch(t, device: wire, to: batch) }
            }
        }
        if gestures > 0 { state.addGesturesEmitted(gestures) }
        if !batch.isEmpty { publisher.publish(batch) }
    }

    /// The batch to fill next (``BatchPool``): one of the kept ones that nothing holds any
    /// more, so a frame costs no allocation here.
    private func takeBatch() -> EncodedBatch { publishBatches.take() }
}
