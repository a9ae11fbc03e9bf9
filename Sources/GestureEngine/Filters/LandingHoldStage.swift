/// Landings whose pressure has not shown yet what they are (touchpads whose pressure means
/// pressure): a contact landing alone has its motion held back for
/// ``TouchFilterSettings/palmConfirmTime`` or until a second finger lands (palms land alone,
/// light, and reach palm pressure within ~130 ms after moving the pointer by up to 5 mm);
/// a contact whose slot has sent no pressure yet is not delivered until it sends one
/// (``TouchFilterSettings/holdsUnknownPressure``).
/// Touchpad chain only.
struct LandingHoldStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let facts: FilterDeviceFacts

    init(settings: TouchFilterSettings, facts: FilterDeviceFacts) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.facts = facts
    }

    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        guard step.state == .judging else { return }
        switch step.touch.phase {
        case .began:
            if step.contact.role == .finger && holdsUnknownPressure(step.touch, pressureSeen: frame.table.pressureSeen) {
                step.contact.role = .pressureCandidate
            }
            // Palms land alone: a contact joining a finger already down is not held back.
            begin(&step.contact, at: frame.now, table: frame.table)
        case .moved, .stationary:
            switch step.contact.role {
            case .pressureCandidate:
                // Its first known pressure is its landing one (a palm's is judged by PalmStage).
                if step.touch.pressure != nil { step.state = .releasing }
            case .finger:
                if let held = held(step.touch, &step.contact, at: frame.now, fingers: step.fingers) {
                    frame.out.append(held)
                    step.state = .done
                }
            case .edgeCandidate, .thumbCandidate, .palm, .clicking, .thumb:
                return
            }
        case .ended, .cancelled:
            return
        }
    }

    /// Whether a new contact is held back for its unknown pressure.
    func holdsUnknownPressure(_ touch: Touch, pressureSeen: Bool) -> Bool {
        // A finger's pressure changes from frame to frame; a contact whose slot has sent none
        // cannot be told from a palm until it does.
        settings.holdsUnknownPressure && pressureSeen && facts.pressureMaximum != nil
            && touch.pressure == nil && settings.enables(.unknownPressure)
    }

    /// Starts a new contact's confirmation when it lands alone.
    func begin(_ contact: inout FilterContact, at now: Timestamp, table: ContactTable) {
        if facts.pressureMaximum != nil && settings.palmConfirmTime > 0 && !table.hasFinger
            && settings.enables(.palmConfirm)
        {
            contact.confirmUntil = now.adding(seconds: settings.palmConfirmTime)
        }
    }

    /// A delivered finger still within its confirmation and alone: delivered where it was
    /// (stationary). Nil when it may move. A second finger ends the confirmation: palms land
    /// alone, and a multi-finger gesture must not lose its first millimetres.
    func held(_ touch: Touch, _ contact: inout FilterContact, at now: Timestamp, fingers: Int) -> Touch? {
        if let until = contact.confirmUntil, now < until, fingers < 2 {
            var held = touch
            held.previousPosition = contact.delivered
            held.position = contact.delivered
            held.phase = .stationary
            return held
        }
        if contact.confirmUntil != nil {
            contact.confirmUntil = nil
            // Confirmed (alone, or joined by a second finger): what it moved while held back
            // is dropped, not delivered as one jump (a palm not yet heavy enough moves on
            // from where it was).
            if settings.dropsConfirmedMotion { contact.jump.rebase(touch.position, to: contact.delivered) }
        }
        return nil
    }
}
