internal import Glibc

extension EventLoop {
    /// Runs `operation` as a task whose executor preference is a new loop of its own, and
    /// blocks the calling thread (the process's main thread) until it returns.
    ///
    /// Why not top-level `await` in `main.swift`: Swift's async main runs on the main actor,
    /// which on Linux is libdispatch's main queue; once `dispatch_main` parks the main thread,
    /// that queue is drained by libdispatch's worker pool, whose first thread starts a 1 Hz
    /// monitor timer on the manager thread, a wake-up every second of an idle daemon
    /// (DESIGN.md "Daemon, event loop and socket protocol" › "One event loop"). Here the main thread sleeps in `read(2)` and
    /// every job of the program runs on loops.
    public static func runMain<Result: Sendable>(name: String, _ operation: sending @escaping () async -> Result) -> Result {
        let loop = EventLoop(name: name)
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe failed: \(Errno.current)")
        let result = PThreadMutex<Result?>(nil)
        let writeEnd = ends[1]
        Task(executorPreference: loop) {
            let value = await operation()
            result.withLock { $0 = value }
            var byte: UInt8 = 1
            _ = Glibc.write(writeEnd, &byte, 1)
        }
        var byte: UInt8 = 0
        while Glibc.read(ends[0], &byte, 1) < 0, errno == EINTR {}
        Glibc.close(ends[0])
        Glibc.close(ends[1])
        loop.stop()
        guard let value = result.withLock({ $0 }) else { preconditionFailure("the main task ended without a result") }
        return value
    }
}
