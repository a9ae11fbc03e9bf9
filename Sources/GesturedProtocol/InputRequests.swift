/// `send_keys`: press a key combination on the daemon's virtual keyboard.
///
/// The keys are pressed in the order given and released in the reverse order
/// (`["super","Page_Up"]`: super down, Page_Up down, Page_Up up, super up). Names are the
/// kernel's (`KEY_PAGEUP`, or `pageup` without the prefix, any case) or the xkb-style aliases
/// of gestured-ipc(7) (`super`, `ctrl`, `Page_Up`, `Return`, …). The daemon answers `ok` once
/// every key is released again.
///
/// Refused with `not_permitted` unless the configuration allows input
/// (`AllowInputForActiveSession=yes`) and the client is root or the active session's user on
/// the seat of `device`; with `bad_request` naming an unknown key; with `rate_limited` when
/// the client asks too often.
public struct SendKeysRequest: Codable, Hashable, Sendable {
    /// Key names, pressed in this order; 1 to 8 of them, no name twice.
    public var keys: [String]
    /// The device node of the gesture that caused the request (the `device` of its gesture
    /// event): its seat decides whose session may inject. Absent: seat0.
    public var device: String?

    public init(keys: [String], device: String? = nil) {
        self.keys = keys
        self.device = device
    }
}

/// `click`: press and release one button of the daemon's virtual pointer.
///
/// Buttons: `left`, `right`, `middle`, `side`, `extra`, `forward`, `back`, `task`, or a kernel
/// name (`BTN_LEFT`). Permissions, errors and the reply are those of ``SendKeysRequest``.
public struct ClickRequest: Codable, Hashable, Sendable {
    public var button: String
    /// As ``SendKeysRequest/device``.
    public var device: String?

    public init(button: String, device: String? = nil) {
        self.button = button
        self.device = device
    }
}
