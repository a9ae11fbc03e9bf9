import GesturedCLISupport
public import GesturedProtocol

/// A `subscribe` whose filters name what does not exist is refused (issue 34): a kind no
/// `Kind=` can configure, or a gesture the running daemon has not configured. Answered `ok`,
/// it would only ever deliver nothing.
public enum SubscribeValidation {
    /// Why the filters of `request` cannot match, naming the accepted values; nil when fine.
    /// - Parameter configuredGestures: the gesture names in effect; nil skips that check.
    public static func problem(in request: SubscribeRequest, configuredGestures: [String]?) -> String? {
        let kinds = SubscribeRequest.knownKinds
        for (index, kind) in (request.kinds ?? []).enumerated() where !kinds.contains(kind) {
            return "subscribe: kinds[\(index)]: unknown kind '\(kind)'\(didYouMean(kind, among: kinds)) (known: \(kinds.joined(separator: ", ")))"
        }
        guard let configuredGestures else { return nil }
        for (index, name) in (request.gestures ?? []).enumerated() where !configuredGestures.contains(name) {
            let known = configuredGestures.isEmpty ? "none are configured" : "configured: \(configuredGestures.joined(separator: ", "))"
            return "subscribe: gestures[\(index)]: no gesture named '\(name)' is configured\(didYouMean(name, among: configuredGestures)) (\(known))"
        }
        return nil
    }
}
