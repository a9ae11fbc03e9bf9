/// Writes evemu text: a description header (`N: I: P: B: A:`, as evemu-describe prints it) and
/// `E:` lines (as evemu-record prints them), so that `evemu-device`/`evemu-play` and
/// ``RecordingParser`` both read the result.
public enum EvemuWriter {
    /// A whole recording: `comments` (each line prefixed `# `), the header, then the events.
    public static func recording(device: DeviceDescription, events: [RawEvent], comments: [String] = []) -> String {
        var text = ""
        for comment in comments {
            for line in comment.split(separator: "\n", omittingEmptySubsequences: false) {
                text += line.isEmpty ? "#\n" : "# \(line)\n"
            }
        }
        text += description(device)
        text += self.events(events)
        return text
    }

    /// The device header: `# EVEMU 1.3`, then `N:`, `I:`, `P:`, `B:` and `A:` lines.
    public static func description(_ device: DeviceDescription) -> String {
        var text = "# EVEMU 1.3\n"
        text += "# Input device name: \"\(device.name)\"\n"
        text += "N: \(device.name)\n"
        text += "I: \(hex4(device.bustype)) \(hex4(device.vendor)) \(hex4(device.product)) \(hex4(device.version))\n"

        var propertyBytes = [UInt8](repeating: 0, count: 8)
        for property in device.properties {
            propertyBytes[Int(property.rawValue) / 8] |= 1 << (property.rawValue % 8)
        }
        text += "P: " + propertyBytes.map(hex2).joined(separator: " ") + "\n"

        // Codes per type; EV_SYN always, EV_ABS for every axis.
        var byType: [UInt16: Set<UInt16>] = [EventUsage.evSyn: []]
        for usage in device.codes { byType[usage.type, default: []].insert(usage.code) }
        for code in device.axes.keys { byType[EventUsage.evAbs, default: []].insert(code) }

        var typeMask = [UInt8](repeating: 0, count: 8)
        for type in byType.keys where type < 64 { typeMask[Int(type) / 8] |= 1 << (type % 8) }
        text += "B: 00 " + typeMask.map(hex2).joined(separator: " ") + "\n"
        for type in byType.keys.sorted() where type != EventUsage.evSyn {
            let codes = byType[type] ?? []
            let highest = Int(codes.max() ?? 0)
            let lines = highest / 64 + 1
            var bytes = [UInt8](repeating: 0, count: lines * 8)
            for code in codes { bytes[Int(code) / 8] |= 1 << (code % 8) }
            for line in 0..<lines {
                text += "B: \(hex2(UInt8(truncatingIfNeeded: type))) "
                text += bytes[(line * 8)..<(line * 8 + 8)].map(hex2).joined(separator: " ") + "\n"
            }
        }
        for code in device.axes.keys.sorted() {
            let axis = device.axes[code]!
            text +=
                "A: \(hex2(UInt8(truncatingIfNeeded: code))) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) "
            text += "\(axis.resolution)\n"
        }
        return text
    }

    /// `E:` lines, one per event, with the event names in a trailing comment.
    public static func events(_ events: [RawEvent]) -> String {
        var text = ""
        text.reserveCapacity(events.count * 48)
        for event in events {
            text += line(for: event)
        }
        return text
    }

    /// `E: 12.345678 0003 0035 1234\t# EV_ABS / ABS_MT_POSITION_X 1234`.
    public static func line(for event: RawEvent) -> String {
        let usage = event.usage
        var comment: String
        switch usage {
        case .synReport: comment = "------------ SYN_REPORT (0) ----------"
        case .synMTReport: comment = "++++++++++++ SYN_MT_REPORT (2) ++++++++++"
        case .synDropped: comment = ">>>>>>>>>>>> SYN_DROPPED (3) <<<<<<<<<<"
        default:
            let typeName = EventUsage.typeNames[usage.type] ?? "EV_\(usage.type)"
            comment = "\(typeName) / \(usage.name) \(event.value)"
        }
        return "E: \(event.time) \(hex4(usage.type)) \(hex4(usage.code)) \(padded(event.value))\t# \(comment)\n"
    }

    /// evemu prints values with `%04d`.
    private static func padded(_ value: Int32) -> String {
        let magnitude = String(value.magnitude)
        let width = value < 0 ? 3 : 4
        let zeros = String(repeating: "0", count: max(0, width - magnitude.count))
        return (value < 0 ? "-" : "") + zeros + magnitude
    }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func hex2(_ value: UInt8) -> String {
        let digits = String(value, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
