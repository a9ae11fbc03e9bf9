import GesturedSystem

/// `actor.assumeIsolated { … }` for code the loop itself calls (a device's or a client's
/// watch handler, a timer, a replay step, a publish). Two costs of the standard one:
/// - it boxes the closure's captures on the heap at every call, which was three of a steady
///   frame's allocations (DESIGN.md, "One wire model"). Here `body` takes its argument
///   explicitly and must capture nothing (every call site passes a closure literal that names
///   only its parameters), so it has no context to box;
/// - a handler the loop calls does not run inside a job, so the runtime does not know that
///   the loop is the current executor and takes its slow path: it asks the executor
///   (`isIsolatingCurrentContext`, else `checkIsolated`), about 440–520 ns a call natively
///   against about 55 here (DESIGN.md, "The loop's own cost per frame").
/// The cast from an isolated to a plain function type is the one `assumeIsolated` itself makes.
///
/// Checked like `assumeIsolated`: it traps unless called on `loop`'s thread, which is the
/// actor's executor (``InputHub`` and ``IPCServer`` run on the loop they are given).
@inline(__always)
func onLoop<A: Actor, Argument, Result>(
    _ actor: A, _ loop: EventLoop, _ argument: Argument, _ body: (isolated A, Argument) -> Result
) -> Result {
    precondition(loop.isCurrent, "\(A.self) used off its event loop's thread")
    typealias Unisolated = (A, Argument) -> Result
    return withoutActuallyEscaping(body) { (body: @escaping (isolated A, Argument) -> Result) in
        unsafeBitCast(body, to: Unisolated.self)(actor, argument)
    }
}
