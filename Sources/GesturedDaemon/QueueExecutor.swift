public import Dispatch

/// A serial executor backed by a `DispatchQueue`, so an actor's code, its Dispatch sources and
/// its timer all run on one queue (STYLE.md B8; Linux has no `DispatchSerialQueue`).
///
/// `@unchecked Sendable`: the only state is the queue, which is itself thread-safe.
public final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    public let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { unownedJob.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
