public import GesturedProtocol
public import GesturedSystem

/// The daemon's small shared state: the device list and counters for `status` and
/// `list_devices`, written by the input hub and read by the IPC server.
///
/// Confined to the daemon's one event loop, where the input hub and the IPC server both run:
/// no lock, and every access checks that it is made on the loop thread (a precondition, so a
/// caller elsewhere fails at once instead of racing). Work that starts elsewhere (the SIGHUP
/// reload on the main task) hops onto the loop first (`withTaskExecutorPreference(loop)`:
/// DESIGN.md "Daemon, event loop and socket protocol" › "One event loop").
///
/// `@unchecked Sendable` (STYLE.md B8 (a)): the reference is handed to the two actors of the
/// loop; its fields are only touched on the loop thread, which ``confined()`` checks.
public final class DaemonState: @unchecked Sendable {
    private let loop: EventLoop
    private var devicesByNode: [String: DeviceInfo] = [:]
    private var emitted: Int64 = 0
    private var path: String?
    private var gestures = 0
    private var names: [String] = []
    /// Each seat's active session and lock state (kept by ``LogindTracker``; it keeps a lock
    /// of its own, because tests and the logind mock read it from other threads).
    public let seatSessions = SeatSessions()
    /// Daemon start, µs on CLOCK_MONOTONIC.
    public let startedAtMicroseconds: Int64

    /// - Parameter loop: the event loop every access is made on.
    public init(startedAtMicroseconds: Int64, loop: EventLoop) {
        self.startedAtMicroseconds = startedAtMicroseconds
        self.loop = loop
    }

    private func confined() {
        precondition(loop.isCurrent, "DaemonState used off its event loop")
    }

    public func setDevice(_ info: DeviceInfo) {
        confined()
        devicesByNode[info.device] = info
    }

    public func removeDevice(node: String) {
        confined()
        devicesByNode[node] = nil
    }

    public func addGesturesEmitted(_ n: Int) {
        confined()
        emitted += Int64(n)
    }

    public func setConfiguration(path: String?, gestureCount: Int, gestureNames: [String] = []) {
        confined()
        self.path = path
        gestures = gestureCount
        names = gestureNames
    }

    /// The configured gesture names, in configuration order, then those only the open
    /// devices list (what a `subscribe` may name).
    public var gestureNames: [String] {
        confined()
        var result = names
        for device in devicesByNode.values.sorted(by: { $0.device < $1.device }) {
            for name in device.gestures where !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// Devices sorted by node.
    public var devices: [DeviceInfo] {
        confined()
        return devicesByNode.values.sorted { $0.device < $1.device }
    }

    public var gesturesEmitted: Int64 {
        confined()
        return emitted
    }

    public var configPath: String? {
        confined()
        return path
    }

    public var gestureCount: Int {
        confined()
        return gestures
    }

    /// The seat of an open device (`ID_SEAT`, else "seat0"); nil when no such device is open.
    public func seat(ofDevice node: String) -> String? {
        confined()
        return devicesByNode[node]?.seat
    }
}
