internal import CLinuxInput
public import GestureEngine
internal import Glibc

/// A virtual input device created through `/dev/uinput` from a ``DeviceDescription``, for the
/// kernel-tier tests: the events written to it come back out of a real `/dev/input/eventN`.
///
/// Not thread-safe: use each instance from one isolation domain at a time; that confinement is
/// why the `Sendable` conformance is unchecked.
public final class UInputDevice: @unchecked Sendable {
    private var uinput: OpaquePointer?
    /// The event node the kernel created, e.g. `/dev/input/event7`, when known.
    public let devnode: String?
    /// The sysfs path of the new device, when known.
    public let sysPath: String?

    /// Creates the device (`libevdev_uinput_create_from_device` with
    /// `LIBEVDEV_UINPUT_OPEN_MANAGED`) with the name, ids, properties, codes and axes of
    /// `description`.
    ///
    /// - Throws: ``SystemError`` on `/dev/uinput` — `ENOENT` when the uinput module is not
    ///   loaded, `EACCES` when not root.
    public init(description: DeviceDescription) throws(SystemError) {
        let template = Libevdev.makeLibevdev(from: description)
        defer { libevdev_free(template) }
        var created: OpaquePointer?
        let result = retryingNegativeErrno {
            libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        }
        if case .failure(let error) = result {
            throw SystemError(operation: "create a uinput device with", path: "/dev/uinput", errno: error)
        }
        guard let created else {
            throw SystemError(operation: "create a uinput device with", path: "/dev/uinput", errno: .noMemory)
        }
        uinput = created
        devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
        sysPath = libevdev_uinput_get_syspath(created).map { String(cString: $0) }
    }

    deinit { destroy() }

    /// Removes the device from the system. Calling it again does nothing.
    public func destroy() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        uinput = nil
    }

    /// Writes one event (the kernel stamps its own time; `event.time` is ignored).
    /// The corresponding libevdev function is `libevdev_uinput_write_event`.
    public func write(_ event: RawEvent) throws(SystemError) {
        guard let uinput else { throw SystemError(operation: "write to uinput device", errno: .badFileDescriptor) }
        let result = retryingNegativeErrno {
            libevdev_uinput_write_event(uinput, UInt32(event.usage.type), UInt32(event.usage.code), event.value)
        }
        if case .failure(let error) = result {
            throw SystemError(operation: "write to uinput device", path: devnode, errno: error)
        }
    }

    /// Writes events in order; pacing them in real time is the caller's business.
    public func write(_ events: [RawEvent]) throws(SystemError) {
        for event in events { try write(event) }
    }
}
