/// A recognizer's behaviour: the hooks of spec §3.2. Built-in recognizers conform to it, and so
/// can user types, which are then configured with ``RecognizerKind/custom(_:)``.
///
/// A conforming type is a value: the engine keeps one copy per configured recognizer, calls
/// the hooks with the recognizer's touches (its region, its policy) and resolves the state
/// requests made through the ``RecognizerContext`` with the same arbitration as every built-in
/// recognizer. ``TickleRecognizer`` is the worked example.
public protocol CustomRecognizer: Sendable, Hashable {
    /// The family reported in events (`.custom("tickle")`).
    var kind: GestureKind { get }
    /// Discrete recognizers go `possible → ended` (reported as `recognized`); continuous ones
    /// `possible → began → changed* → ended | cancelled`.
    var isDiscrete: Bool { get }

    /// New touches offered to the recognizer (phase `began`), in touch-id order.
    mutating func touchesBegan(_ touches: [Touch], context: inout RecognizerContext)
    /// Held touches that moved in this step.
    mutating func touchesMoved(_ touches: [Touch], context: inout RecognizerContext)
    /// Held touches that lifted in this step; they are no longer held afterwards.
    mutating func touchesEnded(_ touches: [Touch], context: inout RecognizerContext)
    /// Held touches the device cancelled (palm, SYN_DROPPED, device gone).
    mutating func touchesCancelled(_ touches: [Touch], context: inout RecognizerContext)
    /// A timer scheduled with ``RecognizerContext/schedule(_:after:)`` fired.
    mutating func timerFired(_ token: Int, context: inout RecognizerContext)
    /// Clears per-attempt data. Never changes state: the engine resets after a final state.
    mutating func reset()
    /// Called when a pending `began` is released after the recognizers it waited for failed
    /// (pan zeroes its translation here).
    mutating func willBeginAfterSatisfyingFailureRequirements()
    /// The values reported with an action taken now.
    func values(at now: Timestamp) -> GestureValues
    /// Whether this recognizer, once begun, may exclude `other` (UIKit `canPrevent`).
    func canPrevent(_ other: RecognizerKind) -> Bool
    /// Whether `other`, once begun, may exclude this recognizer (UIKit `canBePrevented(by:)`).
    func canBePrevented(by other: RecognizerKind) -> Bool
    /// Whether this recognizer waits for `other` to fail (UIKit `shouldRequireFailure(of:)`).
    /// The answer depends only on the two kinds, so the engine asks once per configuration.
    func shouldRequireFailure(of other: RecognizerKind) -> Bool
    /// Whether `other` waits for this recognizer to fail (UIKit `shouldBeRequiredToFail(by:)`).
    func shouldBeRequiredToFail(by other: RecognizerKind) -> Bool
}

extension CustomRecognizer {
    public mutating func timerFired(_ token: Int, context: inout RecognizerContext) {}
    public mutating func willBeginAfterSatisfyingFailureRequirements() {}
    public func canPrevent(_ other: RecognizerKind) -> Bool { true }
    public func canBePrevented(by other: RecognizerKind) -> Bool { true }
    public func shouldRequireFailure(of other: RecognizerKind) -> Bool { false }
    public func shouldBeRequiredToFail(by other: RecognizerKind) -> Bool { false }
}

/// A type-erased custom recognizer for ``RecognizerKind/custom(_:)``: the value is the
/// recognizer's initial state; equality and hashing are those of the wrapped value.
public struct AnyCustomRecognizer: Hashable, Sendable {
    /// The recognizer's initial value; the engine copies it for each configured recognizer.
    public let recognizer: any CustomRecognizer

    public init(_ recognizer: some CustomRecognizer) {
        self.recognizer = recognizer
    }

    public static func == (lhs: AnyCustomRecognizer, rhs: AnyCustomRecognizer) -> Bool {
        AnyHashable(lhs.recognizer) == AnyHashable(rhs.recognizer)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(recognizer))
    }
}
