/// A palm's wobbling centre (touchpads reporting a position per contact): a contact alone
/// on the pad whose sensor steps jump back and forth ``TouchFilterSettings/palmReversalCount``
/// times is a palm, ``PalmReason/wobble``. A short step breaks the chain: a finger turning
/// slows down first. Judged before ``PalmStage``, on fingers and held-back contacts alike.
struct PalmWobbleStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings

    init(settings: TouchFilterSettings) {
        self.sharedSettings = SharedFilterSettings(settings)
    }

    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        guard step.state == .judging, step.touch.phase == .moved || step.touch.phase == .stationary, step.alone else { return }
        let touch = step.touch
        let motion = PhysicalPoint(x: touch.position.x - touch.previousPosition.x, y: touch.position.y - touch.previousPosition.y)
        let role = step.contact.role
        guard jumpsBack(motion, &step.contact), role != .palm, role != .clicking, role != .thumb else { return }
        step.contact.makePalm(.wobble)
        if role == .finger {
            frame.out.append(touch.withdrawn(at: step.contact.delivered, reason: .wobble))
        }
        step.state = .done
    }

    /// Notes a sensor step of a contact; true when it has now jumped back and forth
    /// ``TouchFilterSettings/palmReversalCount`` times.
    func jumpsBack(_ step: PhysicalPoint, _ contact: inout FilterContact) -> Bool {
        guard settings.palmReversalCount > 0, settings.enables(.wobble) else { return false }
        let length = (step.x * step.x + step.y * step.y).squareRoot()
        guard length >= settings.palmReversalStep else {
            contact.lastStep = nil
            return false
        }
        if let last = contact.lastStep {
            let lastLength = (last.x * last.x + last.y * last.y).squareRoot()
            // Turning back by more than 120°: cos < −0.5.
            if step.x * last.x + step.y * last.y < -0.5 * length * lastLength { contact.reversals += 1 }
        }
        contact.lastStep = step
        return contact.reversals >= settings.palmReversalCount
    }
}
