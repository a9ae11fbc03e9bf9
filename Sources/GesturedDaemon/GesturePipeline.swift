public import GestureEngine

/// Kernel events in, engine outputs out: the one path shared by the daemon, `--dry-run` and
/// `--replay` (issue 3: recordings replay "through exactly the same decoder and engine").
public struct GesturePipeline: Sendable {
    public let node: String
    public let device: DeviceDescription
    public private(set) var assembler: FrameAssembler
    public private(set) var engine: GestureEngine
    /// The time of the last frame or deadline processed (never goes backwards).
    public private(set) var now: Timestamp?

    public init(node: String, device: DeviceDescription, configuration: EngineConfiguration) {
        self.node = node
        self.device = device
        self.assembler = FrameAssembler(device: device, maxTouches: configuration.maxTouches)
        self.engine = GestureEngine(device: device, configuration: configuration)
    }

    /// Feeds kernel events; every `SYN_REPORT` becomes a frame and one engine step.
    public mutating func feed<S: Sequence<RawEvent>>(_ events: S) -> [EngineOutput] {
        var outputs: [EngineOutput] = []
        for event in events {
            guard let frame = assembler.feed(event) else { continue }
            now = frame.timestamp
            outputs += engine.process(frame)
        }
        return outputs
    }

    /// Fires the engine's deadlines up to `time` (the daemon's timer, or replay's clock).
    public mutating func advance(to time: Timestamp) -> [EngineOutput] {
        let clamped = max(time, now ?? time)
        now = clamped
        return engine.advance(to: clamped)
    }

    /// The engine's next deadline, for the single timer.
    public var nextDeadline: Timestamp? { engine.nextDeadline }

    /// Cancels every touch and gesture in flight: the device went away or the daemon stops.
    public mutating func cancelAll(at time: Timestamp) -> [EngineOutput] {
        let t = max(time, now ?? time)
        var outputs: [EngineOutput] = []
        if let frame = assembler.cancelAll(at: t) {
            outputs += engine.process(frame)
        }
        outputs += engine.reset(at: t)
        return outputs
    }

    /// Runs every pending deadline, as if time went on after a recording's last event.
    public mutating func drainDeadlines() -> [EngineOutput] {
        var outputs: [EngineOutput] = []
        var guardCount = 0
        while let deadline = engine.nextDeadline, guardCount < 1000 {
            outputs += advance(to: deadline)
            guardCount += 1
        }
        return outputs
    }

    /// The end of a recording: pending deadlines fire as if time went on, then whatever is
    /// still down is cancelled, as when a device goes away (a recording that stops with
    /// fingers on the surface must not leave gestures open).
    public mutating func finishReplay() -> [EngineOutput] {
        var outputs = drainDeadlines()
        if let now { outputs += cancelAll(at: now) }
        return outputs
    }

    /// Replaces the configuration; gestures of changed recognizers are cancelled.
    public mutating func reconfigure(_ configuration: EngineConfiguration, at time: Timestamp) -> [EngineOutput] {
        let t = max(time, now ?? time)
        return engine.reconfigure(configuration, at: t)
    }

    /// Assembler and engine diagnostics since the last call, for the caller to log.
    public mutating func drainDiagnostics() -> [EngineDiagnostic] {
        assembler.drainDiagnostics() + engine.drainDiagnostics()
    }
}
