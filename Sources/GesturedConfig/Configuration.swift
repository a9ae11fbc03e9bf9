public import GestureEngine

/// `[Daemon]`: socket and client limits.
public struct DaemonSettings: Hashable, Sendable {
    /// Where the daemon binds its socket when not socket-activated.
    public var socketPath = "/run/gestured/gestured.sock"
    /// Group owning the socket; members may connect.
    public var socketGroup = "gestured"
    /// Permission bits of the socket (octal 0660 by default).
    public var socketMode: UInt32 = 0o660
    /// Members of this group may subscribe to raw touches; nil = nobody (the default),
    /// because raw coordinates can reveal what is typed on an on-screen keyboard.
    public var allowRawTouchesForGroup: String? = nil
    /// `send_keys` and `click` are carried out for root and for the active session's user on
    /// the seat of the gesture's device; off (the default): refused for everyone.
    public var allowInputForActiveSession = false
    /// Connections beyond this count are refused.
    public var maxClients = 512
    /// Queued messages per client above which consecutive `changed` events are coalesced.
    public var clientQueueSoft = 256
    /// Queued messages per client at which it gets `overflow` and is disconnected.
    public var clientQueueHard = 1024

    public init() {}
}

/// The conditions of a `[Device NAME]` rule; every condition that is set must hold.
public struct DeviceMatch: Hashable, Sendable {
    /// `MatchKind=`.
    public var kind: DeviceKind?
    /// `MatchName=`: a shell glob (`*`, `?`, `[abc]`) against the kernel device name.
    public var namePattern: String?
    /// `MatchVendor=`.
    public var vendor: UInt16?
    /// `MatchProduct=`.
    public var product: UInt16?
    /// `MatchUdevProperty=KEY=VALUE …`: every pair must equal the device's udev property.
    public var udevProperties: [String: String] = [:]

    public init() {}

    /// True when `device` (with its udev properties) satisfies every condition.
    /// - Parameters:
    ///   - device: The device.
    ///   - deviceKind: Its classification (the daemon's, from udev); nil when it is not a
    ///     touch device.
    ///   - properties: The device's udev properties.
    public func matches(
        _ device: DeviceDescription,
        kind deviceKind: DeviceKind?,
        udevProperties properties: [String: String]
    ) -> Bool {
        if let kind, deviceKind != kind { return false }
        if let namePattern, !Glob.matches(pattern: namePattern, device.name) { return false }
        if let vendor, device.vendor != vendor { return false }
        if let product, device.product != product { return false }
        for (key, value) in udevProperties where properties[key] != value { return false }
        return true
    }
}

/// A `[Device NAME]` section: conditions and the facts/overrides it sets. Unset fields leave
/// what earlier rules (or defaults) said.
public struct DeviceRule: Hashable, Sendable {
    public var name: String
    public var match = DeviceMatch()
    /// `Sloppiness=`: multiplier for the ×s thresholds.
    public var sloppiness: Double?
    /// `MaxTouches=`.
    public var maxTouches: Int?
    /// `WidthMM=`/`HeightMM=`: physical size for devices that report no resolution, mm.
    public var widthMM: Double?
    public var heightMM: Double?
    /// `Gestures=`: only these gestures run on matching devices.
    public var gestures: [String]?
    /// `Disable=yes`: matching devices are not opened.
    public var disabled: Bool?
    /// `Calibration=a b c d e f`: affine calibration of positions (libinput's matrix).
    public var calibration: Calibration?
    /// `Grab=yes`: take the device (`EVIOCGRAB`) and hand the compositor a uinput clone
    /// that gets only the touches no gesture claims (touchscreens only).
    public var grab: Bool?

    public init(name: String) {
        self.name = name
    }
}

/// The result of applying every matching `[Device]` rule to one device.
public struct DeviceSettings: Hashable, Sendable {
    /// Names of the rules that matched, in application order.
    public var matchedRules: [String] = []
    public var isDisabled = false
    public var sloppiness = 1.0
    public var maxTouches = 10
    /// Configured physical size, mm; nil = use the device's resolution.
    public var widthMM: Double?
    public var heightMM: Double?
    /// Restriction from `Gestures=`; nil = every gesture whose `DeviceKinds=` allows the device.
    public var gestures: [String]?
    /// From `Calibration=`, else the device's udev `LIBINPUT_CALIBRATION_MATRIX`; nil = none.
    public var calibration: Calibration?
    /// From `Grab=`: the daemon grabs the device and feeds a clone (default off).
    public var grab = false

    public init() {}
}

extension DeviceSettings {
    /// `device` with `WidthMM=`/`HeightMM=` turned into axis resolutions, for the axes that
    /// report none (resolution 0). A kernel-reported resolution is kept: it is measured, a
    /// configured size is a hint (libinput's `AttrResolutionHint` works the same way).
    /// Resolutions are whole units per millimetre, as in `struct input_absinfo`, rounded to
    /// the nearest and at least 1.
    public func applyingPhysicalSize(to device: DeviceDescription) -> DeviceDescription {
        var result = device
        func apply(_ usages: [EventUsage], _ millimeters: Double?) {
            guard let millimeters, millimeters > 0 else { return }
            for usage in usages {
                guard var axis = result.axes[usage.code], axis.resolution <= 0 else { continue }
                let span = Double(axis.maximum) - Double(axis.minimum)
                axis.resolution = Int32(Swift.max(1, (span / millimeters).rounded()))
                result.axes[usage.code] = axis
            }
        }
        apply([.absX, .absMTPositionX], widthMM)
        apply([.absY, .absMTPositionY], heightMM)
        return result
    }

    /// `device` with every device setting that changes how its positions read: the physical
    /// size (``applyingPhysicalSize(to:)``) and the calibration.
    public func applying(to device: DeviceDescription) -> DeviceDescription {
        var result = applyingPhysicalSize(to: device)
        if let calibration { result.calibration = calibration }
        return result
    }
}

/// A parsed, validated configuration.
public struct Configuration: Hashable, Sendable {
    public var daemon = DaemonSettings()
    /// `[TouchFilter]`: the touch filter's thresholds before any device's quirks.
    public var touchFilter = TouchFilterSettings()
    /// `[Device]` rules in file order (main file, then drop-ins); later rules override.
    public var deviceRules: [DeviceRule] = []
    /// `[Gesture]` sections in declaration order (the engine's tie-break order).
    public var gestures: [RecognizerConfiguration] = []
    /// Names of the `[Gesture]` sections with `WhenLocked=yes`: their events reach every
    /// client while the seat's session is locked (others reach root clients only). A daemon
    /// policy, not the engine's, so it is kept beside the recognizers.
    public var gesturesWhenLocked: Set<String> = []

    public init() {}

    /// Applies the matching `[Device]` rules to `device`.
    /// - Parameters:
    ///   - device: The device as read from the kernel or a recording.
    ///   - udevProperties: The device's udev properties (`ID_INPUT_TOUCHPAD=1`, …); empty for
    ///     recordings.
    ///   - kind: The device's classification; nil = ``DeviceDescription/kind``.
    public func deviceSettings(
        for device: DeviceDescription,
        kind: DeviceKind? = nil,
        udevProperties: [String: String] = [:]
    ) -> DeviceSettings {
        var settings = DeviceSettings()
        let deviceKind = kind ?? device.kind
        for rule in deviceRules where rule.match.matches(device, kind: deviceKind, udevProperties: udevProperties) {
            settings.matchedRules.append(rule.name)
            if let v = rule.sloppiness { settings.sloppiness = v }
            if let v = rule.maxTouches { settings.maxTouches = v }
            if let v = rule.widthMM { settings.widthMM = v }
            if let v = rule.heightMM { settings.heightMM = v }
            if let v = rule.gestures { settings.gestures = v }
            if let v = rule.disabled { settings.isDisabled = v }
            if let v = rule.calibration { settings.calibration = v }
            if let v = rule.grab { settings.grab = v }
        }
        // The matrix a user already set up for libinput (udev hwdb or rule) applies here
        // too, unless gestured.conf says otherwise; a malformed one is ignored, as libinput
        // ignores it.
        if settings.calibration == nil, let matrix = udevProperties["LIBINPUT_CALIBRATION_MATRIX"] {
            settings.calibration = Calibration(matrix.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) })
        }
        return settings
    }

    /// The engine configuration for one device: the gestures whose `DeviceKinds=` admits the
    /// device's kind (and that a matching `Gestures=` names, when one does), with relations to
    /// gestures left out removed, plus the device's `Sloppiness=` and `MaxTouches=`.
    /// A disabled device gets no recognizers.
    /// - Parameters:
    ///   - device: The device.
    ///   - kind: The device's classification; nil = ``DeviceDescription/kind``.
    ///   - udevProperties: The device's udev properties; empty for recordings.
    public func engineConfiguration(
        for device: DeviceDescription,
        kind: DeviceKind? = nil,
        udevProperties: [String: String] = [:]
    ) -> EngineConfiguration {
        let settings = deviceSettings(for: device, kind: kind, udevProperties: udevProperties)
        var result = EngineConfiguration(maxTouches: settings.maxTouches, sloppiness: settings.sloppiness)
        if settings.isDisabled { return result }
        let kind = kind ?? device.kind
        var selected = gestures.filter { gesture in
            if let allowed = settings.gestures, !allowed.contains(gesture.name) { return false }
            if !gesture.policy.deviceKinds.isEmpty {
                guard let kind, gesture.policy.deviceKinds.contains(kind) else { return false }
            }
            return true
        }
        let names = Set(selected.map(\.name))
        for index in selected.indices {
            selected[index].requiresFailureOf.removeAll { !names.contains($0) }
            selected[index].recognizesSimultaneouslyWith.removeAll { !names.contains($0) }
        }
        result.recognizers = selected
        return result
    }
}

/// Shell-style glob matching for `MatchName=` (`*`, `?`, `[…]`, `[!…]`), as fnmatch(3)
/// without flags.
enum Glob {
    static func matches(pattern: String, _ text: String) -> Bool {
        matches(Array(pattern), 0, Array(text), 0)
    }

    private static func matches(_ p: [Character], _ pi: Int, _ t: [Character], _ ti: Int) -> Bool {
        var pi = pi
        var ti = ti
        while pi < p.count {
            switch p[pi] {
            case "*":
                // Collapse runs of stars, then try every split point.
                while pi < p.count, p[pi] == "*" { pi += 1 }
                if pi == p.count { return true }
                for start in ti...t.count where matches(p, pi, t, start) { return true }
                return false
            case "?":
                guard ti < t.count else { return false }
            case "[":
                guard ti < t.count, let (matched, next) = bracket(p, pi, t[ti]) else {
                    // An unterminated '[' matches itself literally.
                    guard ti < t.count, t[ti] == "[" else { return false }
                    pi += 1
                    ti += 1
                    continue
                }
                guard matched else { return false }
                pi = next
                ti += 1
                continue
            default:
                guard ti < t.count, t[ti] == p[pi] else { return false }
            }
            pi += 1
            ti += 1
        }
        return ti == t.count
    }

    /// Matches `c` against the class starting at `p[start] == "["`; returns the result and the
    /// index after `]`, or nil when the class is unterminated.
    private static func bracket(_ p: [Character], _ start: Int, _ c: Character) -> (Bool, Int)? {
        var i = start + 1
        var negate = false
        if i < p.count, p[i] == "!" || p[i] == "^" {
            negate = true
            i += 1
        }
        var matched = false
        var first = true
        while i < p.count {
            if p[i] == "]", !first { return (matched != negate, i + 1) }
            first = false
            if i + 2 < p.count, p[i + 1] == "-", p[i + 2] != "]" {
                if p[i] <= c, c <= p[i + 2] { matched = true }
                i += 3
            } else {
                if p[i] == c { matched = true }
                i += 1
            }
        }
        return nil
    }
}
