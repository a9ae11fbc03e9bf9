public import GesturedProtocol
import Synchronization

/// Small state shared between the input and IPC domains (STYLE.md B8: `Mutex` for tiny shared
/// state): the device list and counters for `status` and `list_devices`.
public final class DaemonState: Sendable {
    struct Snapshot {
        var devices: [String: DeviceInfo] = [:]
        var gesturesEmitted: Int64 = 0
        var configPath: String?
        var gestureCount = 0
    }

    private let storage = Mutex(Snapshot())
    /// Each seat's active session and lock state (kept by ``LogindTracker``).
    public let seatSessions = SeatSessions()
    /// Daemon start, µs on CLOCK_MONOTONIC.
    public let startedAtMicroseconds: Int64

    public init(startedAtMicroseconds: Int64) {
        self.startedAtMicroseconds = startedAtMicroseconds
    }

    public func setDevice(_ info: DeviceInfo) { storage.withLock { $0.devices[info.device] = info } }
    public func removeDevice(node: String) { storage.withLock { $0.devices[node] = nil } }
    public func addGesturesEmitted(_ n: Int) { storage.withLock { $0.gesturesEmitted += Int64(n) } }

    public func setConfiguration(path: String?, gestureCount: Int) {
        storage.withLock {
            $0.configPath = path
            $0.gestureCount = gestureCount
        }
    }

    /// Devices sorted by node.
    public var devices: [DeviceInfo] { storage.withLock { $0.devices.values.sorted { $0.device < $1.device } } }
    public var gesturesEmitted: Int64 { storage.withLock { $0.gesturesEmitted } }
    public var configPath: String? { storage.withLock { $0.configPath } }
    public var gestureCount: Int { storage.withLock { $0.gestureCount } }
    /// The seat of an open device (`ID_SEAT`, else "seat0"); nil when no such device is open.
    public func seat(ofDevice node: String) -> String? { storage.withLock { $0.devices[node]?.seat } }
}
