/// Semi-MT pads (`INPUT_PROP_SEMI_MT`: their two slots carry the corners of the box around
/// the fingers, not the fingers): the step a contact makes in a frame where the finger count
/// changes is taken out as a jump. The box changes shape when a finger lands or lifts, and
/// its corners leap by millimetres while no finger moved. libinput does the same for every
/// semi-MT touchpad (it resets a touch's motion history when `nfingers_down` changes, and
/// its tap motion test ignores motion in such a frame). In the touchpad chain of a semi-MT
/// device only, right after the contact's sensor jump filter took the frame's step.
struct SemiMTStage: TouchFilterStage {
    /// The finger count of the frame before (`BTN_TOOL_*`, else the contacts down).
    private var lastCount: Int?

    mutating func begin(_ frame: inout FilterFrame) {
        let input = frame.input
        let count = input.fingerCount ?? input.touches.count(where: { $0.phase != .ended && $0.phase != .cancelled })
        frame.countChanged = lastCount.map { $0 != count } ?? false
        lastCount = count
    }

    /// Takes the sensor step of a continuing contact out of what is delivered.
    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        guard frame.countChanged else { return }
        let touch = step.touch
        switch touch.phase {
        case .moved, .stationary:
            guard step.state != .absent, let previous = step.unjumpedPrevious else { return }
            step.contact.jump.rebase(touch.position, to: previous)
        case .ended:
            guard step.state == .judging, step.contact.role == .finger else { return }
            step.contact.jump.rebase(touch.position, to: step.contact.jump.position(for: touch.previousPosition))
        case .began, .cancelled:
            return
        }
    }

    mutating func reset() {
        lastCount = nil
    }
}
