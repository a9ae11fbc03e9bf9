// What `assumeIsolated` costs when the caller is not running as one of the executor's jobs
// (an event loop's watch handler), against the cast `onLoop` makes (DESIGN.md "Daemon, event loop and socket protocol" ›
// "One event loop"). A benchmark: prints ns per call, asserts nothing.
//
//   swiftc -O -swift-version 6 scripts/bench-assume-isolated.swift -o /tmp/bench-isolated && /tmp/bench-isolated
//
// The executor's thread is the main thread; the actor's executor is it; every call is made from
// plain synchronous code on that thread, as the loop calls its handlers.
import Glibc
let mainThread = pthread_self()
final class Exec: SerialExecutor, @unchecked Sendable {
    let fast: Bool
    init(fast: Bool) { self.fast = fast }
    func enqueue(_ job: consuming ExecutorJob) { fatalError() }
    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
    func checkIsolated() { precondition(pthread_equal(pthread_self(), mainThread) != 0) }
    func isIsolatingCurrentContext() -> Bool? { fast ? pthread_equal(pthread_self(), mainThread) != 0 : nil }
}
actor A {
    let e: Exec
    var n = 0
    init(_ e: Exec) { self.e = e }
    nonisolated var unownedExecutor: UnownedSerialExecutor { e.asUnownedSerialExecutor() }
    func bump() { n &+= 1 }
}
func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec) }
for fast in [false, true] {
    let a = A(Exec(fast: fast))
    let count = 2_000_000
    let start = now()
    for _ in 0..<count { a.assumeIsolated { $0.bump() } }
    print("isIsolatingCurrentContext \(fast ? "answers" : "nil (checkIsolated)"): \((now() - start) / Double(count)) ns per assumeIsolated")
    let s2 = now()
    typealias U = (A) -> Void
    for _ in 0..<count {
        precondition(pthread_equal(pthread_self(), mainThread) != 0)
        let body: (isolated A) -> Void = { $0.bump() }
        unsafeBitCast(body, to: U.self)(a)
    }
    print("  onLoop-style cast: \((now() - s2) / Double(count)) ns")
}
