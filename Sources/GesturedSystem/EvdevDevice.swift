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
/// `deinit`. Read it when the event loop says ``fileDescriptor`` is readable: the descriptor
/// is non-blocking and ``readAvailable()`` reads until the kernel has nothing more. libevdev
/// gives the description, the clock, the grab and the clone's template at open; the events
/// themselves are read with the daemon's own `read(2)` and the state after lost events is
/// asked of the kernel (``readAvailable()``), so libevdev's copy of the state is the one of
/// the moment the device was opened and nothing asks it later (``initialStateEvents(at:)``
/// runs at open only).
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
    /// The kernel's events of one `read(2)` (``batchCapacity`` of them), for the device's life.
    /// Allocated once the open has succeeded (a failed init does not run `deinit`).
    private let kernelBuffer: UnsafeMutableBufferPointer<input_event>
    /// `BTN_TOUCH` as of the last event read, for ``hasContactDown`` on a device without
    /// kernel slots. Asking the kernel instead (`EVIOCGKEY`) would also flush the key events
    /// still queued for this reader (`evdev_handle_get_val`), and the daemon asks after every
    /// read while a grab waits for the fingers to lift: a lift queued meanwhile would be lost.
    private var touchKeyDown = false
    /// Slots the kernel answers `EVIOCGMTSLOTS` for (protocol B; an mtdev device's slots are
    /// mtdev's, so 0 there), decided at open (a read asks it).
    private let kernelSlotCount: Int

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
        let buffer = UnsafeMutableBufferPointer<input_event>.allocate(capacity: Self.batchCapacity)
        buffer.initialize(repeating: input_event())
        self.kernelBuffer = buffer
        self.path = path
        self.fileDescriptor = fd
        self.handle = handle
        self.converter = converter
        self.usesMtdev = converter != nil
        self.description = description
        self.kernelSlotCount = converter == nil ? description.axis(.absMTSlot).map { max(0, Int($0.maximum) + 1) } ?? 0 : 0
        self.touchKeyDown = libevdev_get_event_value(handle, UInt32(EventUsage.evKey), UInt32(EventUsage.btnTouch.code)) != 0
    }

    /// The touches already down and keys already held when the device was opened, as one
    /// frame of events stamped `time` (empty when nothing is down). The kernel sends only
    /// changes: a finger resting on the surface when the daemon starts would otherwise be
    /// unknown until it moves, and its coordinates that never change never arrive. libevdev
    /// read the state at open (`EVIOCGMTSLOTS`, `EVIOCGKEY`); this replays it for
    /// ``FrameAssembler`` the way a `SYN_DROPPED` resync does. Nothing for protocol-A devices
    /// (mtdev keeps its own state). Call it right after opening: it reads libevdev's copy of
    /// the state, which ``readAvailable()`` does not keep up to date.
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
        kernelBuffer.deallocate()
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

    /// Reads every event available now, without blocking: the daemon's own `read(2)` of a
    /// batch of kernel `input_event`s into a buffer kept for the device's life, once per
    /// wake-up. The kernel hands a reader whole frames only; a read that comes back short of
    /// the buffer has drained it, and only a full one is followed by another (which may then
    /// return `EAGAIN`). libevdev read every event one call at a time and then needed a
    /// second `read(2)` to learn there was no more (DESIGN.md "Input decoding and devices").
    ///
    /// Lost events (`SYN_DROPPED`, the reader's kernel buffer overflowed) are handled as the
    /// kernel's documentation and libevdev do: the events after it are drained and
    /// discarded, the device's state is asked of the kernel (`EVIOCGMTSLOTS`, `EVIOCGKEY`,
    /// `EVIOCGABS`), and the list gets the `SYN_DROPPED`, that whole state (every slot's
    /// tracking id and values, the current slot, every key, every single-touch axis) and a
    /// `SYN_REPORT`: the shape ``FrameAssembler`` resyncs on.
    ///
    /// - Returns: ``EvdevReadOutcome/removed(_:)`` when the device is gone (`ENODEV`).
    /// - Throws: ``SystemError`` for any other read failure.
    public func readAvailable() throws(SystemError) -> EvdevReadOutcome {
        guard fileDescriptor >= 0 else {
            throw SystemError(operation: "read events from", path: path, errno: .badFileDescriptor)
        }
        if let converter { return try readThroughMtdev(converter) }
        guard handle != nil else { return .events([]) }
        let descriptor = fileDescriptor
        // The last read's array is released by then (the caller fed it and dropped it), so it
        // is emptied in place: a read costs no allocation.
        readBuffer.removeAll(keepingCapacity: true)
        let result = EvdevBatchRead.run(
            into: &readBuffer, buffer: kernelBuffer,
            read: { buffer in
                let bytes = Glibc.read(descriptor, buffer.baseAddress, buffer.count * MemoryLayout<input_event>.stride)
                return bytes < 0 ? -Int(errno) : bytes / MemoryLayout<input_event>.stride
            },
            resync: { time, events in self.appendKernelState(at: time, into: &events) }
        )
        switch result {
        case .success(let outcome):
            if kernelSlotCount == 0 { touchKeyDown = Self.touchKey(after: outcome, from: touchKeyDown) }
            return outcome
        case .failure(let error): throw SystemError(operation: "read events from", path: path, errno: error)
        }
    }

    /// `BTN_TOUCH` after `outcome`'s events (a resync's state included), `previous` when they
    /// have none.
    static func touchKey(after outcome: EvdevReadOutcome, from previous: Bool) -> Bool {
        let events: [RawEvent]
        switch outcome {
        case .events(let read), .removed(let read): events = read
        }
        guard let last = events.last(where: { $0.usage == .btnTouch }) else { return previous }
        return last.value != 0
    }

    /// The events read per `read(2)` at most: a touchpad frame is 10–40 events, so one read
    /// takes several frames a wake-up may have queued (3 KiB, allocated once).
    static let batchCapacity = 128

    // MARK: The kernel's state (the resync, the grab, the clone's seed)

    /// Every slot's value of `code` now (`EVIOCGMTSLOTS`), nil when the kernel refuses.
    private func kernelSlotValues(_ code: UInt16, slots: Int) -> [Int32]? {
        var request = [Int32](repeating: 0, count: slots + 1)
        request[0] = Int32(code)
        let rc = request.withUnsafeMutableBufferPointer { gestured_evdev_mt_slots(fileDescriptor, $0.baseAddress, UInt32(slots)) }
        guard rc >= 0 else { return nil }
        return Array(request.dropFirst())
    }

    /// The keys held now (`EVIOCGKEY`), as a bitmask by code; nil when the kernel refuses.
    private func kernelKeys() -> [UInt8]? {
        var bits = [UInt8](repeating: 0, count: Int(KEY_MAX) / 8 + 1)
        let rc = bits.withUnsafeMutableBufferPointer { gestured_evdev_keys(fileDescriptor, $0.baseAddress, UInt32($0.count)) }
        return rc >= 0 ? bits : nil
    }

    /// An absolute axis's value now (`EVIOCGABS`).
    private func kernelAxisValue(_ code: UInt16) -> Int32? {
        var info = input_absinfo()
        return gestured_evdev_abs(fileDescriptor, UInt32(code), &info) >= 0 ? info.value : nil
    }

    /// The per-slot codes the device has, but `ABS_MT_SLOT` and `ABS_MT_TRACKING_ID`, in
    /// code order.
    private var perSlotCodes: [UInt16] {
        (EventUsage.absMTTouchMajor.code...EventUsage.absMaximum).filter {
            $0 != EventUsage.absMTTrackingID.code && description.codes.contains(EventUsage(type: EventUsage.evAbs, code: $0))
        }
    }

    /// Appends the device's whole state as the kernel has it now, stamped `time`, and a
    /// `SYN_REPORT`: every slot (its tracking id, then its values), the current slot, every
    /// key the device has (held or not), every single-touch axis. What follows a
    /// `SYN_DROPPED` in ``readAvailable()``; a part the kernel refuses (the device went away
    /// meanwhile) is left out, the `SYN_REPORT` never.
    func appendKernelState(at time: Timestamp, into events: inout [RawEvent]) {
        func add(_ usage: EventUsage, _ value: Int32) { events.append(RawEvent(time: time, usage: usage, value: value)) }
        let slots = kernelSlotCount
        if slots > 0, let ids = kernelSlotValues(EventUsage.absMTTrackingID.code, slots: slots) {
            appendSlots(slots, trackingIDs: ids, at: time, into: &events)
            if let current = kernelAxisValue(EventUsage.absMTSlot.code) { add(.absMTSlot, current) }
        }
        if let keys = kernelKeys() {
            for usage in description.codes.sorted() where usage.type == EventUsage.evKey && Int(usage.code) < keys.count * 8 {
                add(usage, Int32(keys[Int(usage.code) / 8] >> (usage.code % 8) & 1))
            }
        }
        for usage in description.codes.sorted() where usage.type == EventUsage.evAbs && usage.code < EventUsage.absMTSlot.code {
            if let value = kernelAxisValue(usage.code) { add(usage, value) }
        }
        add(.synReport, 0)
    }

    /// Every slot as the kernel has it now, stamped `time`: `ABS_MT_SLOT`, then its tracking id
    /// from `trackingIDs` when given, then its per-slot values (a code the kernel refuses is
    /// left out). The slot part of ``appendKernelState(at:into:)`` and ``slotValueEvents(at:)``.
    private func appendSlots(_ slots: Int, trackingIDs: [Int32]?, at time: Timestamp, into events: inout [RawEvent]) {
        let codes = perSlotCodes
        let values = codes.map { kernelSlotValues($0, slots: slots) }
        for slot in 0..<slots {
            events.append(RawEvent(time: time, usage: .absMTSlot, value: Int32(slot)))
            if let trackingIDs { events.append(RawEvent(time: time, usage: .absMTTrackingID, value: trackingIDs[slot])) }
            for (index, code) in codes.enumerated() {
                guard let column = values[index] else { continue }
                events.append(RawEvent(time: time, type: EventUsage.evAbs, code: code, value: column[slot]))
            }
        }
    }

    /// Whether the device has a contact down now: a slot with a tracking id, as the kernel
    /// says (`EVIOCGMTSLOTS`, which leaves the reader's queue alone), or, on a device without
    /// kernel slots, `BTN_TOUCH` held in the events read so far (not `EVIOCGKEY`, which would
    /// discard the key events queued since the last read). The daemon asks right after a
    /// read that drained the device, so the two agree but for a frame that arrived since.
    public var hasContactDown: Bool {
        guard fileDescriptor >= 0 else { return false }
        let slots = kernelSlotCount
        if slots > 0 {
            return kernelSlotValues(EventUsage.absMTTrackingID.code, slots: slots)?.contains { $0 >= 0 } ?? false
        }
        return touchKeyDown
    }

    /// Every slot's per-slot values (`ABS_MT_*` but the tracking id) now, as the kernel has
    /// them, as one frame of events stamped `time`, for ``UInputClone``'s planner and
    /// ``SlotSeed`` to start from the kernel's state. Empty for a device without kernel slots.
    public func slotValueEvents(at time: Timestamp) -> [RawEvent] {
        let slots = kernelSlotCount
        guard fileDescriptor >= 0, slots > 0 else { return [] }
        var events: [RawEvent] = []
        appendSlots(slots, trackingIDs: nil, at: time, into: &events)
        events.append(RawEvent(time: time, usage: .absMTSlot, value: kernelAxisValue(EventUsage.absMTSlot.code) ?? 0))
        events.append(RawEvent(time: time, usage: .synReport, value: 0))
        return events
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
            if readErrno == .noSuchDevice {
                touchKeyDown = Self.touchKey(after: .removed(events), from: touchKeyDown)
                return .removed(events)
            }
            throw SystemError(operation: "read events from", path: path, errno: readErrno)
        }
        touchKeyDown = Self.touchKey(after: .events(events), from: touchKeyDown)
        return .events(events)
    }
}

/// The daemon's read protocol, separated from the system call so that tests can script it.
enum EvdevBatchRead {
    /// The most reads that drain a device after a `SYN_DROPPED` (libevdev stops at 8 too: the
    /// kernel's buffer holds that many of its packets), so a device that never stops sending
    /// cannot hold the loop.
    static let drainLimit = 8

    /// Reads batches until the kernel has given everything it had: a batch that does not fill
    /// `buffer` ends the read (the kernel hands whole frames, so a short read drained it);
    /// a full one is followed by another; `EAGAIN` ends it too. A `SYN_DROPPED` discards
    /// the rest of its batch and everything still queued (read until `EAGAIN`, at most
    /// ``drainLimit`` reads), then appends it and the device's state (`resync`, which ends
    /// with a `SYN_REPORT`).
    ///
    /// - Parameters:
    ///   - events: where events go; the caller keeps it between reads (emptied, with its
    ///     capacity) so that a steady read allocates nothing.
    ///   - read: one `read(2)` into the buffer: the number of events read, or `-errno`.
    ///   - resync: appends the device's current state and a `SYN_REPORT`, stamped with the
    ///     `SYN_DROPPED`'s time.
    /// - Returns: the outcome, or the errno of an unexpected failure.
    static func run(
        into events: inout [RawEvent],
        buffer: UnsafeMutableBufferPointer<input_event>,
        read: (UnsafeMutableBufferPointer<input_event>) -> Int,
        resync: (_ time: Timestamp, _ events: inout [RawEvent]) -> Void
    ) -> Result<EvdevReadOutcome, Errno> {
        // A touchpad frame is 10–40 events: one allocation instead of growing 1, 2, 4, 8, 16…
        events.reserveCapacity(48)
        var dropped: Timestamp?
        var drainReads = 0
        let synType = EventUsage.evSyn
        let synDroppedCode = EventUsage.synDropped.code
        while true {
            let count = read(buffer)
            if count < 0 {
                let error = Errno(rawValue: Int32(-count))
                if error == .interrupted { continue }
                if error == .wouldBlock { break }
                if error == .noSuchDevice { return .success(.removed(events)) }
                return .failure(error)
            }
            if dropped == nil {
                for index in 0..<count {
                    let event = buffer[index]
                    if event.type == synType && event.code == synDroppedCode {
                        dropped = RawEvent(event).time
                        break
                    }
                    events.append(RawEvent(event))
                }
            }
            if dropped != nil {
                // Draining: read on until EAGAIN whatever the batch's size.
                drainReads += 1
                if drainReads > drainLimit || count == 0 { break }
                continue
            }
            if count < buffer.count { break }
        }
        if let dropped {
            events.append(RawEvent(time: dropped, usage: .synDropped, value: 0))
            resync(dropped, &events)
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
