internal import Glibc
internal import Synchronization

/// How a child process ended (`waitpid(2)` status, decoded).
public enum ChildTermination: Hashable, Sendable, CustomStringConvertible {
    /// `exit(status)`.
    case exited(Int32)
    /// Killed by a signal.
    case signalled(Int32)

    /// True for `exit(0)`.
    public var succeeded: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal)"
        }
    }
}

/// One child that has ended, with the tag its spawner gave it.
public struct ChildExit: Hashable, Sendable {
    public var pid: Int32
    public var termination: ChildTermination
    /// What the caller passed to ``ProcessSpawner/spawnShell(_:environment:tag:)``, so a report
    /// can name the action that started it.
    public var tag: String
}

/// Starts shell commands detached from the caller and reaps them without blocking it.
///
/// Each child is started with `posix_spawn(3)` (no fork of a multi-threaded Swift process) in
/// a new session (so a terminal's Ctrl-C or a closing terminal does not reach it), with an
/// empty signal mask, default dispositions for the signals this process ignores (SIGPIPE is
/// ignored by gesturectl and ignored dispositions survive `exec`), and standard input on
/// `/dev/null`; standard output and error are inherited (the journal, under systemd).
///
/// Reaping: a small detached thread per child blocks in `waitpid(pid)` and, when the child
/// ends, queues a ``ChildExit`` and writes one byte to a pipe. The caller polls
/// ``notificationDescriptor`` alongside its other descriptors and calls ``collectExits()``;
/// nothing sleeps and no SIGCHLD handler is needed (Swift code is not async-signal-safe, and
/// the Glibc module offers no `signalfd`).
public final class ProcessSpawner: Sendable {
    private struct State {
        var exits: [ChildExit] = []
        var running: Set<Int32> = []
    }

    private let state = Mutex(State())
    private let readEnd: Int32
    private let writeEnd: Int32

    /// Readable when at least one child has ended since the last ``collectExits()``.
    public var notificationDescriptor: Int32 { readEnd }

    /// Children started and not yet collected.
    public var runningCount: Int { state.withLock { $0.running.count } }

    public init() throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        let result = fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress) }
        guard result == 0 else { throw SystemError(operation: "create the child-exit pipe", errno: Errno(rawValue: errno)) }
        readEnd = fds[0]
        writeEnd = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }

    /// Runs `/bin/sh -c command` with exactly `environment` ("KEY" → "value").
    /// - Returns: the child's pid.
    /// - Throws: `SystemError` when `posix_spawn` fails (no such shell, out of processes).
    @discardableResult
    public func spawnShell(_ command: String, environment: [String: String], tag: String = "") throws(SystemError) -> Int32 {
        try spawn(path: "/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment, tag: tag)
    }

    /// Runs `path` with `arguments` (argv, including argv[0]) and exactly `environment`.
    @discardableResult
    public func spawn(path: String, arguments: [String], environment: [String: String], tag: String = "") throws(SystemError) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // POSIX_SPAWN_SETSID (glibc >= 2.26) is only declared under _GNU_SOURCE, which the
        // Glibc module does not define; its value is fixed ABI (spawn.h).
        let setSessionID: Int32 = 0x80
        posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF) | setSessionID))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
            }
        }
        // Counted as running before its reaper exists, so its exit cannot be reported first.
        if code == 0 { state.withLock { _ = $0.running.insert(pid) } }
        guard code == 0 else { throw SystemError(operation: "start", path: path, errno: Errno(rawValue: code)) }
        startReaper(pid: pid, tag: tag)
        return pid
    }

    /// The children that ended since the last call, in the order they ended. Never blocks.
    public func collectExits() -> [ChildExit] {
        var byte: UInt8 = 0
        while Glibc.read(readEnd, &byte, 1) == 1 {}
        return state.withLock { state in
            let exits = state.exits
            state.exits.removeAll()
            for exit in exits { state.running.remove(exit.pid) }
            return exits
        }
    }

    /// Blocks until every child started so far has ended and returns their exits (with any
    /// not yet collected). Waiting is on the notification pipe, not on a timer.
    public func waitForAll() -> [ChildExit] {
        var exits: [ChildExit] = []
        while true {
            exits += collectExits()
            if runningCount == 0 { return exits }
            _ = waitReadable(fileDescriptor: readEnd, timeoutMilliseconds: -1)
        }
    }

    private func startReaper(pid: pid_t, tag: String) {
        let reaper = Reaper(pid: pid, tag: tag, spawner: self)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(reaper).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // waitpid needs almost no stack; 64 KiB instead of the default 8 MiB of address space.
        pthread_attr_setstacksize(&attributes, 64 * 1024)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let created = pthread_create(&thread, &attributes, { context in
            let reaper = Unmanaged<Reaper>.fromOpaque(context!).takeRetainedValue()
            reaper.run()
            return nil
        }, context)
        if created != 0 {
            // No thread: reap inline later is impossible without blocking, so wait now. This
            // only happens when the process is out of threads.
            Unmanaged<Reaper>.fromOpaque(context).release()
            reaper.run()
        }
    }

    fileprivate func report(_ exit: ChildExit) {
        state.withLock { $0.exits.append(exit) }
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }
}

/// The body of one reaper thread.
private final class Reaper: Sendable {
    let pid: pid_t
    let tag: String
    let spawner: ProcessSpawner

    init(pid: pid_t, tag: String, spawner: ProcessSpawner) {
        self.pid = pid
        self.tag = tag
        self.spawner = spawner
    }

    func run() {
        var status: Int32 = 0
        let result = retryingOnInterrupt { waitpid(pid, &status, 0) }
        let termination: ChildTermination
        switch result {
        case .success:
            // WIFEXITED/WEXITSTATUS/WTERMSIG are macros; their definitions (bits/waitstatus.h).
            if status & 0x7f == 0 {
                termination = .exited((status >> 8) & 0xff)
            } else {
                termination = .signalled(status & 0x7f)
            }
        case .failure:
            termination = .exited(-1)
        }
        spawner.report(ChildExit(pid: pid, termination: termination, tag: tag))
    }
}

/// Waits up to `timeoutMilliseconds` (-1: forever) until any of `fileDescriptors` is readable
/// or hung up (`poll(2)`).
/// - Returns: the descriptors that are, in the order given; empty on timeout.
public func waitReadable(fileDescriptors: [Int32], timeoutMilliseconds: Int32) -> [Int32] {
    var pfds = fileDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let count = nfds_t(pfds.count)
    let result = retryingOnInterrupt { pfds.withUnsafeMutableBufferPointer { poll($0.baseAddress, count, timeoutMilliseconds) } }
    guard case .success(let n) = result, n > 0 else { return [] }
    return pfds.filter { $0.revents != 0 }.map(\.fd)
}
