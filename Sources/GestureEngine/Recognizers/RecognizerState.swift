/// The state of one recognizer (spec §3.1). `ended` of a discrete recognizer is "recognized".
///
/// The engine keeps the authoritative state; a recognizer only *requests* transitions through
/// ``RecognizerContext/request(_:)`` and the arena decides (spec §5.3).
public enum RecognizerState: String, Sendable, Hashable, CaseIterable {
    case possible
    case began
    case changed
    case ended
    case cancelled
    case failed

    /// `ended`, `cancelled` or `failed`: the attempt is over and the engine resets the recognizer
    /// at the end of the step.
    public var isFinal: Bool {
        switch self {
        case .ended, .cancelled, .failed: true
        case .possible, .began, .changed: false
        }
    }

    /// `began` or `changed`: a continuous gesture in progress.
    public var isActive: Bool {
        switch self {
        case .began, .changed: true
        case .possible, .ended, .cancelled, .failed: false
        }
    }
}

/// Whether a transition is legal for discrete recognizers, continuous ones, or only for the
/// engine's own reset (spec §3.1).
public enum TransitionKind: String, Sendable, Hashable, CaseIterable {
    case discrete
    case continuous
    case both
    /// Only the engine's end-of-step reset may take it.
    case engineReset
}

/// The legal-transition table of spec §3.1, the single source the engine consults and the
/// exhaustive test enumerates.
public enum RecognizerTransitions {
    /// One legal transition.
    public struct Entry: Sendable, Hashable {
        public var from: RecognizerState
        public var to: RecognizerState
        public var kind: TransitionKind
    }

    /// Every legal transition; anything absent is a programming error.
    public static let table: [Entry] = [
        Entry(from: .possible, to: .began, kind: .continuous),
        Entry(from: .possible, to: .ended, kind: .discrete),
        Entry(from: .possible, to: .failed, kind: .both),
        Entry(from: .began, to: .changed, kind: .continuous),
        Entry(from: .began, to: .ended, kind: .continuous),
        Entry(from: .began, to: .cancelled, kind: .continuous),
        Entry(from: .changed, to: .changed, kind: .continuous),
        Entry(from: .changed, to: .ended, kind: .continuous),
        Entry(from: .changed, to: .cancelled, kind: .continuous),
        Entry(from: .ended, to: .possible, kind: .engineReset),
        Entry(from: .cancelled, to: .possible, kind: .engineReset),
        Entry(from: .failed, to: .possible, kind: .engineReset),
    ]

    /// True when a recognizer (discrete or not) may *request* `from → to`. Engine resets are
    /// not requests and are never legal here.
    public static func isLegalRequest(from: RecognizerState, to: RecognizerState, isDiscrete: Bool) -> Bool {
        for entry in table where entry.from == from && entry.to == to {
            switch entry.kind {
            case .both: return true
            case .discrete: return isDiscrete
            case .continuous: return !isDiscrete
            case .engineReset: return false
            }
        }
        return false
    }

    /// True when the engine's reset may take `from → to`.
    public static func isLegalReset(from: RecognizerState, to: RecognizerState) -> Bool {
        table.contains { $0.from == from && $0.to == to && $0.kind == .engineReset }
    }
}
