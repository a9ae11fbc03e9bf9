/// One concern of the ``TouchFilter``: palms by pressure or size, the edge and thumb bands,
/// held landings, lift debounce, fake fingers, the clicking finger, tap guards, jitter.
///
/// The model is libgestures' chain of `*FilterInterpreter`s, each a small object with one
/// job and its own timer, and libinput's `tp_palm_detect_*` predicates, which all read and
/// mark one shared touch record (`struct tp_touch`) and say why. A stage owns its own state
/// and settings; it reads and marks the frame in flight (``FilterFrame``: the input, the
/// shared ``ContactTable``, what is delivered) and never another stage: what it decides
/// travels in the table, as a contact's role with its reason, or as a flag. The filter
/// runs the stages of its device's chain (``TouchFilter/chain(for:settings:)``) in order:
/// every stage's ``begin(_:)``, then each touch of the frame through every stage's
/// ``process(_:in:)``, then every stage's ``end(_:)``.
protocol TouchFilterStage: Sendable {
    /// Before the frame's touches: reads what the frame says as a whole, and adds to
    /// ``FilterFrame/ahead`` what must reach the engine before it.
    mutating func begin(_ frame: inout FilterFrame)
    /// One touch of the frame, on its contact (``ContactStep``).
    mutating func process(_ step: inout ContactStep, in frame: inout FilterFrame)
    /// After the frame's touches.
    mutating func end(_ frame: inout FilterFrame)
    /// Fires the timers due at `frame.now` (a frame without input: only
    /// ``FilterFrame/ahead`` is delivered).
    mutating func fire(_ frame: inout FilterFrame)
    /// When this stage must fire next without a frame; nil when it waits for nothing.
    func nextDeadline(_ table: ContactTable) -> Timestamp?
    /// Forgets every contact (the device went away; the filter resets the table itself).
    mutating func reset()
}

extension TouchFilterStage {
    func begin(_ frame: inout FilterFrame) {}
    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {}
    func end(_ frame: inout FilterFrame) {}
    func fire(_ frame: inout FilterFrame) {}
    func nextDeadline(_ table: ContactTable) -> Timestamp? { nil }
    func reset() {}
}
