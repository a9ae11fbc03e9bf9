import Glibc
import Testing

@testable import GesturedSystem

@Suite("Signals")
struct SignalTests {
    /// The next signal of a stream, or nil when none comes within a generous bound (a hang
    /// guard, not a measured time: the delivery itself is immediate).
    private func next(_ source: SignalSource) async -> UnixSignal? {
        await withTaskGroup(of: UnixSignal?.self) { group in
            group.addTask {
                var iterator = source.signals.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test("a signal aimed at one thread reaches the source (a signalfd, libdispatch's way, never sees it)")
    func threadDirectedSignalArrives() async {
        let source = SignalSource([.hangup])
        defer { source.cancel() }
        // Thread-directed, to a thread that does not block it: the case in which the daemon
        // used to lose a SIGTERM that reached its main thread parked in dispatch_main. The
        // test may run on a libdispatch worker, which blocks signals: unblock SIGHUP here for
        // the send (a pending one arrives as it is unblocked), then restore the mask.
        var hangup = sigset_t()
        sigemptyset(&hangup)
        sigaddset(&hangup, SIGHUP)
        var saved = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &hangup, &saved)
        pthread_kill(pthread_self(), SIGHUP)
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        #expect(await next(source) == .hangup)
    }

    @Test("every source that wants a signal gets it; one that does not, and a cancelled one, get nothing")
    func fanOutAndCancel() async {
        let first = SignalSource([.hangup])
        let second = SignalSource([.hangup, .interrupt])
        let other = SignalSource([.interrupt])
        other.cancel()
        kill(getpid(), SIGHUP)
        #expect(await next(first) == .hangup)
        #expect(await next(second) == .hangup)
        var iterator = other.signals.makeAsyncIterator()
        #expect(await iterator.next() == nil, "a cancelled source's stream is finished")
        first.cancel()
        second.cancel()
    }
}
