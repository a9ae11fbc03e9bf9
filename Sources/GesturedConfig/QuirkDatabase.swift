public import GestureEngine

/// One section of a quirks file: what it matches and the attributes it sets.
public struct QuirkSection: Hashable, Sendable {
    /// The section header, without brackets.
    public var name: String
    /// `file:line` of the header.
    public var origin: String
    /// `MatchName=`: a shell glob against the kernel device name.
    public var namePattern: String?
    /// `MatchBus=`: usb, bluetooth, i2c, ps2, rmi, or a hex bus type.
    public var bus: UInt16?
    public var vendor: UInt16?
    public var product: UInt16?
    /// `MatchUdevProperty=KEY=VALUE …`.
    public var udevProperties: [String: String] = [:]
    public var quirks = DeviceQuirks()

    /// Every condition that is set holds for the device.
    public func matches(_ device: DeviceDescription, udevProperties properties: [String: String]) -> Bool {
        if let namePattern, !Glob.matches(pattern: namePattern, device.name) { return false }
        if let bus, device.bustype != bus { return false }
        if let vendor, device.vendor != vendor { return false }
        if let product, device.product != product { return false }
        for (key, value) in udevProperties where properties[key] != value { return false }
        return true
    }
}

/// The device database: `*.quirks` files in libinput's format (`[Section]`, `Match*=` lines
/// that must all hold, `Attr*=` lines that apply), read in file-name order; for a device, the
/// attributes of every matching section apply, later ones over earlier ones.
///
/// Unlike gestured.conf, where an unknown key is a warning, an unknown or malformed quirk
/// line is an error (libinput refuses such a file too): a quirk silently not applied is a
/// device silently misread.
public struct QuirkDatabase: Hashable, Sendable {
    public var sections: [QuirkSection] = []

    public init(sections: [QuirkSection] = []) {
        self.sections = sections
    }

    /// The quirks that apply to `device`, with the matched sections in ``DeviceQuirks/sources``.
    public func quirks(for device: DeviceDescription, udevProperties: [String: String] = [:]) -> DeviceQuirks {
        var result = DeviceQuirks()
        for section in sections where section.matches(device, udevProperties: udevProperties) {
            var quirks = section.quirks
            quirks.sources = ["\(section.name) (\(section.origin))"]
            result.merge(quirks)
        }
        return result
    }

    /// Parses quirks files (name, contents), in the order given.
    /// - Returns: the database and every diagnostic (`file:line:column: error: …`).
    public static func parse(_ files: [(name: String, contents: String)]) -> (database: QuirkDatabase, diagnostics: [ConfigDiagnostic]) {
        var diagnostics = DiagnosticCollector()
        var database = QuirkDatabase()
        for file in files {
            for section in INILexer.lex(file: file.name, contents: file.contents, diagnostics: &diagnostics) {
                guard !section.type.isEmpty else { continue }
                if let parsed = parseSection(section, diagnostics: &diagnostics) { database.sections.append(parsed) }
            }
        }
        return (database, diagnostics.diagnostics)
    }

    private static func parseSection(_ section: INISection, diagnostics: inout DiagnosticCollector) -> QuirkSection? {
        let header = section.type + (section.name.map { " " + $0 } ?? "")
        var result = QuirkSection(name: header, origin: "\(section.location.file):\(section.location.line)")
        var hasMatch = false
        var ok = true
        for entry in section.entries {
            do {
                if entry.key.hasPrefix("Match") { hasMatch = true }
                try apply(entry.key, entry.value, to: &result)
            } catch {
                ok = false
                diagnostics.error(entry.keyLocation, "[\(header)] \(entry.key)=: \(error.message)", hint: error.hint)
            }
        }
        if !hasMatch {
            diagnostics.error(section.location, "[\(header)] has no Match line", hint: "a quirk applies only to the devices it matches")
            return nil
        }
        return ok ? result : nil
    }

    /// The keys a quirks file may use.
    public static let keys = [
        "MatchName", "MatchBus", "MatchVendor", "MatchProduct", "MatchUdevProperty", "AttrPressureIsPressure",
        "AttrPalmPressureThreshold", "AttrPalmPressureAtLanding", "AttrTapMinimumPressure", "AttrPalmSizeThreshold",
        "AttrPalmReturnWait", "AttrSensorJumpStep", "AttrBoxFilterSize", "AttrDropsConfirmedMotion",
        "AttrResolutionHint",
    ]

    private static func apply(_ key: String, _ value: String, to section: inout QuirkSection) throws(ValueError) {
        switch key {
        case "MatchName":
            guard !value.isEmpty else { throw ValueError("needs a pattern") }
            section.namePattern = value
        case "MatchBus": section.bus = try bus(value)
        case "MatchVendor": section.vendor = try ValueParsing.usbID(value)
        case "MatchProduct": section.product = try ValueParsing.usbID(value)
        case "MatchUdevProperty":
            for pair in ValueParsing.list(value) {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw ValueError("'\(pair)' is not KEY=VALUE") }
                section.udevProperties[parts[0]] = parts[1]
            }
        case "AttrPressureIsPressure": section.quirks.pressureIsPressure = try ValueParsing.boolean(value)
        case "AttrPalmPressureThreshold": section.quirks.palmPressure = try ValueParsing.plainNumber(value)
        case "AttrPalmPressureAtLanding": section.quirks.palmPressureAtLanding = try ValueParsing.plainNumber(value)
        case "AttrTapMinimumPressure": section.quirks.tapMinimumPressure = try ValueParsing.plainNumber(value)
        case "AttrPalmSizeThreshold": section.quirks.palmTouchMajor = try ValueParsing.length(value)
        case "AttrPalmReturnWait": section.quirks.palmReturnWait = try ValueParsing.duration(value)
        case "AttrSensorJumpStep": section.quirks.sensorJumpStep = try ValueParsing.length(value)
        case "AttrBoxFilterSize": section.quirks.boxSize = try ValueParsing.length(value)
        case "AttrDropsConfirmedMotion": section.quirks.dropsConfirmedMotion = try ValueParsing.boolean(value)
        case "AttrResolutionHint":
            let parts = value.split(separator: "x", omittingEmptySubsequences: false).map { Int32($0) }
            guard parts.count == 2, let x = parts[0], let y = parts[1], x > 0, y > 0 else {
                throw ValueError("'\(value)' is not XxY, units per millimetre (e.g. 31x31)")
            }
            section.quirks.resolutionHint = ResolutionHint(x: x, y: y)
        default:
            let hint = Suggest.closest(to: key, among: keys).map { "did you mean '\($0)'?" }
            throw ValueError("unknown key", hint: hint)
        }
    }

    /// A bus by its libinput name or as a hex `BUS_*` value.
    private static func bus(_ text: String) throws(ValueError) -> UInt16 {
        switch text.lowercased() {
        case "usb": return 0x03
        case "bluetooth": return 0x05
        case "ps2", "i8042": return 0x11
        case "i2c": return 0x18
        case "rmi": return 0x1d
        default:
            do { return try ValueParsing.usbID(text) } catch {
                throw ValueError("'\(text)' is not a bus", hint: "use usb, bluetooth, ps2, i2c, rmi or a hex BUS_* value")
            }
        }
    }
}
