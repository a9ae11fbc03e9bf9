internal import CLinuxInput
internal import Glibc

/// An input device node as udev knows it.
public struct UdevInputDevice: Sendable, Hashable {
    /// The device node, e.g. `/dev/input/event5`.
    public var devnode: String
    /// The sysfs path, e.g. `/sys/devices/…/input/input12/event5`.
    public var sysPath: String
    /// The device name (the parent input device's `name` attribute), when known.
    public var name: String?
    /// Every udev property of the event node (`ID_INPUT_TOUCHPAD=1`, `GESTURED_DEVICE=…`).
    public var properties: [String: String]

    public init(devnode: String, sysPath: String, name: String?, properties: [String: String]) {
        self.devnode = devnode
        self.sysPath = sysPath
        self.name = name
        self.properties = properties
    }

    /// udev's `input_id` builtin says touchscreen (`ID_INPUT_TOUCHSCREEN=1`).
    public var isTouchscreen: Bool { properties["ID_INPUT_TOUCHSCREEN"] == "1" }
    /// udev's `input_id` builtin says touchpad (`ID_INPUT_TOUCHPAD=1`).
    public var isTouchpad: Bool { properties["ID_INPUT_TOUCHPAD"] == "1" }
    /// What the gestured udev rule tagged the device as (`GESTURED_DEVICE`, `touchpad` or
    /// `touchscreen`), `nil` when the rule is not installed or did not match.
    public var gesturedDevice: String? { properties["GESTURED_DEVICE"] }
}

/// Lists input event nodes through libudev (`udev_enumerate` on subsystem `input`).
public enum UdevEnumerator {
    /// Every `/dev/input/event*` node udev knows, sorted by node.
    ///
    /// Without a running udev daemon (containers, initramfs) the list still comes from sysfs,
    /// but the `ID_INPUT_*` and `GESTURED_DEVICE` properties are missing.
    ///
    /// - Throws: ``SystemError`` when libudev cannot be set up or the scan fails.
    public static func inputDevices() throws(SystemError) -> [UdevInputDevice] {
        guard let udev = udev_new() else { throw SystemError(operation: "create a udev context", errno: .current) }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else {
            throw SystemError(operation: "create a udev enumeration", errno: .current)
        }
        defer { udev_enumerate_unref(enumerate) }
        if case .failure(let error) = retryingNegativeErrno({ udev_enumerate_add_match_subsystem(enumerate, "input") })
        {
            throw SystemError(operation: "filter the udev enumeration", errno: error)
        }
        if case .failure(let error) = retryingNegativeErrno({ udev_enumerate_scan_devices(enumerate) }) {
            throw SystemError(operation: "scan udev input devices", path: "/sys/class/input", errno: error)
        }
        var result: [UdevInputDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            if let info = Udev.inputDevice(device) { result.append(info) }
        }
        return result.sorted { $0.devnode.naturalOrderPrecedes($1.devnode) }
    }
}

/// What happened to a device, as the udev monitor reports it.
public struct UdevEvent: Sendable, Hashable {
    /// The udev action.
    public enum Action: String, Sendable, Hashable {
        case add, remove, change, bind, unbind, other
    }

    /// What happened (`add` and `remove` matter to the daemon).
    public var action: Action
    /// The device (its properties as udev sent them with the event).
    public var device: UdevInputDevice

    public init(action: Action, device: UdevInputDevice) {
        self.action = action
        self.device = device
    }
}

/// A udev netlink monitor for hotplug of input devices (subsystem `input`).
///
/// Watch ``fileDescriptor`` with a `DispatchSourceRead` and call ``receive()`` until it
/// returns `nil`. Events for nodes other than `/dev/input/event*` are skipped.
///
/// Not thread-safe: use each instance from one isolation domain at a time; that confinement is
/// why the `Sendable` conformance is unchecked.
public final class UdevMonitor: @unchecked Sendable {
    private var udev: OpaquePointer?
    private var monitor: OpaquePointer?
    /// The monitor's non-blocking netlink socket; `-1` after ``close()``.
    public private(set) var fileDescriptor: Int32 = -1

    /// Connects to udev's netlink group (events after rule processing).
    ///
    /// - Throws: ``SystemError`` when netlink is unavailable (e.g. a sandbox without
    ///   `AF_NETLINK`) or the filter cannot be installed.
    public init() throws(SystemError) {
        guard let udev = udev_new() else { throw SystemError(operation: "create a udev context", errno: .current) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            let error = Errno.current
            udev_unref(udev)
            throw SystemError(
                operation: "open the udev monitor",
                errno: error == Errno(rawValue: 0) ? .notSupported : error
            )
        }
        self.udev = udev
        self.monitor = monitor
        if case .failure(let error) = retryingNegativeErrno({
            udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        }) {
            close()
            throw SystemError(operation: "filter the udev monitor", errno: error)
        }
        if case .failure(let error) = retryingNegativeErrno({ udev_monitor_enable_receiving(monitor) }) {
            close()
            throw SystemError(operation: "start the udev monitor", errno: error)
        }
        let fd = udev_monitor_get_fd(monitor)
        // libudev creates the socket non-blocking already; make sure, a read must never block.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        fileDescriptor = fd
    }

    deinit { close() }

    /// Releases the monitor and its socket. Calling it again does nothing.
    public func close() {
        if let monitor { udev_monitor_unref(monitor) }
        monitor = nil
        if let udev { udev_unref(udev) }
        udev = nil
        fileDescriptor = -1
    }

    /// The next event for an input event node, or `nil` when none is waiting.
    public func receive() -> UdevEvent? {
        guard let monitor else { return nil }
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            guard let info = Udev.inputDevice(device) else { continue }
            let actionName = udev_device_get_action(device).map { String(cString: $0) } ?? ""
            return UdevEvent(action: UdevEvent.Action(rawValue: actionName) ?? .other, device: info)
        }
        return nil
    }
}

enum Udev {
    /// The facts of an event node, or `nil` for other input nodes (`inputN`, `mouseN`, `js0`).
    static func inputDevice(_ device: OpaquePointer) -> UdevInputDevice? {
        guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }),
            node.hasPrefix("/dev/input/event")
        else { return nil }
        let sysPath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        var name: String?
        if let parent = udev_device_get_parent(device), let value = udev_device_get_sysattr_value(parent, "name") {
            name = String(cString: value)
        }
        return UdevInputDevice(devnode: node, sysPath: sysPath, name: name, properties: properties)
    }
}

extension String {
    /// `event2` < `event10`: compares the digit runs as numbers.
    func naturalOrderPrecedes(_ other: String) -> Bool {
        let a = Array(utf8)
        let b = Array(other.utf8)
        var i = 0
        var j = 0
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                var x = 0
                var y = 0
                while i < a.count && isDigit(a[i]) {
                    x = x * 10 + Int(a[i] - 48)
                    i += 1
                }
                while j < b.count && isDigit(b[j]) {
                    y = y * 10 + Int(b[j] - 48)
                    j += 1
                }
                if x != y { return x < y }
            } else {
                if a[i] != b[j] { return a[i] < b[j] }
                i += 1
                j += 1
            }
        }
        return a.count - i < b.count - j
    }
}
