/// The recognizer engine: frames and time in, gesture events and the next deadline out.
///
/// Pure: no clock reads, no I/O, no logging, no locks (STYLE.md B1.1). One instance per device.
public struct GestureEngine: Sendable {
    public let device: DeviceDescription
    public private(set) var configuration: EngineConfiguration

    public init(device: DeviceDescription, configuration: EngineConfiguration) {
        self.device = device
        self.configuration = configuration
    }

    /// Runs one engine step for `frame` (spec §5.5); `frame.timestamp` is "now".
    public mutating func process(_ frame: Frame) -> [EngineOutput] {
        []
    }

    /// Fires every deadline ≤ `now` (spec §6.2).
    public mutating func advance(to now: Timestamp) -> [EngineOutput] {
        []
    }

    /// Cancels everything in flight (device gone, SYN_DROPPED without a frame).
    public mutating func reset(at now: Timestamp) -> [EngineOutput] {
        []
    }

    /// The earliest pending timer, for the daemon's single timer.
    public var nextDeadline: Timestamp? { nil }

    /// Diagnostics collected since the last call; the caller logs them.
    public mutating func drainDiagnostics() -> [EngineDiagnostic] {
        []
    }
}
