public import GestureEngine

/// The daemon's virtual keyboard and pointer (uinput), each created the first time it is
/// written to and kept until ``destroy()``: `send_keys` and `click` of gestured-ipc(7).
///
/// The keyboard supports every key the kernel names `KEY_*`; the pointer the mouse buttons
/// `BTN_LEFT`…`BTN_TASK` and relative X/Y (which it never moves), because libinput takes a
/// device for a pointer only when it has both. Both are on bus `BUS_VIRTUAL`, as uinput
/// devices of input injectors are (ydotool, keyd).
///
/// Not thread-safe: use it from one isolation domain (the daemon's event loop).
public final class VirtualInputDevices: @unchecked Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case keyboard
        case pointer
    }

    /// The kernel name of the keyboard (`/proc/bus/input/devices`, `libinput list-devices`).
    public static let keyboardName = "gestured virtual keyboard"
    /// The kernel name of the pointer.
    public static let pointerName = "gestured virtual pointer"
    /// `BUS_VIRTUAL` of linux/input.h.
    static let busVirtual: UInt16 = 0x06

    private var devices: [Kind: UInputDevice] = [:]

    public init() {}

    /// The description the kernel device is made from.
    public static func description(of kind: Kind) -> DeviceDescription {
        var codes: Set<EventUsage> = [EventUsage(type: EventUsage.evSyn, code: 0)]
        switch kind {
        case .keyboard:
            for key in InputNames.allKeys { codes.insert(EventUsage(type: EventUsage.evKey, code: key.code)) }
            return DeviceDescription(name: keyboardName, bustype: busVirtual, vendor: 0, product: 0x0001, version: 1, codes: codes)
        case .pointer:
            for button in InputNames.allButtons { codes.insert(EventUsage(type: EventUsage.evKey, code: button.code)) }
            // REL_X, REL_Y
            codes.insert(EventUsage(type: EventUsage.evRel, code: 0x00))
            codes.insert(EventUsage(type: EventUsage.evRel, code: 0x01))
            return DeviceDescription(name: pointerName, bustype: busVirtual, vendor: 0, product: 0x0002, version: 1, codes: codes)
        }
    }

    /// Whether `kind` exists now.
    public func exists(_ kind: Kind) -> Bool { devices[kind] != nil }

    /// The event node of `kind`, once created.
    public func devnode(_ kind: Kind) -> String? { devices[kind]?.devnode }

    /// Creates `kind` unless it exists.
    /// - Returns: true when it was created by this call.
    /// - Throws: ``SystemError`` on `/dev/uinput` (`ENOENT` without the uinput module,
    ///   `EACCES` without access to it).
    @discardableResult
    public func create(_ kind: Kind) throws(SystemError) -> Bool {
        if devices[kind] != nil { return false }
        devices[kind] = try UInputDevice(description: Self.description(of: kind))
        return true
    }

    /// Writes one key or button transition and its `SYN_REPORT` (one frame per transition,
    /// so every reader sees the transitions in the order written).
    /// - Parameters:
    ///   - code: An `EV_KEY` code the device supports.
    ///   - isPressed: Down (1) or up (0).
    public func write(_ kind: Kind, code: UInt16, isPressed: Bool) throws(SystemError) {
        try create(kind)
        guard let device = devices[kind] else { return }
        try device.write([
            RawEvent(time: .zero, type: EventUsage.evKey, code: code, value: isPressed ? 1 : 0),
            RawEvent(time: .zero, type: EventUsage.evSyn, code: 0, value: 0),
        ])
    }

    /// Removes both devices.
    public func destroy() {
        for device in devices.values { device.destroy() }
        devices.removeAll()
    }
}
