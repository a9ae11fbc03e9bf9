/// A request sent by a client, without its envelope (the `type` tag selects the case).
///
/// Every request may carry an integer `id`; the daemon echoes it in the reply (see
/// ``ClientMessage``). Unknown keys in a request are ignored.
public enum ClientRequest: Hashable, Sendable {
    /// `{"type":"hello","protocol_version":1,"client_name":"…"}`: version negotiation.
    case hello(HelloRequest)
    /// `{"type":"subscribe",…filters…}`: start (or replace) the event subscription.
    case subscribe(SubscribeRequest)
    /// `{"type":"unsubscribe"}`: stop all event streams; the connection stays open.
    case unsubscribe
    /// `{"type":"list_devices"}`: answered by a `devices` reply.
    case listDevices
    /// `{"type":"status"}`: answered by a `status` reply.
    case status
    /// `{"type":"reload"}`: reload the configuration; answered by `ok` or an error.
    case reload
    /// `{"type":"ping"}`: answered by `ok`; a liveness check.
    case ping
    /// `{"type":"send_keys","keys":["super","Page_Up"],…}`: press a key combination on the
    /// daemon's virtual keyboard; answered by `ok` once every key is released, or an error.
    case sendKeys(SendKeysRequest)
    /// `{"type":"click","button":"left",…}`: press and release a button of the daemon's
    /// virtual pointer; answered by `ok` once it is released, or an error.
    case click(ClickRequest)

    /// The wire `type` tag of this request.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .listDevices: "list_devices"
        case .status: "status"
        case .reload: "reload"
        case .ping: "ping"
        case .sendKeys: "send_keys"
        case .click: "click"
        }
    }

    /// Every request type this protocol version defines, in documentation order.
    public static let allTypes = [
        "hello", "subscribe", "unsubscribe", "list_devices", "status", "reload", "ping", "send_keys", "click",
    ]
}

/// A request together with its optional correlation id.
public struct ClientMessage: Hashable, Sendable {
    /// Chosen by the client, echoed as `id` in the reply to this request. Integers only (a
    /// JSON number without fraction or exponent that fits in 64 bits); a string or fractional
    /// `id` is a `bad_request`.
    public var id: Int?
    public var request: ClientRequest

    public init(id: Int? = nil, _ request: ClientRequest) {
        self.id = id
        self.request = request
    }
}

/// `hello`: the first message of a session.
public struct HelloRequest: Codable, Hashable, Sendable {
    /// The protocol major version the client speaks (``ProtocolVersion/major``).
    public var protocolVersion: Int
    /// A short name for logs ("gesturectl", "my-bar-applet").
    public var clientName: String

    public init(protocolVersion: Int = ProtocolVersion.major, clientName: String) {
        self.protocolVersion = protocolVersion
        self.clientName = clientName
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol_version"
        case clientName = "client_name"
    }
}

/// The gesture states a client can filter on (the wire's `state` of a gesture event).
public enum WireGestureState: String, Codable, Hashable, Sendable, CaseIterable {
    case began
    case changed
    case ended
    case cancelled
    case recognized
}

/// `subscribe`: which events the client wants. A later `subscribe` replaces the earlier one.
///
/// Every filter is a list; an absent (or empty) list does not filter. An event is delivered
/// when it passes every filter that is present.
public struct SubscribeRequest: Codable, Hashable, Sendable {
    /// Configured gesture names (`[Gesture NAME]` sections).
    public var gestures: [String]?
    /// Gesture kinds ("tap", "swipe", …, or a custom kind such as "tickle").
    public var kinds: [String]?
    /// Gesture states.
    public var states: [WireGestureState]?
    /// Devices, each matching a device node ("/dev/input/event5"), its kernel name
    /// ("event5") or its device name ("ELAN Touchscreen").
    public var devices: [String]?
    /// Also stream raw `touch` events. Refused with `not_permitted` unless the client's
    /// group is allowed by `AllowRawTouchesForGroup=`.
    public var rawTouches: Bool?

    public init(
        gestures: [String]? = nil,
        kinds: [String]? = nil,
        states: [WireGestureState]? = nil,
        devices: [String]? = nil,
        rawTouches: Bool? = nil
    ) {
        self.gestures = gestures
        self.kinds = kinds
        self.states = states
        self.devices = devices
        self.rawTouches = rawTouches
    }

    enum CodingKeys: String, CodingKey {
        case gestures, kinds, states, devices
        case rawTouches = "raw_touches"
    }

    /// True when raw touches were asked for.
    public var wantsRawTouches: Bool { rawTouches ?? false }

    /// The gesture kinds a `kinds` filter may name: every kind a `Kind=` of gestured.conf(5)
    /// can configure.
    public static let knownKinds = ["tap", "long_press", "pan", "swipe", "pinch", "rotation", "edge_pan", "tickle"]

    /// No gesture, kind, state or device filter: every gesture and hot-plug line passes
    /// (raw touches still need ``wantsRawTouches``).
    public var filtersNothing: Bool {
        (gestures?.isEmpty ?? true) && (kinds?.isEmpty ?? true) && (states?.isEmpty ?? true) && (devices?.isEmpty ?? true)
    }

    /// True when a gesture event passes every present filter.
    public func matches(_ event: GestureEventMessage) -> Bool {
        matches(name: event.name, kind: event.kind, state: event.state, device: event.device, deviceName: event.deviceName)
    }

    /// True when a gesture event with these values passes every present filter (the daemon
    /// asks with the values its encoded line was written from).
    public func matches(name: String, kind: String, state: WireGestureState?, device: String, deviceName: String) -> Bool {
        if let gestures, !gestures.isEmpty, !gestures.contains(name) { return false }
        if let kinds, !kinds.isEmpty, !kinds.contains(kind) { return false }
        if let states, !states.isEmpty, let state, !states.contains(state) { return false }
        return matchesDevice(node: device, name: deviceName)
    }

    /// True when a device passes the `devices` filter (used for touch and hot-plug events).
    /// - Parameters:
    ///   - node: The device node path, e.g. "/dev/input/event5".
    ///   - name: The kernel's device name.
    public func matchesDevice(node: String, name: String) -> Bool {
        guard let devices, !devices.isEmpty else { return true }
        let kernelName = Self.kernelName(of: node)
        return devices.contains { $0 == node || $0 == kernelName || $0 == name }
    }

    /// A node's last path component ("event5" of "/dev/input/event5", trailing slashes
    /// ignored; the node itself when that is empty), found on its UTF-8 bytes: no split, no
    /// `Character` (this runs per event, and reading characters allocates).
    public static func kernelName(of node: String) -> Substring {
        let utf8 = node.utf8
        let slash = UInt8(ascii: "/")
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == slash { end = utf8.index(before: end) }
        var start = end
        while start > utf8.startIndex, utf8[utf8.index(before: start)] != slash { start = utf8.index(before: start) }
        guard start < end else { return Substring(node) }
        return Substring(utf8[start..<end])
    }
}
