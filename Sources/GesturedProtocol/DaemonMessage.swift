/// A message sent by the daemon: a reply to a request or an unsolicited event.
///
/// Replies (`hello`, `ok`, `devices`, `status`, `error`) echo the request's `id`. Events
/// (`gesture`, `touch`, `device_added`, `device_removed`, `overflow`, `shutdown`) carry none.
public enum DaemonMessage: Hashable, Sendable {
    case hello(HelloReply)
    case ok(OkReply)
    case devices(DevicesReply)
    case status(StatusReply)
    case error(ErrorReply)
    case gesture(GestureEventMessage)
    case touch(TouchEventMessage)
    case deviceAdded(DeviceInfo)
    case deviceRemoved(DeviceRemovedEvent)
    case overflow(OverflowEvent)
    case shutdown(ShutdownEvent)
    /// A message type this build does not know (decoding only): clients skip it, because new
    /// message types are additive within a major version.
    case unknown(type: String)

    /// The wire `type` tag.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .ok: "ok"
        case .devices: "devices"
        case .status: "status"
        case .error: "error"
        case .gesture: "gesture"
        case .touch: "touch"
        case .deviceAdded: "device_added"
        case .deviceRemoved: "device_removed"
        case .overflow: "overflow"
        case .shutdown: "shutdown"
        case .unknown(let type): type
        }
    }
}

/// Feature names a daemon may list in its `hello` reply.
public enum Capability {
    /// Gesture events can be subscribed to.
    public static let gestures = "gestures"
    /// This client may subscribe to raw touches (its group is allowed).
    public static let rawTouches = "raw_touches"
    /// `reload` is accepted from this client.
    public static let reload = "reload"
    /// Hot-plug events are sent.
    public static let hotplug = "hotplug"
    /// `send_keys` and `click` would be carried out for this client now (the configuration
    /// allows input and the client is root or the active session's user on seat0).
    public static let input = "input"
}

/// Reply to `hello`.
public struct HelloReply: Codable, Hashable, Sendable {
    public var id: Int?
    /// The daemon's release, e.g. "0.1.0".
    public var daemonVersion: String
    /// ``ProtocolVersion/major``.
    public var protocolVersion: Int
    /// ``ProtocolVersion/minor``.
    public var protocolMinor: Int
    /// What this client may use (``Capability`` names), sorted.
    public var capabilities: [String]
    /// Whether logind is followed: "available", "absent" (no system bus or no logind: every
    /// seat unlocked) or "unknown" (its first answers are on their way).
    public var logind: String?
    /// Each seat's active session and lock state, sorted by seat.
    public var seats: [SeatStatus]?

    public init(
        id: Int? = nil,
        daemonVersion: String,
        protocolVersion: Int = ProtocolVersion.major,
        protocolMinor: Int = ProtocolVersion.minor,
        capabilities: [String],
        logind: String? = nil,
        seats: [SeatStatus]? = nil
    ) {
        self.id = id
        self.daemonVersion = daemonVersion
        self.protocolVersion = protocolVersion
        self.protocolMinor = protocolMinor
        self.capabilities = capabilities
        self.logind = logind
        self.seats = seats
    }

    enum CodingKeys: String, CodingKey {
        case id
        case daemonVersion = "daemon_version"
        case protocolVersion = "protocol_version"
        case protocolMinor = "protocol_minor"
        case capabilities, logind, seats
    }
}

/// Reply to `subscribe`, `unsubscribe`, `reload` and `ping`.
public struct OkReply: Codable, Hashable, Sendable {
    public var id: Int?
    /// The `type` of the request this answers ("subscribe", "ping", …).
    public var request: String

    public init(id: Int? = nil, request: String) {
        self.id = id
        self.request = request
    }
}

/// One input device the daemon has open (an element of `devices`, and `device_added`).
public struct DeviceInfo: Codable, Hashable, Sendable {
    /// Device node, e.g. "/dev/input/event5" (the `device` of gesture events).
    public var device: String
    /// The kernel's device name (`EVIOCGNAME`).
    public var name: String
    /// "touchscreen" or "touchpad".
    public var kind: String
    /// USB/Bluetooth vendor id, as a JSON integer (0x04f3 is 1267).
    public var vendor: Int
    /// Product id, as a JSON integer.
    public var product: Int
    /// Surface width in millimetres.
    public var widthMM: Double
    /// Surface height in millimetres.
    public var heightMM: Double
    /// Number of multitouch slots.
    public var slots: Int
    /// True when the device reports no resolution and no size is configured: millimetres
    /// are estimated (a touchpad 69 × 50 mm, else 6.3 units/mm, at most 600 mm an axis) and thresholds are approximate.
    public var approximateUnits: Bool
    /// Names of the gestures configured for this device, in engine order.
    public var gestures: [String]
    /// The logind seat the device belongs to (udev `ID_SEAT`, else "seat0").
    public var seat: String?

    public init(
        device: String,
        name: String,
        kind: String,
        vendor: Int,
        product: Int,
        widthMM: Double,
        heightMM: Double,
        slots: Int,
        approximateUnits: Bool,
        gestures: [String] = [],
        seat: String? = nil
    ) {
        self.device = device
        self.name = name
        self.kind = kind
        self.vendor = vendor
        self.product = product
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.slots = slots
        self.approximateUnits = approximateUnits
        self.gestures = gestures
        self.seat = seat
    }

    enum CodingKeys: String, CodingKey {
        case device, name, kind, vendor, product, slots, gestures, seat
        case widthMM = "width_mm"
        case heightMM = "height_mm"
        case approximateUnits = "approximate_units"
    }
}

/// Reply to `list_devices`.
public struct DevicesReply: Codable, Hashable, Sendable {
    public var id: Int?
    /// Sorted by device node.
    public var devices: [DeviceInfo]

    public init(id: Int? = nil, devices: [DeviceInfo]) {
        self.id = id
        self.devices = devices
    }
}

/// Reply to `status`.
public struct StatusReply: Codable, Hashable, Sendable {
    public var id: Int?
    public var daemonVersion: String
    public var protocolVersion: Int
    /// ``ProtocolVersion/minor`` (as in `hello`); nil from a daemon older than protocol 1.1.
    public var protocolMinor: Int?
    /// Time since the daemon started, µs (CLOCK_MONOTONIC).
    public var uptimeUS: Int64
    /// Connected clients, this one included.
    public var clients: Int
    /// Open touch devices.
    public var devices: Int
    /// Gesture events produced since start (before per-client filtering).
    public var gesturesEmitted: Int64
    /// The main configuration file in effect, or nil when built-in defaults are used.
    public var configPath: String?
    /// Number of configured gestures.
    public var gestures: Int
    /// As in ``HelloReply/logind``.
    public var logind: String?
    /// Each seat's active session and lock state, sorted by seat.
    public var seats: [SeatStatus]?

    public init(
        id: Int? = nil,
        daemonVersion: String,
        protocolVersion: Int = ProtocolVersion.major,
        protocolMinor: Int? = ProtocolVersion.minor,
        uptimeUS: Int64,
        clients: Int,
        devices: Int,
        gesturesEmitted: Int64,
        configPath: String?,
        gestures: Int,
        logind: String? = nil,
        seats: [SeatStatus]? = nil
    ) {
        self.id = id
        self.daemonVersion = daemonVersion
        self.protocolVersion = protocolVersion
        self.protocolMinor = protocolMinor
        self.uptimeUS = uptimeUS
        self.clients = clients
        self.devices = devices
        self.gesturesEmitted = gesturesEmitted
        self.configPath = configPath
        self.gestures = gestures
        self.logind = logind
        self.seats = seats
    }

    enum CodingKeys: String, CodingKey {
        case id, clients, devices, gestures, logind, seats
        case daemonVersion = "daemon_version"
        case protocolVersion = "protocol_version"
        case protocolMinor = "protocol_minor"
        case uptimeUS = "uptime_us"
        case gesturesEmitted = "gestures_emitted"
        case configPath = "config_path"
    }
}

/// One seat's active session (`status`, `hello`): who may be using the seat's devices, and
/// whether the session's lock screen is up (logind's `LockedHint`).
public struct SeatStatus: Codable, Hashable, Sendable {
    /// The seat ("seat0").
    public var seat: String
    /// logind's id of the active session; nil when the seat has none.
    public var session: String?
    public var uid: UInt32?
    public var user: String?
    /// True while the active session is locked.
    public var locked: Bool

    public init(seat: String, session: String?, uid: UInt32?, user: String?, locked: Bool) {
        self.seat = seat
        self.session = session
        self.uid = uid
        self.user = user
        self.locked = locked
    }
}

/// `error`: a request failed. `line_too_long` and `version_mismatch` are followed by a close.
public struct ErrorReply: Codable, Hashable, Sendable {
    /// The failing request's `id`, when it had a readable one.
    public var id: Int?
    public var code: ErrorCode
    public var message: String

    public init(id: Int? = nil, code: ErrorCode, message: String) {
        self.id = id
        self.code = code
        self.message = message
    }
}

/// A two-dimensional wire value, used only inside ``GestureEventMessage`` conversions.
public struct WireVector: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// `gesture`: one action of a configured gesture. Flat on purpose (one `jq` path per value);
/// units are in the key names. Optional keys are omitted when they do not apply.
public struct GestureEventMessage: Codable, Hashable, Sendable {
    /// Configured gesture name (`[Gesture NAME]`).
    public var name: String
    /// "tap", "long_press", "pan", "swipe", "pinch", "rotation", "edge_pan" or a custom kind.
    public var kind: String
    public var state: WireGestureState
    /// Device node ("/dev/input/event5").
    public var device: String
    /// The kernel's device name.
    public var deviceName: String
    /// Kernel event time, µs on CLOCK_MONOTONIC.
    public var timeUS: Int64
    /// "<kernel name>:<sequence>", e.g. "event5:12": shared by began…ended of one attempt,
    /// unique per device for the daemon's lifetime.
    public var gestureID: String
    /// Fingers held by the gesture.
    public var fingers: Int
    /// Centroid, mm from the top-left corner (x right, y down).
    public var xMM: Double
    public var yMM: Double
    /// Centroid as a fraction (0…1) of the surface.
    public var xFraction: Double
    public var yFraction: Double
    /// Tap count (tap, long_press with taps) or stroke count (tickle).
    public var taps: Int?
    /// "left", "right", "up", "down" (swipe).
    public var direction: String?
    /// "left", "right", "top", "bottom" (edge_pan).
    public var edge: String?
    /// Cumulative translation, mm (pan, edge_pan, swipe).
    public var dxMM: Double?
    public var dyMM: Double?
    /// Velocity, mm/s (pan, edge_pan, swipe).
    public var vxMMPerS: Double?
    public var vyMMPerS: Double?
    /// Scale factor relative to the start (pinch), 1 = unchanged.
    public var scale: Double?
    /// Scale velocity, 1/s (pinch).
    public var scaleVelocity: Double?
    /// Rotation since the start, radians, clockwise positive (rotation).
    public var rotation: Double?
    /// Rotation velocity, rad/s (rotation).
    public var rotationVelocity: Double?
    /// Present (true) only when the device's millimetres are estimated.
    public var approximateUnits: Bool?
    /// Custom recognizers' extra values, omitted when empty.
    public var values: [String: Double]?
    /// Whether the session on the device's seat was locked (logind's `LockedHint`) when the
    /// event happened; the daemon sets it on every event (false without logind).
    public var locked: Bool?
    /// Present (true) only when the gesture's touches were taken from applications: the
    /// device is grabbed (`Grab=yes`) and the gesture cancels or delays its touches, so the
    /// compositor did not see them (or saw them cancelled).
    public var touchesConsumed: Bool?
    // What a shell animating 1:1 needs (issue 15); continuous gestures only, except the
    // fractions. See gestured-ipc(7).
    /// Translation change since this gesture's previous event, mm (`began`: since zero).
    public var dxDeltaMM: Double?
    public var dyDeltaMM: Double?
    /// Translation as a fraction of the surface width and height.
    public var dxFraction: Double?
    public var dyFraction: Double?
    /// Scale change since the previous event (pinch; `began`: since 1).
    public var scaleDelta: Double?
    /// Rotation change since the previous event, radians (rotation).
    public var rotationDelta: Double?
    /// On `ended` with a velocity: where the centroid comes to rest sliding on at the release
    /// velocity with a uniform deceleration (mm), the translation then as a fraction of the
    /// surface, and the seconds that takes.
    public var restXMM: Double?
    public var restYMM: Double?
    public var restDxFraction: Double?
    public var restDyFraction: Double?
    public var flingS: Double?

    public init(
        name: String,
        kind: String,
        state: WireGestureState,
        device: String,
        deviceName: String,
        timeUS: Int64,
        gestureID: String,
        fingers: Int,
        centroidMM: WireVector,
        centroidFraction: WireVector,
        taps: Int? = nil,
        direction: String? = nil,
        edge: String? = nil,
        translationMM: WireVector? = nil,
        velocityMMPerS: WireVector? = nil,
        scale: Double? = nil,
        scaleVelocity: Double? = nil,
        rotation: Double? = nil,
        rotationVelocity: Double? = nil,
        approximateUnits: Bool = false,
        values: [String: Double] = [:],
        locked: Bool? = nil
    ) {
        self.name = name
        self.kind = kind
        self.state = state
        self.device = device
        self.deviceName = deviceName
        self.timeUS = timeUS
        self.gestureID = gestureID
        self.fingers = fingers
        self.xMM = centroidMM.x
        self.yMM = centroidMM.y
        self.xFraction = centroidFraction.x
        self.yFraction = centroidFraction.y
        self.taps = taps
        self.direction = direction
        self.edge = edge
        self.dxMM = translationMM?.x
        self.dyMM = translationMM?.y
        self.vxMMPerS = velocityMMPerS?.x
        self.vyMMPerS = velocityMMPerS?.y
        self.scale = scale
        self.scaleVelocity = scaleVelocity
        self.rotation = rotation
        self.rotationVelocity = rotationVelocity
        self.approximateUnits = approximateUnits ? true : nil
        self.values = values.isEmpty ? nil : values
        self.locked = locked
    }

    /// Builds the `gesture_id` from a device node and the engine's per-attempt sequence.
    public static func gestureID(device: String, sequence: UInt64) -> String {
        // The last path component, found without splitting (this runs for every event).
        var kernelName = Substring(device)
        while kernelName.last == "/" { kernelName = kernelName.dropLast() }
        if let slash = kernelName.lastIndex(of: "/") { kernelName = kernelName[kernelName.index(after: slash)...] }
        return kernelName.isEmpty ? "\(device):\(sequence)" : "\(kernelName):\(sequence)"
    }

    /// The wire names of the keys: the table both the decoder and ``wireLine(into:)`` (and
    /// the daemon's encoder) read, in ``wireOrder``.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case name, kind, state, device, fingers, taps, direction, edge, scale, rotation, values, locked
        case deviceName = "device_name"
        case timeUS = "time_us"
        case gestureID = "gesture_id"
        case xMM = "x_mm"
        case yMM = "y_mm"
        case xFraction = "x_fraction"
        case yFraction = "y_fraction"
        case dxMM = "dx_mm"
        case dyMM = "dy_mm"
        case vxMMPerS = "vx_mm_s"
        case vyMMPerS = "vy_mm_s"
        case scaleVelocity = "scale_velocity"
        case rotationVelocity = "rotation_velocity"
        case approximateUnits = "approximate_units"
        case touchesConsumed = "touches_consumed"
        case dxDeltaMM = "dx_delta_mm"
        case dyDeltaMM = "dy_delta_mm"
        case dxFraction = "dx_fraction"
        case dyFraction = "dy_fraction"
        case scaleDelta = "scale_delta"
        case rotationDelta = "rotation_delta"
        case restXMM = "rest_x_mm"
        case restYMM = "rest_y_mm"
        case restDxFraction = "rest_dx_fraction"
        case restDyFraction = "rest_dy_fraction"
        case flingS = "fling_s"
    }
}

/// Phases of a raw touch (`touch` events).
public enum WireTouchPhase: String, Codable, Hashable, Sendable, CaseIterable {
    case began
    case moved
    case ended
    case cancelled
}

/// `touch`: one raw contact change, sent only to subscribers allowed raw touches.
public struct TouchEventMessage: Codable, Hashable, Sendable {
    public var device: String
    /// Kernel event time, µs on CLOCK_MONOTONIC.
    public var timeUS: Int64
    /// The daemon's touch serial (never reused on a device; not the kernel tracking id).
    public var touchID: UInt64
    public var phase: WireTouchPhase
    /// Position, mm from the top-left corner.
    public var xMM: Double
    public var yMM: Double

    public init(device: String, timeUS: Int64, touchID: UInt64, phase: WireTouchPhase, xMM: Double, yMM: Double) {
        self.device = device
        self.timeUS = timeUS
        self.touchID = touchID
        self.phase = phase
        self.xMM = xMM
        self.yMM = yMM
    }

    /// The wire names of the keys (as ``GestureEventMessage/CodingKeys``).
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case device, phase
        case timeUS = "time_us"
        case touchID = "touch_id"
        case xMM = "x_mm"
        case yMM = "y_mm"
    }
}

/// `device_removed`: a device went away; its in-flight gestures were sent as cancelled.
public struct DeviceRemovedEvent: Codable, Hashable, Sendable {
    public var device: String
    public var name: String

    public init(device: String, name: String) {
        self.device = device
        self.name = name
    }
}

/// `overflow`: the client fell too far behind; the daemon closes the connection after it.
public struct OverflowEvent: Codable, Hashable, Sendable {
    /// Messages queued for this client when it was cut off.
    public var queued: Int
    public var message: String

    public init(queued: Int, message: String) {
        self.queued = queued
        self.message = message
    }
}

/// `shutdown`: the daemon is stopping; the connection closes after it.
public struct ShutdownEvent: Codable, Hashable, Sendable {
    /// Why ("SIGTERM", "SIGINT").
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
