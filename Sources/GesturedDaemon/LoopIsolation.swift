import GesturedSystem

/// `actor.assumeIsolated { … }` for code the loop itself calls (a device's read, a replay
/// step, a publish, the end of a wake-up), without allocating.
///
/// The standard `assumeIsolated` boxes its closure on the heap at every call (two
/// allocations), and so did this function while it wrapped `body` in
/// `withoutActuallyEscaping` (one per call; found with `gestured-bench daemon --alloc-sites`,
/// DESIGN.md "Daemon, event loop and socket protocol" › "One event loop"). Here `body` is taken `@escaping` and must capture
/// nothing: every call site passes a closure literal that names only its parameters, so the
/// closure is a bare function with no context, and the cast from an isolated to a plain
/// function type (the one `assumeIsolated` itself makes) is all that happens.
///
/// Checked like `assumeIsolated`: it traps unless called on `loop`'s thread, which is the
/// actor's executor (``InputHub`` and ``IPCServer`` run on the loop they are given).
@inline(__always)
func onLoop<A: Actor, Argument, Result>(
    _ actor: A, _ loop: EventLoop, _ argument: Argument, _ body: @escaping (isolated A, Argument) -> Result
) -> Result {
    precondition(loop.isCurrent, "\(A.self) used off its event loop's thread")
    typealias Unisolated = (A, Argument) -> Result
    return unsafeBitCast(body, to: Unisolated.self)(actor, argument)
}
