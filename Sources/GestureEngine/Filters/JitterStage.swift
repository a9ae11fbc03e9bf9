/// Sensor jitter and jumps on delivered contacts: ``PositionHysteresis`` at rest, or a
/// ``BoxFilter`` where ``TouchFilterSettings/boxSize`` is set, after the
/// ``SensorJumpFilter`` (libgestures' `BoxFilterInterpreter` and
/// `SensorJumpFilterInterpreter`, which the ChromiumOS library chains the same way).
///
/// Last in both chains: it delivers what the stages before it let through — a finger's
/// position through its filters, a held-back contact turned finger as beginning here, a
/// finger's end with the flags it carries (a click's or a guarded tap's), a held-back
/// contact's quick still touch as a tap.
struct JitterStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings

    init(settings: TouchFilterSettings) {
        self.sharedSettings = SharedFilterSettings(settings)
    }

    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        switch step.state {
        case .absent, .done, .lifting:
            return
        case .releasing:
            frame.out.append(release(step.touch, &step.contact, at: frame.now))
            step.state = .done
        case .delivering:
            frame.out.append(deliver(step.touch, &step.contact))
            step.state = .done
        case .judging:
            switch step.touch.phase {
            case .began:
                if step.contact.role == .finger { frame.out.append(step.touch) }
            case .moved, .stationary:
                if step.contact.role == .finger { frame.out.append(deliver(step.touch, &step.contact)) }
            case .ended, .cancelled:
                ended(&step, in: &frame)
            }
        }
    }

    /// A finger's end, or a held-back contact's tap, as ``ContactStep/State/lifting``.
    private func ended(_ step: inout ContactStep, in frame: inout FilterFrame) {
        let touch = step.touch
        let now = frame.now
        if step.contact.role == .finger {
            guard touch.phase == .ended else {
                var last = touch
                last.position = step.contact.delivered
                last.previousPosition = step.contact.delivered
                frame.out.append(last)
                step.state = .done
                return
            }
            var last = deliver(touch, &step.contact)
            // A finger that pressed the button clicked, and a click must not also be a tap; a
            // short touch beside or right after a scroll (and the other TapGuardStage cases)
            // is not a tap either. It ends as it did, `ended`, marked: the tap recognizer fails
            // on it, and a gesture it was part of ends rather than being cancelled.
            if step.contact.clicked {
                last.flags.noTap = .click
            } else if let reason = step.contact.noTap, now - step.contact.startTime <= settings.scrollTapMaximumDuration {
                last.flags.noTap = reason
            }
            step.lift([last], at: last.position, start: last.startPosition, startTime: last.startTime)
        } else if step.contact.role.isCandidate {
            let tap = heldTap(touch, step.contact, at: now, table: frame.table)
            guard touch.phase == .ended else {
                frame.out.append(contentsOf: tap)
                step.state = .done
                return
            }
            step.lift(tap, at: touch.position, start: step.contact.start, startTime: step.contact.startTime)
        }
    }

    /// A quick, still touch in a band is a tap there, not a palm or a thumb — unless it
    /// clicked, is no tap, or a palm is on the pad (the same hand's edge brushing it).
    private func heldTap(_ touch: Touch, _ contact: FilterContact, at now: Timestamp, table: ContactTable) -> [Touch] {
        guard touch.phase == .ended, settings.enables(.heldTap), !contact.clicked, contact.noTap == nil,
            !table.contacts.values.contains(where: { $0.role == .palm }),
            now - contact.startTime <= settings.heldTapDuration,
            distance(touch.position, contact.start) <= settings.heldTapMovement
        else { return [] }
        var began = touch
        began.phase = .began
        began.startPosition = contact.start
        began.position = contact.start
        began.previousPosition = contact.start
        began.startTime = contact.startTime
        var ended = began
        ended.phase = .ended
        return [began, ended]
    }

    /// A held-back contact becomes a finger: delivered as beginning here and now.
    private func release(_ touch: Touch, _ contact: inout FilterContact, at now: Timestamp) -> Touch {
        contact.role = .finger
        // Delivered from here on; the sensor jump filter keeps judging steps against the ones
        // it saw while the contact was held back.
        contact.jump.rebase(touch.position, to: touch.position)
        contact.hysteresis = PositionHysteresis(radius: settings.hysteresis, position: touch.position)
        contact.box = nil
        contact.delivered = touch.position
        var began = touch
        began.phase = .began
        began.startPosition = touch.position
        began.previousPosition = touch.position
        began.startTime = now
        return began
    }

    /// A finger's touch with the filtered position.
    private func deliver(_ touch: Touch, _ contact: inout FilterContact) -> Touch {
        var out = touch
        out.previousPosition = contact.delivered
        let unjumped = contact.jump.position(for: touch.position)
        if contact.box == nil && settings.boxSize > 0 { contact.box = BoxFilter(size: settings.boxSize, position: contact.delivered) }
        out.position =
            contact.box != nil
            ? contact.box!.update(unjumped) : settings.enables(.hysteresis) ? contact.hysteresis.update(unjumped) : unjumped
        if out.phase == .moved && out.position == out.previousPosition { out.phase = .stationary }
        if out.phase == .stationary && out.position != out.previousPosition { out.phase = .moved }
        contact.delivered = out.position
        return out
    }
}
