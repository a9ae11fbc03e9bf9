internal import CLinuxInput
internal import Glibc

/// A serial executor that is one thread of its own running an `epoll(7)` loop: the daemon's
/// I/O domains (input devices, the udev monitor, the socket and its clients, their timers) are
/// actors whose executor is this loop, and their file descriptors wake this thread directly.
///
/// Why not a `DispatchQueue` (STYLE.md B8's `QueueExecutor`): on Linux a Dispatch read source
/// is watched by libdispatch's manager thread, which then wakes a worker thread to run the
/// handler on the target queue, and an `async` to a second queue wakes another; measured in
/// the kernel tier (docs/benchmarks.md) those hand-offs were most of gestured's latency. Here
/// the kernel wakes the thread that reads the device, runs the engine and writes to the
/// clients — the shape of libinput's users and of every C input daemon.
///
/// Handlers and jobs run in order on the loop thread. Registration calls (`watch`,
/// `makeTimer`, and the methods of what they return) must be made on the loop thread (from
/// code isolated to an actor whose executor is this loop); `enqueue` and ``execute(_:)`` may
/// be called from any thread.
///
/// `@unchecked Sendable` (STYLE.md B8 (a), the executor): the job queue is behind a lock;
/// the registration tables are confined to the loop thread, as the preconditions check.
public final class EventLoop: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private enum Work {
        case job(UnownedJob)
        case block(@Sendable () -> Void)
    }

    private let name: String
    private let epollFD: Int32
    private let wakeFD: Int32
    private let pending = PThreadMutex<(work: [Work], stopped: Bool)>(([], false))
    private var thread = pthread_t()
    /// Loop-thread state: every watch, indexed by its descriptor (a small integer): a
    /// wake-up finds its handler by one index, not a hash lookup. A watch's token (the epoll
    /// data) is a serial in the high 32 bits and the descriptor in the low ones, so an event
    /// still queued for a watch removed in the same wake-up never reaches a new watch that got
    /// the same descriptor number.
    private var watchesByDescriptor: [FileWatch?] = []
    private var nextSerial: UInt64 = 1
    private static let wakeToken: UInt64 = 0
    /// Runs after each wake-up's handlers, before the loop waits again (``setBeforeSleep(_:)``).
    private var beforeSleep: (() -> Void)?

    /// The stack of a loop thread (and of `runOnOwnThread`'s): 1.75 MiB, under the 2 MiB of a
    /// transparent huge page. glibc's default is 8 MiB, and where THP is `always` (Debian's
    /// kernel) the kernel backs the first touch of such a stack with a whole 2 MiB page when
    /// the touched part lies in an aligned 2 MiB window, which it did by chance in the kernel
    /// tier's guest: 2 048 kB resident for a stack that uses about 40 (DESIGN.md "Daemon, event loop and socket protocol" ›
    /// "One event loop"). A mapping smaller than 2 MiB can never hold one.
    public static let threadStackSize = 1792 * 1024

    /// Starts the loop thread.
    /// - Parameter name: the thread's name (`ps -L`, at most 15 bytes are kept).
    public init(name: String) {
        self.name = name
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        precondition(epollFD >= 0 && wakeFD >= 0, "epoll_create1/eventfd failed: \(Errno.current)")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeToken
        precondition(epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0, "epoll_ctl failed: \(Errno.current)")
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = createThread(&thread, stackSize: Self.threadStackSize, context: context) { context in
            let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeRetainedValue()
            loop.run()
            return nil
        }
        precondition(rc == 0, "pthread_create failed: \(Errno(rawValue: rc))")
        // Nothing joins the loop thread (the last reference may be dropped on it), so it is
        // detached: its stack and descriptor are freed when it exits after `stop()`. Found by
        // ThreadSanitizer as a thread leak (docs/hostile-input.md).
        pthread_detach(thread)
    }

    deinit {
        Glibc.close(epollFD)
        Glibc.close(wakeFD)
    }

    /// Whether the caller runs on the loop thread.
    public var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }

    // MARK: SerialExecutor

    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// As a task executor, the loop runs tasks started with `Task(executorPreference: loop)`
    /// and the nonisolated code they call, so a program whose work is all on loops never
    /// starts libdispatch's worker pool (and its 1 Hz monitor timer: DESIGN.md "Daemon, event loop and socket protocol" ›
    /// "One event loop").
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(isCurrent, "not on the \(name) event loop thread")
    }

    /// Asked by the runtime instead of ``checkIsolated()`` when code not running as one of
    /// this loop's jobs (a watch handler) calls `assumeIsolated`: a plain answer, no trap
    /// machinery (about 440 ns a call natively against 520; the daemon's per-frame paths use
    /// `onLoop`, about 55: DESIGN.md "Daemon, event loop and socket protocol" › "One event loop").
    public func isIsolatingCurrentContext() -> Bool? {
        isCurrent
    }

    /// Runs `block` on the loop thread, after everything enqueued before it (jobs included).
    public func execute(_ block: @escaping @Sendable () -> Void) {
        submit(.block(block))
    }

    /// Ends the loop once the work queued so far has run; later work is dropped. The thread
    /// exits and the loop's descriptors are closed when the last reference goes.
    public func stop() {
        pending.withLock { $0.stopped = true }
        wake()
    }

    private func submit(_ work: Work) {
        let wasEmpty = pending.withLock { state -> Bool? in
            guard !state.stopped else { return nil }
            state.work.append(work)
            return state.work.count == 1
        }
        // One wake-up per batch: the loop drains the whole queue when it runs.
        if wasEmpty == true { wake() }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    /// Sets the one handler that runs on the loop thread after every wake-up's handlers and
    /// jobs, just before the loop waits again: work the handlers deferred to do once per
    /// wake-up (the IPC server's fan-out writes each client once for all the frames a wake-up
    /// read). nil removes it. Loop thread only.
    public func setBeforeSleep(_ handler: (() -> Void)?) {
        checkIsolated()
        beforeSleep = handler
    }

    // MARK: Watches

    /// Watches `fileDescriptor` for reading; `onReadable` runs on the loop thread each time
    /// it is readable (level-triggered: read until EAGAIN or it fires again). Loop thread only.
    /// - Throws: `epoll_ctl`'s errno (the kernel's watch limit or memory ran out, or the
    ///   descriptor is closed or already watched); the caller drops what it wanted to watch.
    public func watch(_ fileDescriptor: Int32, onReadable: @escaping () -> Void) throws(Errno) -> FileWatch {
        checkIsolated()
        let token = nextSerial << 32 | UInt64(UInt32(bitPattern: fileDescriptor))
        let watch = FileWatch(loop: self, fileDescriptor: fileDescriptor, token: token)
        nextSerial += 1
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = watch.token
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fileDescriptor, &event) == 0 else { throw Errno.current }
        watch.readHandler = onReadable
        let index = Int(fileDescriptor)
        if watchesByDescriptor.count <= index {
            watchesByDescriptor += repeatElement(nil, count: index + 1 - watchesByDescriptor.count)
        }
        watchesByDescriptor[index] = watch
        return watch
    }

    /// A timer whose `handler` runs on the loop thread when it fires (a `timerfd` watched by
    /// the loop). Loop thread only.
    public func makeTimer(_ handler: @escaping () -> Void) -> LoopTimer {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        precondition(fd >= 0, "timerfd_create failed: \(Errno.current)")
        let timer = LoopTimer(fileDescriptor: fd)
        // A timerfd just made: adding it fails only when the kernel is out of memory.
        timer.watch = try! watch(fd) {
            var expirations: UInt64 = 0
            guard Glibc.read(fd, &expirations, 8) == 8 else { return }
            handler()
        }
        return timer
    }

    /// Runs `handler` once on the loop thread `microseconds` from now (grace periods,
    /// deadlines). Loop thread only.
    public func run(afterMicroseconds microseconds: Int64, _ handler: @escaping () -> Void) {
        var holder: LoopTimer?
        let timer = makeTimer {
            handler()
            holder?.cancel()
            holder = nil
        }
        holder = timer
        timer.schedule(atMonotonicMicroseconds: MonotonicClock.nowMicroseconds() + max(0, microseconds))
    }

    fileprivate func update(_ watch: FileWatch) {
        checkIsolated()
        var event = epoll_event()
        event.events = (watch.readHandler == nil ? 0 : EPOLLIN.rawValue) | (watch.writeHandler == nil ? 0 : EPOLLOUT.rawValue)
        event.data.u64 = watch.token
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, watch.fileDescriptor, &event)
    }

    fileprivate func remove(_ watch: FileWatch) {
        checkIsolated()
        let index = Int(watch.fileDescriptor)
        guard index >= 0, index < watchesByDescriptor.count, watchesByDescriptor[index] === watch else { return }
        watchesByDescriptor[index] = nil
        var event = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, watch.fileDescriptor, &event)
    }

    // MARK: The loop

    private func run() {
        _ = gestured_set_thread_name(String(name.prefix(15)))
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress, Int32($0.count), -1) }
            if count < 0 {
                if errno == EINTR { continue }
                preconditionFailure("epoll_wait failed: \(Errno.current)")
            }
            for index in 0..<Int(count) {
                let token = events[index].data.u64
                let flags = events[index].events
                if token == Self.wakeToken {
                    var value: UInt64 = 0
                    _ = Glibc.read(wakeFD, &value, 8)
                    if !runPending() { return }
                    continue
                }
                // A handler earlier in this batch may have removed this watch.
                guard let watch = watch(for: token) else { continue }
                let hangUp = flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
                if flags & EPOLLIN.rawValue != 0 || (hangUp && watch.readHandler != nil) {
                    watch.readHandler?()
                }
                if flags & EPOLLOUT.rawValue != 0 || (hangUp && watch.writeHandler != nil), self.watch(for: token) != nil {
                    watch.writeHandler?()
                }
            }
            beforeSleep?()
        }
    }

    /// The live watch whose token is `token` (nil: removed since the event was queued).
    @inline(__always)
    private func watch(for token: UInt64) -> FileWatch? {
        let index = Int(token & 0xFFFF_FFFF)
        guard index < watchesByDescriptor.count, let watch = watchesByDescriptor[index], watch.token == token else { return nil }
        return watch
    }

    /// Runs every queued job and block; false once the loop is stopped.
    private func runPending() -> Bool {
        let (work, stopped) = pending.withLock { state in
            defer { state.work.removeAll(keepingCapacity: true) }
            return (state.work, state.stopped)
        }
        let executor = asUnownedSerialExecutor()
        let taskExecutor = asUnownedTaskExecutor()
        for item in work {
            switch item {
            case .job(let job): job.runSynchronously(isolatedTo: executor, taskExecutor: taskExecutor)
            case .block(let block): block()
            }
        }
        return !stopped
    }
}

/// A descriptor watched by an ``EventLoop``; confined to the loop thread.
public final class FileWatch {
    fileprivate weak var loop: EventLoop?
    public let fileDescriptor: Int32
    fileprivate let token: UInt64
    fileprivate var readHandler: (() -> Void)?
    fileprivate var writeHandler: (() -> Void)?

    fileprivate init(loop: EventLoop, fileDescriptor: Int32, token: UInt64) {
        self.loop = loop
        self.fileDescriptor = fileDescriptor
        self.token = token
    }

    /// Replaces the readable handler; nil stops reading (a client being closed after its
    /// last lines are written).
    public func setReadableHandler(_ handler: (() -> Void)?) {
        let changes = (readHandler == nil) != (handler == nil)
        readHandler = handler
        if changes { loop?.update(self) }
    }

    /// Whether a writable handler is set.
    public var watchesWritable: Bool { writeHandler != nil }

    /// Also calls `handler` while the descriptor is writable; nil stops (a client's socket
    /// while its outbox waits for room).
    public func setWritableHandler(_ handler: (() -> Void)?) {
        let changes = (writeHandler == nil) != (handler == nil)
        writeHandler = handler
        if changes { loop?.update(self) }
    }

    /// Stops watching; call before closing the descriptor.
    public func cancel() {
        readHandler = nil
        writeHandler = nil
        loop?.remove(self)
    }
}

/// A one-shot timer on an ``EventLoop`` (a `timerfd` on CLOCK_MONOTONIC, absolute times, so
/// a deadline is exact to the µs and never drifts); confined to the loop thread.
public final class LoopTimer {
    fileprivate let fileDescriptor: Int32
    fileprivate var watch: FileWatch?

    fileprivate init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Arms the timer for `deadline` (CLOCK_MONOTONIC µs, the clock of kernel input
    /// timestamps); a deadline in the past fires at once. Replaces any earlier arming.
    public func schedule(atMonotonicMicroseconds deadline: Int64) {
        // 0 would disarm: a deadline at or before the epoch fires as soon as possible.
        let at = max(deadline, 1)
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(at / 1_000_000)
        spec.it_value.tv_nsec = Int(at % 1_000_000) * 1000
        _ = timerfd_settime(fileDescriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Disarms the timer (it stays usable).
    public func disarm() {
        var spec = itimerspec()
        _ = timerfd_settime(fileDescriptor, 0, &spec, nil)
    }

    /// Disarms and releases the timer for good.
    public func cancel() {
        guard let watch else { return }
        watch.cancel()
        self.watch = nil
        Glibc.close(fileDescriptor)
    }

    deinit {
        guard let watch else { return }
        // Dropped without `cancel()`: leave the loop's table only from the loop thread;
        // elsewhere closing the descriptor is enough (epoll forgets a closed file).
        if watch.loop?.isCurrent ?? false { watch.cancel() }
        Glibc.close(fileDescriptor)
    }
}
