internal import CLinuxInput
public import GestureEngine
internal import Glibc

/// What one ``EvdevDevice/readAvailable()`` call got.
public enum EvdevReadOutcome: Sendable, Equatable {
    /// The events read (possibly none). After lost events the list contains a `SYN_DROPPED`
    /// followed by libevdev's sync events and a `SYN_REPORT`; feed them all to a
    /// ``FrameAssembler`` (it resyncs on exactly that shape).
    case events([RawEvent])
    /// The device was unplugged (`ENODEV`). The events read before are included; feed them,
    /// then call ``FrameAssembler/cancelAll(at:)`` and close the device.
    case removed([RawEvent])
}

/// An open evdev device node (`/dev/input/eventN`), read through libevdev — or, for multitouch
/// protocol-A devices, through mtdev, which converts them to protocol B.
///
/// The device owns its file descriptor and C handles and releases them in ``close()`` or
/// `deinit`. Keep it in a dictionary and read it when a `DispatchSourceRead` on
/// ``fileDescriptor`` fires: the descriptor is non-blocking and ``readAvailable()`` reads until
/// the kernel has nothing more.
///
/// Not thread-safe: use each instance from one isolation domain at a time (the input actor's
/// queue). That confinement is why the `Sendable` conformance is unchecked.
public final class EvdevDevice: @unchecked Sendable {
    /// The device node, e.g. `/dev/input/event5`.
    public let path: String
    /// Name, ids, properties, codes and axes as the kernel reports them (for an mtdev device,
    /// with the `ABS_MT_SLOT` and `ABS_MT_TRACKING_ID` axes mtdev adds).
    public let description: DeviceDescription
    /// The non-blocking, close-on-exec descriptor; `-1` after ``close()``.
    public private(set) var fileDescriptor: Int32
    /// The device is multitouch protocol A and its events are converted by mtdev.
    public let usesMtdev: Bool
    /// This process holds an `EVIOCGRAB` on the device.
    public private(set) var isGrabbed = false

    private var handle: OpaquePointer?
    private var converter: UnsafeMutablePointer<mtdev>?
    /// What ``readAvailable()`` returns, reused from read to read.
    private var readBuffer: [RawEvent] = []

    /// Opens `path` (`O_RDONLY | O_NONBLOCK | O_CLOEXEC`), reads its description through
    /// `libevdev_new_from_fd`, and switches its event timestamps to `CLOCK_MONOTONIC`
    /// (`libevdev_set_clock_id`) so that they share the clock of the daemon's timers.
    ///
    /// - Throws: ``SystemError`` with operation `open` (`ENOENT`, `EACCES`, …), or
    ///   `read the evdev description of` (`ENOTTY`: not an evdev node). Its
    ///   ``SystemError/suggestion`` says what the user can do.
    public init(path: String) throws(SystemError) {
        let fd = try systemCall("open", path: path) { Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        var handle: OpaquePointer?
        switch retryingNegativeErrno({ libevdev_new_from_fd(fd, &handle) }) {
        case .success:
            break
        case .failure(let error):
            _ = Glibc.close(fd)
            throw SystemError(operation: "read the evdev description of", path: path, errno: error)
        }
        guard let handle else {
            _ = Glibc.close(fd)
            throw SystemError(operation: "read the evdev description of", path: path, errno: .noMemory)
        }
        if case .failure(let error) = retryingNegativeErrno({ libevdev_set_clock_id(handle, CLOCK_MONOTONIC) }) {
            libevdev_free(handle)
            _ = Glibc.close(fd)
            throw SystemError(operation: "set the monotonic clock on", path: path, errno: error)
        }
        var description = Libevdev.describe(handle)
        var converter: UnsafeMutablePointer<mtdev>?
        if description.isMultitouchA {
            // mtdev reads the descriptor itself and hands out protocol-B events.
            guard let created = mtdev_new_open(fd) else {
                libevdev_free(handle)
                _ = Glibc.close(fd)
                throw SystemError(operation: "set up mtdev for", path: path, errno: .noMemory)
            }
            converter = created
            let slotMaximum = created.pointee.caps.has_slot != 0 ? created.pointee.caps.slot.maximum : 0
            description.axes[EventUsage.absMTSlot.code] = AxisInfo(
                minimum: 0,
                maximum: slotMaximum > 0 ? slotMaximum : 9
            )
            description.codes.insert(.absMTSlot)
            if description.axes[EventUsage.absMTTrackingID.code] == nil {
                description.axes[EventUsage.absMTTrackingID.code] = AxisInfo(minimum: 0, maximum: 65535)
                description.codes.insert(.absMTTrackingID)
            }
        }
        self.path = path
        self.fileDescriptor = fd
        self.handle = handle
        self.converter = converter
        self.usesMtdev = converter != nil
        self.description = description
    }

    /// The touches already down and keys already held when the device was opened, as one
    /// frame of events stamped `time` (empty when nothing is down). The kernel sends only
    /// changes: a finger resting on the surface when the daemon starts would otherwise be
    /// unknown until it moves, and its coordinates that never change never arrive. libevdev
    /// read the state at open (`EVIOCGMTSLOTS`, `EVIOCGKEY`); this replays it for
    /// ``FrameAssembler`` the way a `SYN_DROPPED` resync does. Nothing for protocol-A devices
    /// (mtdev keeps its own state).
    public func initialStateEvents(at time: Timestamp) -> [RawEvent] {
        guard let handle, converter == nil else { return [] }
        var events: [RawEvent] = []
        func add(_ usage: EventUsage, _ value: Int32) { events.append(RawEvent(time: time, usage: usage, value: value)) }
        let abs = UInt32(EventUsage.evAbs)
        let slots = libevdev_get_num_slots(handle)
        if slots > 0 {
            let perSlot: [EventUsage] = [
                .absMTPositionX, .absMTPositionY, .absMTPressure, .absMTTouchMajor, .absMTTouchMinor,
                .absMTOrientation, .absMTToolType,
            ].filter { libevdev_has_event_code(handle, abs, UInt32($0.code)) != 0 }
            for slot in 0..<UInt32(slots) {
                let id = libevdev_get_slot_value(handle, slot, UInt32(EventUsage.absMTTrackingID.code))
                guard id >= 0 else { continue }
                add(.absMTSlot, Int32(slot))
                add(.absMTTrackingID, id)
                for usage in perSlot { add(usage, libevdev_get_slot_value(handle, slot, UInt32(usage.code))) }
            }
            if !events.isEmpty { add(.absMTSlot, libevdev_get_current_slot(handle)) }
        }
        let key = UInt32(EventUsage.evKey)
        for usage in Self.stateKeys where libevdev_has_event_code(handle, key, UInt32(usage.code)) != 0 {
            if libevdev_get_event_value(handle, key, UInt32(usage.code)) != 0 { add(usage, 1) }
        }
        guard !events.isEmpty else { return [] }
        for usage in [EventUsage.absX, .absY, .absPressure] where libevdev_has_event_code(handle, abs, UInt32(usage.code)) != 0 {
            add(usage, libevdev_get_event_value(handle, abs, UInt32(usage.code)))
        }
        add(.synReport, 0)
        return events
    }

    /// Keys whose held state a frame carries: touch, finger counts, buttons.
    private static let stateKeys: [EventUsage] = [
        .btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap,
        .btnLeft, .btnRight, .btnMiddle,
    ]

    /// Opens a device node; the same as ``init(path:)``.
    public static func open(path: String) throws(SystemError) -> EvdevDevice {
        try EvdevDevice(path: path)
    }

    deinit {
        close()
    }

    /// Releases the grab, the mtdev converter, the libevdev handle and the descriptor.
    /// Calling it again does nothing.
    public func close() {
        if isGrabbed { ungrab() }
        if let converter { mtdev_close_delete(converter) }
        converter = nil
        if let handle { libevdev_free(handle) }
        handle = nil
        if fileDescriptor >= 0 {
            // EINTR on close must not be retried on Linux: the descriptor is already gone.
            _ = Glibc.close(fileDescriptor)
            fileDescriptor = -1
        }
    }

    /// Takes the device exclusively (`EVIOCGRAB`): other readers, such as libinput, stop
    /// receiving its events. The corresponding libevdev function is `libevdev_grab`.
    ///
    /// - Throws: ``SystemError`` with `EBUSY` when another process grabbed it first.
    public func grab() throws(SystemError) {
        guard let handle, !isGrabbed else { return }
        if case .failure(let error) = retryingNegativeErrno({ libevdev_grab(handle, LIBEVDEV_GRAB) }) {
            throw SystemError(operation: "grab", path: path, errno: error)
        }
        isGrabbed = true
    }

    /// Gives the device back to other readers. Errors are ignored: an unplugged device has no
    /// grab left to release.
    public func ungrab() {
        guard let handle, isGrabbed else { return }
        _ = libevdev_grab(handle, LIBEVDEV_UNGRAB)
        isGrabbed = false
    }

    /// Reads every event available now, without blocking.
    ///
    /// Implements libevdev's `SYN_DROPPED` protocol as `libevdev.h` describes it: read with
    /// `LIBEVDEV_READ_FLAG_NORMAL`; on `LIBEVDEV_READ_STATUS_SYNC` the event is the
    /// `SYN_DROPPED`, then read with `LIBEVDEV_READ_FLAG_SYNC` until `-EAGAIN` to get the
    /// events that bring the state up to date, then continue normally. The returned list keeps
    /// that shape (`SYN_DROPPED`, sync events, `SYN_REPORT`) for ``FrameAssembler``.
    ///
    /// - Returns: ``EvdevReadOutcome/removed(_:)`` when the device is gone (`ENODEV`).
    /// - Throws: ``SystemError`` for any other read failure.
    public func readAvailable() throws(SystemError) -> EvdevReadOutcome {
        guard fileDescriptor >= 0 else {
            throw SystemError(operation: "read events from", path: path, errno: .badFileDescriptor)
        }
        if let converter { return try readThroughMtdev(converter) }
        guard let handle else { return .events([]) }
        var event = input_event()
        // The last read's array is released by then (the caller fed it and dropped it), so it
        // is emptied in place: a read costs no allocation.
        readBuffer.removeAll(keepingCapacity: true)
        let result = EvdevReadLoop.run(into: &readBuffer) { syncing in
            let status = libevdev_next_event(
                handle,
                syncing ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue,
                &event
            )
            return (status, RawEvent(event))
        }
        switch result {
        case .success(let outcome): return outcome
        case .failure(let error): throw SystemError(operation: "read events from", path: path, errno: error)
        }
    }

    private func readThroughMtdev(_ converter: UnsafeMutablePointer<mtdev>) throws(SystemError) -> EvdevReadOutcome {
        var events: [RawEvent] = []
        var buffer = [input_event](repeating: input_event(), count: 64)
        while true {
            // mtdev_get documents "a negative error number" but passes read(2)'s -1 through
            // with errno set (mtdev 1.1.6 iobuf.c), so read errno at once when it says -1.
            let (count, readErrno) = buffer.withUnsafeMutableBufferPointer { pointer in
                let count = mtdev_get(converter, fileDescriptor, pointer.baseAddress, Int32(pointer.count))
                return (count, count == -1 ? Errno.current : Errno(rawValue: -count))
            }
            if count > 0 {
                for index in 0..<Int(count) { events.append(RawEvent(buffer[index])) }
                continue
            }
            if count == 0 || readErrno == .wouldBlock { break }
            if readErrno == .interrupted { continue }
            if readErrno == .noSuchDevice { return .removed(events) }
            throw SystemError(operation: "read events from", path: path, errno: readErrno)
        }
        return .events(events)
    }
}

/// libevdev's read protocol, separated from the C call so that tests can script it.
enum EvdevReadLoop {
    /// The value of `LIBEVDEV_READ_STATUS_SUCCESS`.
    static let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
    /// The value of `LIBEVDEV_READ_STATUS_SYNC`.
    static let sync = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)

    /// Reads until `-EAGAIN` in normal mode, following `libevdev.h`: a
    /// `LIBEVDEV_READ_STATUS_SYNC` in normal mode delivers the `SYN_DROPPED`; then read in sync
    /// mode (`next(true)`) until `-EAGAIN` for the events that bring the state up to date; then
    /// go on in normal mode.
    ///
    /// - Parameter next: one `libevdev_next_event` call in sync (`true`) or normal mode,
    ///   returning its status and the event it filled in.
    /// - Returns: the outcome, or the errno of an unexpected failure.
    static func run(_ next: (_ syncing: Bool) -> (status: Int32, event: RawEvent)) -> Result<EvdevReadOutcome, Errno> {
        var events: [RawEvent] = []
        return run(into: &events, next)
    }

    /// ``run(_:)`` appending to `events`, which the caller keeps between reads (emptied, with
    /// its capacity) so that a steady read allocates nothing.
    static func run(
        into events: inout [RawEvent], _ next: (_ syncing: Bool) -> (status: Int32, event: RawEvent)
    ) -> Result<EvdevReadOutcome, Errno> {
        // A touchpad frame is 10–40 events: one allocation instead of growing 1, 2, 4, 8, 16…
        events.reserveCapacity(48)
        var syncing = false
        while true {
            let (status, event) = next(syncing)
            if status == success {
                events.append(event)
            } else if status == sync {
                // In normal mode this is the SYN_DROPPED itself; in sync mode, a sync event.
                events.append(event)
                syncing = true
            } else if status == -EAGAIN {
                guard syncing else { break }
                syncing = false
                // libevdev ends its sync events with a SYN_REPORT; make sure the assembler's
                // resync ends even if a version does not.
                if let last = events.last, last.usage != .synReport {
                    events.append(RawEvent(time: last.time, usage: .synReport, value: 0))
                }
            } else if status == -EINTR {
                continue
            } else if status == -ENODEV {
                return .success(.removed(events))
            } else {
                return .failure(Errno(rawValue: -status))
            }
        }
        return .success(.events(events))
    }
}

extension EvdevDevice {
    /// Waits until the device has events or `timeoutMilliseconds` pass (`poll(2)`; −1 waits
    /// forever). For simple blocking readers such as `gesturectl record`; the daemon uses a
    /// `DispatchSourceRead` instead.
    ///
    /// - Returns: `true` when events (or a removal) are waiting, `false` on timeout.
    public func waitUntilReadable(timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = try systemCall("wait for events from", path: path) { poll(&descriptor, 1, timeoutMilliseconds) }
        return ready > 0
    }
}

extension EvdevDevice {
    /// The libevdev handle (nil after ``close()``), for ``UInputClone`` to copy.
    var libevdevHandle: OpaquePointer? { handle }

    /// The device's physical path (`EVIOCGPHYS`, e.g. `usb-0000:00:14.0-1/input0`), when it
    /// reports one. The corresponding libevdev function is `libevdev_get_phys`.
    public var phys: String? { handle.flatMap { libevdev_get_phys($0) }.map { String(cString: $0) } }
}
