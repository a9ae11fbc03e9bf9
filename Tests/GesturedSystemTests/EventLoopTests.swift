import Glibc
import GesturedSystem
import Synchronization
import Testing

/// The daemon's event loop (GesturedSystem/Service/EventLoop.swift), on real descriptors:
/// pipes, its eventfd and timerfds. Time is data here: a timer is checked against the
/// monotonic clock it was armed with, never against a sleep.
@Suite("Event loop")
struct EventLoopTests {
    /// Runs `body` on the loop thread and returns its result.
    static func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: body()) }
        }
    }

    /// Waits until two more turns of the loop have passed, so every descriptor that was ready
    /// before the call has been reported (level-triggered epoll reports it in the same turn).
    static func twoTurns(_ loop: EventLoop) async {
        _ = await onLoop(loop) { () }
        _ = await onLoop(loop) { () }
    }

    @Test("blocks submitted from another thread run on the loop thread, in order")
    func blocksRunInOrder() async {
        let loop = EventLoop(name: "test-order")
        defer { loop.stop() }
        let seen = Mutex<[(Int, Bool)]>([])
        #expect(!loop.isCurrent)
        for i in 0..<200 {
            loop.execute { seen.withLock { $0.append((i, loop.isCurrent)) } }
        }
        await Self.twoTurns(loop)
        let values = seen.withLock { $0 }
        #expect(values.map(\.0) == Array(0..<200))
        #expect(values.allSatisfy { $0.1 }, "every block ran on the loop thread")
    }

    @Test("a watched pipe wakes its handler; once cancelled it does not")
    func watchAndCancel() async {
        let loop = EventLoop(name: "test-watch")
        defer { loop.stop() }
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let readFD = fds[0]
        let received = Mutex<[UInt8]>([])
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let box = Mutex<FileWatchBox?>(nil)
        _ = await Self.onLoop(loop) {
            // A pipe just made: adding it cannot fail but for lack of memory.
            let watch = try! loop.watch(readFD) {
                var buffer = [UInt8](repeating: 0, count: 16)
                let n = read(readFD, &buffer, 16)
                if n > 0 { received.withLock { $0 += buffer[0..<n] } }
                arrived.yield()
            }
            box.withLock { $0 = FileWatchBox(watch: watch) }
        }
        var byte: UInt8 = 7
        #expect(write(fds[1], &byte, 1) == 1)
        for await _ in arrivals { break }
        #expect(received.withLock { $0 } == [7])

        _ = await Self.onLoop(loop) { box.withLock { $0?.watch.cancel() } }
        byte = 8
        #expect(write(fds[1], &byte, 1) == 1)
        await Self.twoTurns(loop)
        #expect(received.withLock { $0 } == [7], "a cancelled watch reads nothing more")
        var left: UInt8 = 0
        #expect(read(readFD, &left, 1) == 1 && left == 8, "the byte is still in the pipe")
    }

    /// A pipe's two ends, non-blocking.
    static func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "pipe: \(errno)")
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return (fds[0], fds[1])
    }

    /// The fault suite replugs touchscreens while a touchpad streams: a device's descriptor
    /// number comes back for the next device. The loop finds watches by descriptor
    /// (DESIGN.md "Daemon, event loop and socket protocol" › "One event loop"), so a late `cancel()` of the old watch must not
    /// unregister the new one, whose number it shares (with the table by token it did: the
    /// `EPOLL_CTL_DEL` went to the number, and the new device was never read again).
    @Test("a watch cancelled after its descriptor number was reused leaves the new watch reading")
    func cancelAfterReuse() async {
        let loop = EventLoop(name: "test-reuse")
        defer { loop.stop() }
        let old = Self.makePipe()
        let new = Self.makePipe()
        defer {
            for fd in [old.read, old.write, new.read, new.write] { close(fd) }
        }
        let reads = Mutex<(old: Int, new: Int)>((0, 0))
        let box = Mutex<FileWatchBox?>(nil)
        let number = old.read
        _ = await Self.onLoop(loop) {
            let watch = try! loop.watch(number) { reads.withLock { $0.old += 1 } }
            box.withLock { $0 = FileWatchBox(watch: watch) }
            // The device goes away before its watch is cancelled, and the next one opened
            // gets the same number (dup2 makes sure of the number the kernel would pick).
            precondition(dup2(new.read, number) == number)
            _ = try! loop.watch(number) {
                var byte: UInt8 = 0
                while read(number, &byte, 1) == 1 {}
                reads.withLock { $0.new += 1 }
            }
            box.withLock { $0?.watch.cancel() }
        }
        var byte: UInt8 = 1
        #expect(write(new.write, &byte, 1) == 1)
        await Self.twoTurns(loop)
        let counts = reads.withLock { $0 }
        #expect(counts.new == 1, "the new watch was woken (\(counts.new) times)")
        #expect(counts.old == 0, "the cancelled watch never ran")
    }

    /// An event still queued in the same wake-up for a watch its neighbour's handler removed
    /// must not reach the watch that took its descriptor number meanwhile.
    @Test("an event queued for a removed watch does not reach a new watch on the same number")
    func staleEventAfterReuse() async {
        let loop = EventLoop(name: "test-stale")
        defer { loop.stop() }
        let first = Self.makePipe()
        let second = Self.makePipe()
        let fresh = Self.makePipe()
        defer {
            for fd in [first.read, first.write, second.read, second.write, fresh.read, fresh.write] { close(fd) }
        }
        // Both readable before the loop's next wait: one epoll batch reports both.
        var byte: UInt8 = 1
        #expect(write(first.write, &byte, 1) == 1)
        #expect(write(second.write, &byte, 1) == 1)
        let calls = Mutex<(first: Int, second: Int, fresh: Int)>((0, 0, 0))
        let watches = Mutex<[Int32: FileWatchBox]>([:])
        let (done, finish) = AsyncStream.makeStream(of: Void.self)
        // Whichever of the two runs first removes the other and puts a fresh pipe (empty)
        // on its number, with a watch of its own.
        @Sendable func replaceOther(_ me: Int32) {
            let other = me == first.read ? second.read : first.read
            guard let box = watches.withLock({ $0.removeValue(forKey: other) }) else { return }
            box.watch.cancel()
            precondition(dup2(fresh.read, other) == other)
            let watch = try! loop.watch(other) { calls.withLock { $0.fresh += 1 } }
            watches.withLock { $0[other] = FileWatchBox(watch: watch) }
            finish.yield()
        }
        _ = await Self.onLoop(loop) {
            for (fd, isFirst) in [(first.read, true), (second.read, false)] {
                let watch = try! loop.watch(fd) {
                    var byte: UInt8 = 0
                    while read(fd, &byte, 1) == 1 {}
                    calls.withLock { isFirst ? ($0.first += 1) : ($0.second += 1) }
                    replaceOther(fd)
                }
                watches.withLock { $0[fd] = FileWatchBox(watch: watch) }
            }
        }
        for await _ in done { break }
        await Self.twoTurns(loop)
        let counts = calls.withLock { $0 }
        #expect(counts.first + counts.second == 1, "one handler ran, the other was removed by it")
        #expect(counts.fresh == 0, "the fresh pipe is empty: its watch got the removed one's event")
        _ = await Self.onLoop(loop) { watches.withLock { $0.values.forEach { $0.watch.cancel() } } }
    }

    @Test("watching a descriptor that is not open is an error the caller handles, not a crash")
    func watchFailure() async {
        let loop = EventLoop(name: "test-badfd")
        defer { loop.stop() }
        let failure = await Self.onLoop(loop) { () -> Errno? in
            do {
                _ = try loop.watch(-1) {}
                return nil
            } catch let error as Errno {
                return error
            } catch {
                return nil
            }
        }
        #expect(failure == .badFileDescriptor)
    }

    @Test("a timer fires once, not before its deadline; re-arming moves it; disarmed it stays quiet")
    func timers() async {
        let loop = EventLoop(name: "test-timer")
        defer { loop.stop() }
        let fired = Mutex<[Int64]>([])
        let (fires, fire) = AsyncStream.makeStream(of: Void.self)
        let box = Mutex<LoopTimerBox?>(nil)
        let deadline = MonotonicClock.nowMicroseconds() + 2_000
        _ = await Self.onLoop(loop) {
            let timer = loop.makeTimer {
                fired.withLock { $0.append(MonotonicClock.nowMicroseconds()) }
                fire.yield()
            }
            // Armed far away first: re-arming replaces that.
            timer.schedule(atMonotonicMicroseconds: deadline + 3_600_000_000)
            timer.schedule(atMonotonicMicroseconds: deadline)
            box.withLock { $0 = LoopTimerBox(timer: timer) }
        }
        var iterator = fires.makeAsyncIterator()
        _ = await iterator.next()
        await Self.twoTurns(loop)
        let times = fired.withLock { $0 }
        #expect(times.count == 1, "one-shot")
        #expect((times.first ?? 0) >= deadline, "never early")

        // A deadline in the past fires at once; a disarmed timer does not fire.
        _ = await Self.onLoop(loop) { box.withLock { $0?.timer.schedule(atMonotonicMicroseconds: 1) } }
        _ = await iterator.next()
        _ = await Self.onLoop(loop) {
            box.withLock {
                $0?.timer.schedule(atMonotonicMicroseconds: MonotonicClock.nowMicroseconds() + 1_000)
                $0?.timer.disarm()
            }
        }
        // The disarmed deadline (1 ms) is long past once this later one-shot fires.
        let (later, laterFired) = AsyncStream.makeStream(of: Void.self)
        _ = await Self.onLoop(loop) { loop.run(afterMicroseconds: 5_000) { laterFired.yield() } }
        for await _ in later { break }
        await Self.twoTurns(loop)
        #expect(fired.withLock { $0.count } == 2, "the disarmed timer stayed quiet")
        _ = await Self.onLoop(loop) { box.withLock { $0?.timer.cancel() } }
    }
}

/// Carries a loop-confined watch across the test's continuation boundary; only touched on
/// the loop thread.
final class FileWatchBox: @unchecked Sendable {
    let watch: FileWatch
    init(watch: FileWatch) { self.watch = watch }
}

/// As ``FileWatchBox``, for a timer.
final class LoopTimerBox: @unchecked Sendable {
    let timer: LoopTimer
    init(timer: LoopTimer) { self.timer = timer }
}

@Suite("Work off the loop (runOnOwnThread)")
struct OwnThreadTests {
    @Test("background work runs at the lowest priority (SCHED_IDLE, else nice 19), ordinary work as it was")
    func backgroundWorkYieldsTheCPU() async {
        // sched_getscheduler(0) and getpriority read the calling thread's own values (Linux).
        let background = await runOnOwnThread(background: true) {
            (policy: sched_getscheduler(0), nice: getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
        #expect(background.policy == 5 || background.nice == 19, "policy \(background.policy), nice \(background.nice)")
        let ordinary = await runOnOwnThread { sched_getscheduler(0) }
        #expect(ordinary != 5)
    }
}
