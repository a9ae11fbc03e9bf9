public import GestureEngine

/// The events that give a freshly opened device's ``FrameAssembler`` every slot's last
/// values. The kernel sends only changed values: a finger landing where its slot's last
/// finger was (the same column, as in a vertical scroll) reports no X, and an assembler that
/// never saw that last finger would place the new one at 0 — in the left edge band, where
/// edge-left holds it back. Values of a slot without a contact count only in a resync (spec
/// §2.2), so the values go in the `SYN_DROPPED` shape; with no contact known yet it cancels
/// nothing and the engine sees no frame.
public enum SlotSeed {
    /// - Parameter slotValues: per-slot values and their `SYN_REPORT`
    ///   (`EvdevDevice.slotValueEvents(at:)`); empty for devices without slots.
    public static func events(_ slotValues: [RawEvent], at time: Timestamp) -> [RawEvent] {
        guard !slotValues.isEmpty else { return [] }
        return [RawEvent(time: time, usage: .synDropped, value: 0)] + slotValues
    }
}
