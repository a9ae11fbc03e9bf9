internal import CLinuxInput
internal import Glibc

/// One input device as udev describes it.
public struct UdevInputDevice: Sendable, Hashable {
    /// `/dev/input/eventN`.
    public var devnode: String
    /// Every udev property (`ID_INPUT_TOUCHSCREEN=1`, `GESTURED_DEVICE=touchpad`, …).
    public var properties: [String: String]
}

/// A hot-plug event from the udev monitor.
public struct UdevEvent: Sendable, Hashable {
    /// `add`, `remove`, `change`, …
    public var action: String
    public var devnode: String
    public var properties: [String: String]
}

/// Lists the input event devices udev knows (`udev_enumerate`, subsystem `input`).
public enum UdevEnumerator {
    /// Every `/dev/input/event*` node with its properties, sorted by node.
    public static func inputDevices() throws(SystemError) -> [UdevInputDevice] {
        guard let udev = udev_new() else { throw SystemError(operation: "create a udev context", errno: .current) }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { throw SystemError(operation: "enumerate udev devices", errno: .current) }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_scan_devices(enumerate)
        var result: [UdevInputDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }), node.hasPrefix("/dev/input/event") else {
                continue
            }
            result.append(UdevInputDevice(devnode: node, properties: properties(of: device)))
        }
        return result.sorted { $0.devnode < $1.devnode }
    }

    static func properties(of device: OpaquePointer) -> [String: String] {
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        return properties
    }
}

/// The udev netlink monitor for the `input` subsystem (`udev_monitor`), non-blocking.
///
/// Confinement: used from the input queue only; the `Sendable` conformance is unchecked for
/// that reason (STYLE.md B8: C-handle owners).
public final class UdevMonitor: @unchecked Sendable {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// Readable when events are pending.
    public let fileDescriptor: Int32

    public init() throws(SystemError) {
        guard let udev = udev_new() else { throw SystemError(operation: "create a udev context", errno: .current) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            throw SystemError(operation: "open the udev monitor", errno: .current)
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        let status = udev_monitor_enable_receiving(monitor)
        if status < 0 {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw SystemError(operation: "start receiving udev events", errno: Errno(rawValue: -status))
        }
        self.udev = udev
        self.monitor = monitor
        let fd = udev_monitor_get_fd(monitor)
        // libudev's monitor socket is blocking by default; the input queue must never block.
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        self.fileDescriptor = fd
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The next pending event for an event node, or nil when none is pending.
    public func receive() -> UdevEvent? {
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }), node.hasPrefix("/dev/input/event") else {
                continue
            }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? "change"
            return UdevEvent(action: action, devnode: node, properties: UdevEnumerator.properties(of: device))
        }
        return nil
    }
}
