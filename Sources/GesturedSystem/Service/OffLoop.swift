internal import Glibc

/// Runs `work` on a short-lived thread of its own and returns its result to the caller's
/// executor: blocking work (reading and parsing the configuration on reload) that must not
/// hold up an event loop. A plain thread rather than `@concurrent`, whose generic executor is
/// libdispatch's worker pool (its 1 Hz monitor would then tick for the rest of the daemon's
/// life: DESIGN.md "Daemon, event loop and socket protocol" › "One event loop").
///
/// - Parameter background: run the thread under `SCHED_IDLE` (else at nice 19, else as it
///   is): it then gets the CPU only when nothing else of the daemon wants it, so that on a
///   busy or single CPU the event loop keeps reading input while the work runs (a reload
///   that parsed at the loop's priority starved it until the kernel dropped input events:
///   DESIGN.md "Configuration and quirks").
public func runOnOwnThread<Result: Sendable>(background: Bool = false, _ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
        // One type-erased job (a type cannot be nested in a generic closure).
        let job = OwnThreadJob {
            if background { lowerThisThreadsPriority() }
            continuation.resume(returning: work())
        }
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

/// `SCHED_IDLE` (linux/sched.h; Glibc's Swift module leaves the `__USE_GNU` name out).
private let schedulingPolicyIdle: Int32 = 5

/// Puts the calling thread (a task of its own to Linux: `0` names it) under `SCHED_IDLE`,
/// or at nice 19 when that is refused (a seccomp filter, an old kernel). Best effort: the
/// work runs either way.
private func lowerThisThreadsPriority() {
    var parameters = sched_param()
    parameters.sched_priority = 0
    if sched_setscheduler(0, schedulingPolicyIdle, &parameters) == 0 { return }
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)  // 0: this thread (Linux)
}
