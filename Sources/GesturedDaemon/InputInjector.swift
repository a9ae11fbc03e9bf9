public import GesturedSystem

/// Where the injector's key and button transitions go: the daemon's uinput devices
/// (``UInputSink``), or a recording fake in tests.
public protocol VirtualInputSink: AnyObject, Sendable {
    /// Makes `kind` exist and calls `ready` once readers can see it: at once when it already
    /// existed, after udev announced a new one; with the error when it cannot be created.
    func prepare(_ kind: VirtualInputDevices.Kind, ready: @escaping (SystemError?) -> Void)
    /// One transition and its `SYN_REPORT`.
    func write(_ kind: VirtualInputDevices.Kind, code: UInt16, isPressed: Bool) throws(SystemError)
}

/// One transition of a combination.
public struct InputStep: Hashable, Sendable {
    public var kind: VirtualInputDevices.Kind
    public var key: InputKey
    public var isPressed: Bool

    public init(kind: VirtualInputDevices.Kind, key: InputKey, isPressed: Bool) {
        self.kind = kind
        self.key = key
        self.isPressed = isPressed
    }

    /// Keys down in order, then up in reverse order.
    public static func chord(_ keys: [InputKey], on kind: VirtualInputDevices.Kind) -> [InputStep] {
        keys.map { InputStep(kind: kind, key: $0, isPressed: true) }
            + keys.reversed().map { InputStep(kind: kind, key: $0, isPressed: false) }
    }
}

/// Requests a client may make in a burst, and how fast the allowance comes back: a token
/// bucket per client (libinput's `util-ratelimit.c` idea, per client rather than global, so
/// one misbehaving client cannot use up everyone's keys), kept as the generic cell rate
/// algorithm's "theoretical arrival time" in integer µs, so no rounding can lose a token.
public struct InputRateLimit: Sendable {
    /// Requests allowed at once.
    public let burst: Int
    /// Requests the allowance regains per second.
    public let perSecond: Int
    /// When the bucket would be full again, µs (CLOCK_MONOTONIC).
    private var fullAtMicroseconds: Int64 = .min

    public init(burst: Int = 10, perSecond: Int = 10) {
        self.burst = max(1, burst)
        self.perSecond = max(1, perSecond)
    }

    /// Takes one request's token at `nowMicroseconds` (CLOCK_MONOTONIC); false when none is left.
    public mutating func take(nowMicroseconds: Int64) -> Bool {
        let interval = 1_000_000 / Int64(perSecond)
        let start = max(fullAtMicroseconds, nowMicroseconds)
        guard start + interval - nowMicroseconds <= interval * Int64(burst) else { return false }
        fullAtMicroseconds = start + interval
        return true
    }
}

/// Plays key combinations and clicks on the virtual devices, one at a time, each transition
/// ``stepIntervalMicroseconds`` after the previous; remembers what is held down so a client
/// that disconnects mid-combination has its keys released at once (in reverse order), and
/// so nothing is ever left pressed. Confined to the IPC server's loop.
final class InputInjector {
    /// Between two transitions of a combination: readers (a compositor's libinput, an X
    /// server) see distinct frames, as from a fast typist; ydotool's default is 12 ms.
    static let stepIntervalMicroseconds: Int64 = 10_000
    /// Combinations a client may have waiting behind the one being played.
    static let queueLimitPerClient = 8

    typealias Scheduler = (_ afterMicroseconds: Int64, _ body: @escaping () -> Void) -> Void
    typealias Completion = (_ failure: SystemError?) -> Void

    private struct Job {
        var clientID: Int
        var steps: [InputStep]
        var next = 0
        var held: [InputStep] = []
        var completion: Completion
    }

    private let sink: any VirtualInputSink
    private let schedule: Scheduler
    private var queue: [Job] = []
    /// The job being played (the first of the queue) has its devices ready.
    private var isPlaying = false
    /// Bumped whenever the playing job is abandoned, so its pending timer does nothing.
    private var generation = 0

    init(sink: any VirtualInputSink, schedule: @escaping Scheduler) {
        self.sink = sink
        self.schedule = schedule
    }

    /// Combinations waiting or playing for `clientID`.
    func pendingCount(clientID: Int) -> Int { queue.count { $0.clientID == clientID } }

    /// Queues `steps`; `completion` runs once the last transition is written (nil) or the
    /// devices failed (the error; whatever was pressed is released first).
    func submit(clientID: Int, steps: [InputStep], completion: @escaping Completion) {
        queue.append(Job(clientID: clientID, steps: steps, completion: completion))
        if queue.count == 1 { startNext() }
    }

    /// The client went away: its keys held now are released at once, in reverse order; its
    /// waiting combinations are dropped.
    func clientGone(_ clientID: Int) {
        guard let first = queue.first else { return }
        let playingIsGone = first.clientID == clientID
        queue.removeAll { $0.clientID == clientID }
        guard playingIsGone else { return }
        generation += 1
        isPlaying = false
        releaseHeld(first)
        startNext()
    }

    private func startNext() {
        guard let job = queue.first else { return }
        let kinds = Set(job.steps.map(\.kind)).sorted { $0.rawValue < $1.rawValue }
        prepare(kinds[...], generation: generation)
    }

    private func prepare(_ kinds: ArraySlice<VirtualInputDevices.Kind>, generation expected: Int) {
        guard let kind = kinds.first else {
            isPlaying = true
            step(generation: expected)
            return
        }
        sink.prepare(kind) { [self] error in
            guard expected == generation, !queue.isEmpty else { return }
            if let error {
                finish(failure: error)
                return
            }
            prepare(kinds.dropFirst(), generation: expected)
        }
    }

    private func step(generation expected: Int) {
        guard expected == generation, isPlaying, var job = queue.first else { return }
        let current = job.steps[job.next]
        do {
            try sink.write(current.kind, code: current.key.code, isPressed: current.isPressed)
        } catch {
            finish(failure: error)
            return
        }
        if current.isPressed {
            job.held.append(current)
        } else {
            job.held.removeAll { $0.kind == current.kind && $0.key == current.key }
        }
        job.next += 1
        queue[0] = job
        if job.next == job.steps.count {
            finish(failure: nil)
        } else {
            schedule(Self.stepIntervalMicroseconds) { [self] in step(generation: expected) }
        }
    }

    private func finish(failure: SystemError?) {
        guard !queue.isEmpty else { return }
        let job = queue.removeFirst()
        generation += 1
        isPlaying = false
        releaseHeld(job)
        job.completion(failure)
        startNext()
    }

    /// Releases what `job` holds, last pressed first; a failing write is not retried (the
    /// device is then broken, and its keys go with it).
    private func releaseHeld(_ job: Job) {
        for step in job.held.reversed() {
            try? sink.write(step.kind, code: step.key.code, isPressed: false)
        }
    }
}
