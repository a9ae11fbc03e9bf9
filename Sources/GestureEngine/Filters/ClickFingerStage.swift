/// The clicking finger: while the physical button is held, a finger that stays where it
/// pressed while another finger drags is taken out (``PalmReason/clickingFinger``), so the
/// dragging finger alone moves the pointer (click with one finger, drag with another; libinput
/// excludes the clicking finger alike). Fingers down during a press end with
/// ``NoTapReason/click``: a click must not also be a tap. In both chains.
struct ClickFingerStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    /// Some contact, in the table or in a held-back lift, may still carry a press anchor.
    /// While it is false and the button is up, a frame has nothing to note: a contact's
    /// position (``FilterContact/current``) is read only while the button is down, and is
    /// noted again in the frame that presses it.
    private var mayHoldAnchors = false

    init(settings: TouchFilterSettings) {
        self.sharedSettings = SharedFilterSettings(settings)
    }

    mutating func reset() {
        mayHoldAnchors = false
    }

    /// A contact ending that pressed the button clicked: its lift is no tap
    /// (``FilterContact/clicked``).
    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        guard step.state == .judging, step.touch.phase == .ended || step.touch.phase == .cancelled else { return }
        step.contact.clicked = step.contact.pressedButton && settings.clicksCancelTouches && settings.enables(.clickNoTap)
    }

    mutating func end(_ frame: inout FilterFrame) {
        step(frame.input, table: &frame.table, liftsHeld: !frame.table.lifted.isEmpty, into: &frame.out)
    }

    /// Notes each contact's position and where it was when the button went down; appends
    /// the cancels of clicking fingers to `out`.
    /// - Parameter liftsHeld: some lift is held back (its contact may return with its anchor).
    private mutating func step(_ frame: Frame, table: inout ContactTable, liftsHeld: Bool, into out: inout [Touch]) {
        if !frame.isButtonPressed && !mayHoldAnchors { return }
        for touch in frame.touches {
            let id = table.resolved(touch.id)
            guard var contact = table[id] else { continue }
            contact.current = touch.position
            if !frame.isButtonPressed {
                contact.pressAnchor = nil
            } else if contact.pressAnchor == nil {
                contact.pressAnchor = touch.position
                contact.pressedButton = true
            }
            table[id] = contact
        }
        // Once the button is up, the frame's contacts have dropped their anchors; one can be
        // left only on a contact held back as a lift (it returns with its record).
        mayHoldAnchors = frame.isButtonPressed || liftsHeld || table.contacts.values.contains { $0.pressAnchor != nil }
        guard frame.isButtonPressed, settings.clickingFingerDistance > 0, settings.enables(.clickingFinger) else { return }
        let dragging = table.contacts.values.contains { contact in
            guard contact.role == .finger, let anchor = contact.pressAnchor else { return false }
            return distance(contact.current, anchor) >= settings.clickingFingerDistance
        }
        guard dragging else { return }
        let first = out.count
        for (id, contact) in table.contacts where contact.role == .finger {
            guard let anchor = contact.pressAnchor, distance(contact.current, anchor) < settings.clickingFingerDistance / 2
            else { continue }
            var cancelled = Touch(
                id: id, phase: .cancelled, position: contact.delivered, previousPosition: contact.delivered,
                startPosition: contact.start, startTime: contact.startTime)
            cancelled.flags.palm = .clickingFinger
            out.append(cancelled)
        }
        // Marked after the loop: changing the table while iterating it would copy it.
        for index in first..<out.count { table[out[index].id]?.makePalm(.clickingFinger) }
    }
}
