// Raw touches to the sink (spec §7): cancelsTouchesInView, delaysTouchesBegan,
// delaysTouchesEnded. The sink's output of a step precedes the step's gesture actions, so
// cancellations always come before the action that caused them.

extension GestureEngine {
    /// §5.4 step 4: slot `i` began or recognized; its touches leave the sink.
    mutating func takeTouches(of i: Int) {
        let configuration = slots[i].configuration
        for id in slots[i].history {
            guard let r = sink.firstIndex(where: { $0.id == id }) else { continue }
            if configuration.cancelsTouchesInView {
                sink[r].owned = true
            }
            if configuration.delaysTouchesBegan, !sink[r].reached {
                // The sink never saw this touch: drop the buffer, never forward it.
                sink[r].owned = true
            }
            // delaysTouchesEnded only matters for an end that is (or is about to be) withheld:
            // a recognizer that recognizes after the lift turns it into a cancellation.
            if configuration.delaysTouchesEnded,
                sink[r].heldEnd != nil || sink[r].incoming.contains(where: { $0.phase == .ended })
            {
                sink[r].endCancelled = true
            }
        }
    }

    mutating func markOwned(_ id: TouchID, by i: Int) {
        if let r = sink.firstIndex(where: { $0.id == id }) { sink[r].owned = true }
    }

    /// Whether recognizers still deciding about `id` hold back its began/moved and its end.
    func delays(for id: TouchID) -> (began: Bool, ended: Bool) { Self.delays(for: id, in: slots) }

    /// ``delays(for:)`` as a static function: called from a mutating method, an instance
    /// method made the compiler copy the whole engine first.
    static func delays(for id: TouchID, in slots: [Slot]) -> (began: Bool, ended: Bool) {
        var began = false
        var ended = false
        for i in slots.indices where slots[i].state == .possible && slots[i].history.contains(id) {
            began = began || slots[i].configuration.delaysTouchesBegan
            ended = ended || slots[i].configuration.delaysTouchesEnded
        }
        return (began, ended)
    }

    /// True when some slot could delay a touch at all (``delays(for:)`` is then worth asking):
    /// while every recognizer holding touches has begun, none does.
    static func mayDelayTouches(_ slots: [Slot]) -> Bool {
        for i in slots.indices
        where slots[i].state == .possible && !slots[i].history.isEmpty
            && (slots[i].configuration.delaysTouchesBegan || slots[i].configuration.delaysTouchesEnded)
        {
            return true
        }
        return false
    }

    /// Step 5 of spec §5.5.
    mutating func deliverToSink() {
        guard deliversTouches, !sink.isEmpty else { return }
        let mayDelay = Self.mayDelayTouches(slots)
        for r in sink.indices {
            if sink[r].finished {
                sink[r].incoming.removeAll(keepingCapacity: true)
                continue
            }
            let delay =
                sink[r].owned || !mayDelay ? (began: false, ended: false) : Self.delays(for: sink[r].id, in: slots)
            // `sink` and `sinkOutput` are distinct stored properties: the record is changed in
            // place, its arrays uniquely referenced, without moving it out and back.
            Self.deliver(&sink[r], delay: delay, now: now, into: &sinkOutput)
        }
    }

    private static func deliver(
        _ record: inout SinkRecord,
        delay: (began: Bool, ended: Bool),
        now: Timestamp,
        into output: inout [SinkTouchEvent]
    ) {
        if record.owned {
            if record.reached {
                output.append(
                    SinkTouchEvent(
                        touch: record.id, phase: .cancelled, timestamp: now, position: record.position, slot: record.slot)
                )
            }
            record.finished = true
            record.buffer.removeAll()
            record.heldEnd = nil
            record.incoming.removeAll(keepingCapacity: true)
            return
        }
        for event in record.incoming {
            switch event.phase {
            case .began, .moved, .stationary:
                if delay.began {
                    record.buffer.append(event)
                } else {
                    flush(&record, into: &output)
                    output.append(event)
                    if event.phase == .began { record.reached = true }
                }
            case .ended:
                record.heldEnd = event
            case .cancelled:
                if record.reached {
                    output.append(event)
                }
                record.finished = true
                record.buffer.removeAll()
                record.heldEnd = nil
            }
        }
        record.incoming.removeAll(keepingCapacity: true)
        if !record.finished {
            if !delay.began { flush(&record, into: &output) }
            if let end = record.heldEnd, record.buffer.isEmpty, !delay.ended {
                if record.endCancelled {
                    if record.reached {
                        output.append(
                            SinkTouchEvent(
                                touch: end.touch, phase: .cancelled, timestamp: now, position: end.position, slot: end.slot)
                        )
                    }
                } else {
                    output.append(end)
                }
                record.heldEnd = nil
                record.finished = true
            }
        }
    }

    private static func flush(_ record: inout SinkRecord, into output: inout [SinkTouchEvent]) {
        guard !record.buffer.isEmpty else { return }
        for event in record.buffer {
            output.append(event)
            if event.phase == .began { record.reached = true }
        }
        record.buffer.removeAll(keepingCapacity: true)
    }

    /// Forgets touches that are gone from the device and settled at the sink.
    mutating func dropFinishedTouches() {
        func done(_ r: SinkRecord) -> Bool { r.deviceDone && (r.finished || r.owned) && r.heldEnd == nil }
        guard sink.contains(where: done) else { return }
        forgetSinkRecords(where: done)
    }

    /// Removes the sink records `done` picks; their event arrays are kept for the next
    /// touches' records (no allocation per touch).
    mutating func forgetSinkRecords(where done: (SinkRecord) -> Bool) {
        for r in sink.indices where done(sink[r]) && spareSinkEvents.count < Self.spareSinkEventsLimit {
            var taken: [SinkTouchEvent] = []
            swap(&taken, &sink[r].incoming)
            taken.removeAll(keepingCapacity: true)
            spareSinkEvents.append(taken)
        }
        sink.removeAll(where: done)
    }
}
