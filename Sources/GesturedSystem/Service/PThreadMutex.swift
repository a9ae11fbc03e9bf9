internal import Glibc

/// A value behind a `pthread_mutex_t`, for state shared between threads (the event loop's
/// job queue, the signal thread's table, a main task's result).
///
/// Why not `Synchronization.Mutex`: on Linux it locks with an atomic and a futex inside the
/// standard library, which is not built with ThreadSanitizer's instrumentation, so the
/// sanitizer sees the accesses it protects but not the lock, and reports a race that is not
/// one (`EventLoop.submit` against `runPending`). ThreadSanitizer intercepts
/// `pthread_mutex_lock`, so with this lock it checks the real ordering. Uncontended, both are
/// one atomic instruction in and one out.
public final class PThreadMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
