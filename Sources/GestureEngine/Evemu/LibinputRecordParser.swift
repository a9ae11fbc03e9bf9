/// Reads the subset of `libinput record` YAML (format version 1) that carries the device and
/// its evdev events — no YAML library, just the shapes libinput writes:
///
/// ```yaml
/// version: 1
/// devices:
/// - node: /dev/input/event5
///   evdev:
///     name: "SynPS/2 Synaptics TouchPad"
///     id: [17, 2, 7, 433]
///     codes:
///       3: [0, 1, 24, 47, 53, 54, 57] # EV_ABS
///     absinfo:
///       0: [1266, 5676, 0, 0, 45]     # min, max, fuzz, flat, resolution
///     properties: [0, 2]
///   events:
///   - evdev:
///     - [  0,   7000,   3,  57,   123] # sec, usec, type, code, value
/// ```
///
/// Only the first device is read (a warning names the others). Unknown keys are ignored, as
/// libinput's format documentation asks of parsers.
enum LibinputRecordParser {
    private enum Section { case none, codes, absinfo, events }

    static func parse(_ text: String, fileName: String) throws(RecordingError) -> Recording {
        let (lines, endsWithNewline) = text.numberedLines()
        var warnings: [RecordingDiagnostic] = []
        var events: [RawEvent] = []
        var sawVersion = false
        var inDevices = false
        var deviceItemIndent: Int?
        var deviceCount = 0
        var section = Section.none
        var sectionIndent = 0
        var name: String?
        var ids: [UInt16] = []
        var codes: Set<EventUsage> = []
        var axes: [UInt16: AxisInfo] = [:]
        var properties: Set<InputProperty> = []

        for (index, line) in lines.enumerated() {
            let body = stripComment(line.text)
            let trimmed = Scan.trim(body)
            if trimmed.isEmpty { continue }
            let indent = body.prefix { $0 == " " }.count
            let isLast = index == lines.count - 1
            func fail(_ expected: String) throws(RecordingError) {
                try line.reject(file: fileName, expected: expected, isCutLast: isLast && !endsWithNewline, warnings: &warnings)
            }

            if indent == 0 && !trimmed.hasPrefix("-") {
                inDevices = false
                section = .none
                if trimmed.hasPrefix("version:") {
                    let value = Scan.trim(trimmed.dropFirst("version:".count))
                    guard value == "1" else {
                        throw RecordingError(
                            file: fileName,
                            line: line.number,
                            expected: "'version: 1' (the libinput record format this parser reads)",
                            found: Scan.quoted(line.text)
                        )
                    }
                    sawVersion = true
                } else if trimmed == "devices:" {
                    inDevices = true
                }
                continue
            }
            guard inDevices else { continue }
            if trimmed.hasPrefix("- ") || trimmed == "-" {
                if deviceItemIndent == nil { deviceItemIndent = indent }
                if indent == deviceItemIndent {
                    deviceCount += 1
                    section = .none
                    if deviceCount == 2 {
                        warnings.append(
                            RecordingDiagnostic(
                                file: fileName,
                                line: line.number,
                                message: "recording has several devices; reading only the first"
                            )
                        )
                    }
                }
            }
            guard deviceCount == 1 else { continue }
            // Leave a section when indentation returns to its key's level.
            if section != .none && indent <= sectionIndent && !(section == .events && trimmed.hasPrefix("-")) {
                section = .none
            }
            // The key of this line, after an optional list dash.
            let content = trimmed.hasPrefix("- ") ? Scan.trim(trimmed.dropFirst(2)) : trimmed
            switch section {
            case .codes:
                guard let (key, list) = keyAndList(content), let type = UInt16(key) else {
                    try fail("'<type>: [<code>, ...]' under 'codes:'")
                    continue
                }
                for code in list where type <= EventUsage.typeMaximum {
                    guard let code = UInt16(exactly: code), code <= EventUsage.codeMaximum else { continue }
                    codes.insert(EventUsage(type: type, code: code))
                }
                continue
            case .absinfo:
                guard let (key, list) = keyAndList(content), let code = UInt16(key), code <= EventUsage.absMaximum,
                    list.count == 5
                else {
                    try fail("'<code 0…63>: [<min>, <max>, <fuzz>, <flat>, <resolution>]' under 'absinfo:'")
                    continue
                }
                axes[code] = AxisInfo(
                    minimum: list[0],
                    maximum: list[1],
                    fuzz: list[2],
                    flat: list[3],
                    resolution: list[4]
                )
                continue
            case .events:
                if content.hasPrefix("[") {
                    guard let list = intList(content), list.count == 5, list[0] >= 0, list[1] >= 0,
                        let type = UInt16(exactly: list[2]), let code = UInt16(exactly: list[3])
                    else {
                        try fail("'- [<sec>, <usec>, <type>, <code>, <value>]'")
                        continue
                    }
                    let time = Timestamp(seconds: Int64(list[0]), microseconds: Int64(list[1]))
                    events.append(RawEvent(time: time, type: type, code: code, value: list[4]))
                }
                continue  // `- evdev:`, `- libinput:` blocks and their keys
            case .none:
                break
            }
            if content.hasPrefix("name:") {
                var value = Scan.trim(content.dropFirst("name:".count))
                if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                name = String(value)
            } else if content.hasPrefix("id:") {
                guard let list = intList(Scan.trim(content.dropFirst(3))), list.count == 4 else {
                    try fail("'id: [<bus>, <vendor>, <product>, <version>]'")
                    continue
                }
                ids = list.map { UInt16(truncatingIfNeeded: $0) }
            } else if content.hasPrefix("properties:") {
                let value = Scan.trim(content.dropFirst("properties:".count))
                if value.hasPrefix("[") {
                    guard let list = intList(value) else {
                        try fail("'properties: [<n>, ...]'")
                        continue
                    }
                    for n in list {
                        if let n = UInt16(exactly: n), let property = InputProperty(rawValue: n) {
                            properties.insert(property)
                        }
                    }
                }
                // udev's `properties:` is a block list of strings; nothing to read there.
            } else if content == "codes:" {
                section = .codes
                sectionIndent = indent
            } else if content == "absinfo:" {
                section = .absinfo
                sectionIndent = indent
            } else if content == "events:" {
                section = .events
                sectionIndent = indent
            }
        }
        guard sawVersion else {
            throw RecordingError(
                file: fileName,
                line: 1,
                expected: "'version: 1' (a libinput record file)",
                found: "no version key"
            )
        }
        var device: DeviceDescription?
        if name != nil || !codes.isEmpty || !axes.isEmpty {
            for code in axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
            device = DeviceDescription(
                name: name ?? "",
                bustype: ids.count == 4 ? ids[0] : 0,
                vendor: ids.count == 4 ? ids[1] : 0,
                product: ids.count == 4 ? ids[2] : 0,
                version: ids.count == 4 ? ids[3] : 0,
                properties: properties,
                codes: codes,
                axes: axes
            )
        }
        return Recording(device: device, events: events, warnings: warnings, format: .libinputRecord)
    }

    /// Drops a `#` comment that is not inside double quotes.
    private static func stripComment(_ text: Substring) -> Substring {
        var inQuotes = false
        for index in text.indices {
            switch text[index] {
            case "\"": inQuotes.toggle()
            case "#" where !inQuotes: return text[..<index]
            default: break
            }
        }
        return text
    }

    /// `[1, -2, 3]` → `[1, -2, 3]`; `nil` when malformed.
    private static func intList(_ text: Substring) -> [Int32]? {
        let trimmed = Scan.trim(text)
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        if Scan.trim(inner).isEmpty { return [] }
        var result: [Int32] = []
        for item in inner.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Scan.int32(Scan.trim(item)) else { return nil }
            result.append(value)
        }
        return result
    }

    /// `3: [0, 1]` → ("3", [0, 1]).
    private static func keyAndList(_ text: Substring) -> (Substring, [Int32])? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        guard let list = intList(text[text.index(after: colon)...]) else { return nil }
        return (Scan.trim(text[..<colon]), list)
    }
}
