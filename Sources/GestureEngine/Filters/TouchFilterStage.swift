/// One concern of the ``TouchFilter``: palms by pressure or size, the edge and thumb bands,
/// held landings, lift debounce, fake fingers, the clicking finger, tap guards, jitter.
///
/// The model is libgestures' chain of `*FilterInterpreter`s, each a small object with one
/// job and its own timer, and libinput's `tp_palm_detect_*` predicates, which all read and
/// mark one shared touch record (`struct tp_touch`) and say why. A stage here owns its own
/// state and settings, reads and marks the shared ``ContactTable``, and says when it next
/// needs to run without a frame; the ``TouchFilter`` runs the stages in a fixed order and
/// takes the earliest deadline.
protocol TouchFilterStage: Sendable {
    /// When this stage must run next without a frame (``TouchFilter/flush(upTo:before:)``);
    /// nil when it waits for nothing.
    var nextDeadline: Timestamp? { get }
    /// Forgets every contact (the device went away).
    mutating func reset()
}

extension TouchFilterStage {
    var nextDeadline: Timestamp? { nil }
}
