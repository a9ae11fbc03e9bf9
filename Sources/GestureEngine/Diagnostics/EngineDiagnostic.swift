/// Something the engine noticed that the caller may want to log (the engine never logs).
public enum EngineDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A recognizer changed state: `gesture 'name': possible → began (input)`.
    case transition(recognizer: String, from: GestureState, input: String, to: GestureState)
    /// The device sent something that breaks the protocol; dropped and counted.
    case kernelBug(String)
    /// The engine caught itself in an impossible state.
    case engineBug(String)
    /// A configuration problem found when building the engine (e.g. a require-to-fail cycle).
    case configuration(String)
    /// The touch filter decided something about a contact, and why (`palm(.pressure)`).
    case touchFilter(TouchFilterDecision)

    public var description: String {
        switch self {
        case .transition(let recognizer, let from, let input, let to):
            "gesture '\(recognizer)': \(from.rawValue) → \(to.rawValue) (\(input))"
        case .kernelBug(let message): "kernel bug: \(message)"
        case .engineBug(let message): "engine bug: \(message)"
        case .configuration(let message): "configuration: \(message)"
        case .touchFilter(let decision): "touch filter: \(decision)"
        }
    }
}
