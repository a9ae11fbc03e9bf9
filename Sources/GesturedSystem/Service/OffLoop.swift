internal import Glibc

/// Runs `work` on a short-lived thread of its own and returns its result to the caller's
/// executor: blocking work (reading and parsing the configuration on reload) that must not
/// hold up an event loop. A plain thread rather than `@concurrent`, whose generic executor is
/// libdispatch's worker pool (its 1 Hz monitor would then tick for the rest of the daemon's
/// life: DESIGN.md, "Zero wake-ups when idle").
public func runOnOwnThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
        // One type-erased job (a type cannot be nested in a generic closure).
        let job = OwnThreadJob { continuation.resume(returning: work()) }
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, EventLoop.threadStackSize)
        let context = Unmanaged.passRetained(job).toOpaque()
        let created = pthread_create(&thread, &attributes, { context in
            Unmanaged<OwnThreadJob>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        if created != 0 {
            // Out of threads: do the work here rather than not at all.
            Unmanaged<OwnThreadJob>.fromOpaque(context).release()
            continuation.resume(returning: work())
        }
    }
}

private final class OwnThreadJob: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
