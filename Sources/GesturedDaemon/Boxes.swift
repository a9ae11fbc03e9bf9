import Synchronization

/// A value shared across domains behind a `Mutex` (STYLE.md B8).
final class Holder<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)
    func set(_ value: Value) { storage.withLock { $0 = value } }
    func get() -> Value? { storage.withLock { $0 } }
}

/// The configuration in force; swapped atomically on reload.
final class ConfigurationBox: Sendable {
    private let storage: Mutex<LoadedConfiguration>
    init(_ value: LoadedConfiguration) { storage = Mutex(value) }
    var value: LoadedConfiguration {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// A countdown shared by completion handlers.
final class Counter: Sendable {
    private let storage: Mutex<Int>
    init(_ value: Int) { storage = Mutex(value) }
    /// Decrements and returns the new value.
    func decrement() -> Int { storage.withLock { $0 -= 1; return $0 } }
}
