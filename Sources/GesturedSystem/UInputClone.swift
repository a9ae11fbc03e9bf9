internal import CLinuxInput
public import GestureEngine
internal import Glibc

/// A uinput copy of a grabbed evdev device, for the compositor to read instead of the source
/// (issue 13): same name, bus, vendor, product, version, properties, codes and absinfo, so
/// that libinput quirks, udev rules and desktop settings matching by name and ids still
/// apply. Differences, each for a reason:
///
/// - `phys` is ``physPrefix`` followed by the source's node name (`gestured-clone/event5`), so
///   gestured never opens its own clone and udev rules can tell it apart;
/// - the kernel's `fuzz` is 0 on every axis: the source's values were already filtered by the
///   kernel with the source's fuzz, and filtering them again would move them;
/// - `ABS_MT_TOOL_TYPE` (0…`MT_TOOL_MAX`) is added when the source lacks it: a cancelled touch
///   is switched to `MT_TOOL_PALM`, which libinput turns into a touch cancel.
///
/// Not thread-safe: used from the input actor only, hence the unchecked `Sendable`.
public final class UInputClone: @unchecked Sendable {
    /// Every clone's `phys` starts with this.
    public static let physPrefix = "gestured-clone/"

    private var uinput: OpaquePointer?
    /// The `/dev/uinput` descriptor this object opened (libevdev does not close it).
    private var fileDescriptor: Int32 = -1
    /// The clone's event node (`/dev/input/eventN`), when known.
    public let devnode: String?
    /// The clone's sysfs path, when known.
    public let sysPath: String?
    /// The `phys` value given to the clone.
    public let phys: String
    /// The kernel's form of the events of one write, kept between writes (a frame costs no
    /// allocation once it has grown to the largest frame), zeroed: the kernel stamps the
    /// events, their times stay 0.
    private var buffer = UnsafeMutableBufferPointer<input_event>(start: nil, count: 0)

    private static func zeroedBuffer(capacity: Int) -> UnsafeMutableBufferPointer<input_event> {
        let buffer = UnsafeMutableBufferPointer<input_event>.allocate(capacity: capacity)
        buffer.initialize(repeating: input_event())
        return buffer
    }

    /// Creates the clone of `source` (`UI_SET_PHYS`, then
    /// `libevdev_uinput_create_from_device` on the same `/dev/uinput` descriptor).
    ///
    /// - Throws: ``SystemError`` on `/dev/uinput` (`ENOENT`: the uinput module is not loaded;
    ///   `EACCES`: no write access to it).
    public init(of source: EvdevDevice) throws(SystemError) {
        guard let handle = source.libevdevHandle else {
            throw SystemError(operation: "clone", path: source.path, errno: .badFileDescriptor)
        }
        let node = source.path.split(separator: "/").last.map(String.init) ?? source.path
        phys = Self.physPrefix + node
        guard let template = libevdev_new() else {
            throw SystemError(operation: "clone", path: source.path, errno: .noMemory)
        }
        defer { libevdev_free(template) }
        Self.copy(from: handle, to: template, phys: phys)
        // The descriptor is opened here rather than by libevdev (LIBEVDEV_UINPUT_OPEN_MANAGED)
        // so that `phys` can be set before the device is created: libevdev leaves it unset.
        let fd = try systemCall("open", path: "/dev/uinput") { Glibc.open("/dev/uinput", O_RDWR | O_CLOEXEC) }
        if CLinuxInput_uinputSetPhys(fd, phys) < 0 {
            let error = Errno.current
            _ = Glibc.close(fd)
            throw SystemError(operation: "set the phys of a uinput clone with", path: "/dev/uinput", errno: error)
        }
        var created: OpaquePointer?
        let result = retryingNegativeErrno { libevdev_uinput_create_from_device(template, fd, &created) }
        if case .failure(let error) = result {
            _ = Glibc.close(fd)
            throw SystemError(operation: "create a uinput clone with", path: "/dev/uinput", errno: error)
        }
        guard let created else {
            _ = Glibc.close(fd)
            throw SystemError(operation: "create a uinput clone with", path: "/dev/uinput", errno: .noMemory)
        }
        fileDescriptor = fd
        uinput = created
        devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
        sysPath = libevdev_uinput_get_syspath(created).map { String(cString: $0) }
    }

    deinit {
        destroy()
        buffer.deallocate()
    }

    /// Removes the clone from the system (the compositor sees the device go away). Calling it
    /// again does nothing.
    public func destroy() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        uinput = nil
        if fileDescriptor >= 0 {
            _ = Glibc.close(fileDescriptor)
            fileDescriptor = -1
        }
    }

    /// Writes events in order (each frame ends with its `SYN_REPORT`) in one `write(2)` on
    /// the uinput descriptor: uinput takes any number of whole events per write, and a call
    /// per event (`libevdev_uinput_write_event`) costs a system call each. The kernel stamps
    /// each frame as its `SYN_REPORT` goes through.
    public func write(_ events: [RawEvent]) throws(SystemError) {
        guard uinput != nil, fileDescriptor >= 0 else {
            throw SystemError(operation: "write to uinput clone", errno: .badFileDescriptor)
        }
        guard !events.isEmpty else { return }
        if buffer.count < events.count {
            let capacity = max(events.count, buffer.count * 2, 64)
            buffer.deallocate()
            buffer = Self.zeroedBuffer(capacity: capacity)
        }
        let kernel = buffer
        for (i, event) in events.enumerated() {
            kernel[i].type = event.usage.type
            kernel[i].code = event.usage.code
            kernel[i].value = event.value
        }
        let size = MemoryLayout<input_event>.stride
        var offset = 0
        let total = events.count * size
        let bytes = UnsafeRawPointer(kernel.baseAddress!)
        while offset < total {
            let written = Glibc.write(fileDescriptor, bytes + offset, total - offset)
            if written < 0 {
                let error = Errno.current
                if error == .interrupted { continue }
                throw SystemError(operation: "write to uinput clone", path: devnode, errno: error)
            }
            offset += written
        }
    }

    private static func copy(from source: OpaquePointer, to clone: OpaquePointer, phys: String) {
        libevdev_set_name(clone, libevdev_get_name(source))
        libevdev_set_phys(clone, phys)
        if let uniq = libevdev_get_uniq(source) { libevdev_set_uniq(clone, uniq) }
        libevdev_set_id_bustype(clone, libevdev_get_id_bustype(source))
        libevdev_set_id_vendor(clone, libevdev_get_id_vendor(source))
        libevdev_set_id_product(clone, libevdev_get_id_product(source))
        libevdev_set_id_version(clone, libevdev_get_id_version(source))
        for property in 0...Libevdev.maxProperty where libevdev_has_property(source, property) != 0 {
            libevdev_enable_property(clone, property)
        }
        let abs = UInt32(EV_ABS)
        for type in 0...Libevdev.maxType where libevdev_has_event_type(source, type) != 0 {
            let highest = libevdev_event_type_get_max(type)
            guard highest >= 0 else { continue }
            libevdev_enable_event_type(clone, type)
            for code in 0...UInt32(highest) where libevdev_has_event_code(source, type, code) != 0 {
                if type == abs, let info = libevdev_get_abs_info(source, code) {
                    var copy = info.pointee
                    copy.fuzz = 0
                    copy.value = copy.minimum
                    libevdev_enable_event_code(clone, type, code, &copy)
                } else if type == UInt32(EV_REP) {
                    var value = libevdev_get_event_value(source, type, code)
                    libevdev_enable_event_code(clone, type, code, &value)
                } else {
                    libevdev_enable_event_code(clone, type, code, nil)
                }
            }
        }
        let tool = UInt32(EventUsage.absMTToolType.code)
        if libevdev_has_event_code(clone, abs, UInt32(EventUsage.absMTSlot.code)) != 0,
            libevdev_has_event_code(clone, abs, tool) == 0
        {
            var info = input_absinfo(value: 0, minimum: 0, maximum: Int32(MT_TOOL_MAX), fuzz: 0, flat: 0, resolution: 0)
            libevdev_enable_event_code(clone, abs, tool, &info)
        }
    }
}

extension EvdevDevice {
    /// Whether this node is a gestured clone (its `phys` starts with
    /// ``UInputClone/physPrefix``): the daemon never reads its own output.
    public var isGesturedClone: Bool { phys?.hasPrefix(UInputClone.physPrefix) ?? false }
}
