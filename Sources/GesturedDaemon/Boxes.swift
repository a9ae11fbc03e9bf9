internal import GesturedSystem

/// A value shared across domains behind a `Mutex` (STYLE.md B8).
final class Holder<Value: Sendable>: Sendable {
    private let storage = PThreadMutex<Value?>(nil)
    func set(_ value: Value) { storage.withLock { $0 = value } }
    func get() -> Value? { storage.withLock { $0 } }
}

/// The configuration in force; swapped atomically on reload.
final class ConfigurationBox: Sendable {
    private let storage: PThreadMutex<LoadedConfiguration>
    init(_ value: LoadedConfiguration) { storage = PThreadMutex(value) }
    var value: LoadedConfiguration {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// A countdown shared by completion handlers.
final class Counter: Sendable {
    private let storage: PThreadMutex<Int>
    init(_ value: Int) { storage = PThreadMutex(value) }
    /// Decrements and returns the new value.
    func decrement() -> Int { storage.withLock { $0 -= 1; return $0 } }
}
