import GesturedSystem

/// `actor.assumeIsolated { … }` for the per-frame hops (a device's read, a replay step, a
/// publish): the standard one boxes the closure's captures on the heap at every call, which
/// was three of a steady frame's allocations (DESIGN.md, "One wire model"). Here `body` takes
/// its argument explicitly and must capture nothing (every call site passes a closure literal
/// that names only its parameters), so it has no context to box. The cast from an isolated
/// to a plain function type is the one `assumeIsolated` itself makes.
///
/// Checked like `assumeIsolated`: it traps unless called on `loop`'s thread, which is the
/// actor's executor (``InputHub`` and ``IPCServer`` run on the loop they are given).
@inline(__always)
func onLoop<A: Actor, Argument>(
    _ actor: A, _ loop: EventLoop, _ argument: Argument, _ body: (isolated A, Argument) -> Void
) {
    precondition(loop.isCurrent, "\(A.self) used off its event loop's thread")
    typealias Unisolated = (A, Argument) -> Void
    withoutActuallyEscaping(body) { (body: @escaping (isolated A, Argument) -> Void) in
        unsafeBitCast(body, to: Unisolated.self)(actor, argument)
    }
}
