/// Reads evtest text logs: an optional header (`Input device ID: bus 0x18 vendor …`,
/// `Input device name: "…"`, `Supported events:` with `Event type`/`Event code` and the
/// `Value/Min/Max/Fuzz/Flat/Resolution` lines of each axis, `Properties:`) and event lines
/// (`Event: time 5373390.081542, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 535`,
/// `Event: time …, -------------- SYN_REPORT ------------`).
///
/// The header is read as a stream of words rather than lines, because real logs contain lines
/// glued together (`Resolution      12 Event code 54 (ABS_MT_POSITION_Y)`).
enum EvtestParser {
    static let eventSyntax = "'Event: time <sec>.<usec>, type <n> (<name>), code <n> (<name>), value <n>'"

    static func parse(_ text: String, fileName: String) throws(RecordingError) -> Recording {
        let (lines, endsWithNewline) = text.numberedLines()
        var events: [RawEvent] = []
        var warnings: [RecordingDiagnostic] = []
        var headerWords: [Substring] = []
        var name: String?
        var ids: [UInt16] = []
        var sawHeader = false

        for (index, line) in lines.enumerated() {
            let body = Scan.trim(line.text)
            if body.isEmpty || body.hasPrefix("#") { continue }
            if body.hasPrefix("Event: time") {
                if let event = parseEvent(body) {
                    events.append(event)
                    continue
                }
                try line.reject(
                    file: fileName,
                    expected: eventSyntax,
                    isCutLast: index == lines.count - 1 && !endsWithNewline,
                    warnings: &warnings
                )
                continue
            }
            sawHeader = true
            if body.hasPrefix("Input device name:") {
                let rest = Scan.trim(body.dropFirst("Input device name:".count))
                name = String(
                    rest.hasPrefix("\"") && rest.hasSuffix("\"") && rest.count >= 2 ? rest.dropFirst().dropLast() : rest
                )
            } else if body.hasPrefix("Input device ID:") {
                // "bus 0x18 vendor 0x0 product 0x0 version 0x1"
                let words = Scan.fields(body.dropFirst("Input device ID:".count))
                var i = 0
                while i + 1 < words.count {
                    if let value = Scan.hex16(words[i + 1]) { ids.append(value) }
                    i += 2
                }
                if ids.count != 4 {
                    throw RecordingError(
                        file: fileName,
                        line: line.number,
                        expected: "'Input device ID: bus <hex> vendor <hex> product <hex> version <hex>'",
                        found: Scan.quoted(line.text)
                    )
                }
            } else if body.hasPrefix("Input driver version") || body.hasPrefix("Testing ...") {
                continue
            } else {
                headerWords += Scan.fields(body)
            }
        }

        var device: DeviceDescription?
        if sawHeader && (name != nil || !headerWords.isEmpty) {
            device = describe(words: headerWords, name: name ?? "", ids: ids)
        }
        return Recording(device: device, events: events, warnings: warnings, format: .evtest)
    }

    /// `Event: time T, type N (NAME), code N (NAME), value V` or `Event: time T, ---- SYN_X ----`.
    private static func parseEvent(_ line: Substring) -> RawEvent? {
        let rest = line.dropFirst("Event: time".count)
        guard let comma = rest.firstIndex(of: ",") else { return nil }
        guard let time = Scan.timestamp(Scan.trim(rest[..<comma])) else { return nil }
        let tail = Scan.trim(rest[rest.index(after: comma)...])
        if tail.hasPrefix("-") || tail.hasPrefix("+") || tail.hasPrefix(">") {
            let name = tail.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "+" || $0 == ">" || $0 == "<" })
                .first
            switch name {
            case "SYN_REPORT": return RawEvent(time: time, usage: .synReport, value: 0)
            case "SYN_MT_REPORT": return RawEvent(time: time, usage: .synMTReport, value: 0)
            case "SYN_DROPPED": return RawEvent(time: time, usage: .synDropped, value: 0)
            case "SYN_CONFIG": return RawEvent(time: time, usage: .synConfig, value: 0)
            default: return nil
            }
        }
        // "type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 535"
        let words = Scan.fields(tail)
        var type: UInt16?
        var code: UInt16?
        var value: Int32?
        var i = 0
        while i + 1 < words.count {
            let number = words[i + 1].hasSuffix(",") ? words[i + 1].dropLast() : words[i + 1]
            switch words[i] {
            case "type": type = UInt16(number)
            case "code": code = UInt16(number)
            case "value": value = Scan.int32(number)
            default: break
            }
            i += 1
        }
        guard let type, let code, let value else { return nil }
        return RawEvent(time: time, type: type, code: code, value: value)
    }

    /// Walks the header's words: `Event type N`, `Event code N`, `Min N`, `Max N`, `Fuzz N`,
    /// `Flat N`, `Resolution N`, `Property type N`.
    private static func describe(words: [Substring], name: String, ids: [UInt16]) -> DeviceDescription {
        var codes: Set<EventUsage> = []
        var axes: [UInt16: AxisInfo] = [:]
        var properties: Set<InputProperty> = []
        var currentType: UInt16?
        var currentAxis: UInt16?
        var inProperties = false
        var i = 0
        func number(at index: Int) -> Int32? {
            guard index < words.count else { return nil }
            return Scan.int32(words[index])
        }
        while i < words.count {
            let word = words[i]
            if word == "Properties:" {
                inProperties = true
            } else if word == "Event" || word == "Property", i + 2 < words.count,
                words[i + 1] == "type" || words[i + 1] == "code",
                let value = number(at: i + 2), value >= 0, value <= Int32(UInt16.max)
            {
                let n = UInt16(value)
                if word == "Property" || (inProperties && words[i + 1] == "type") {
                    if let property = InputProperty(rawValue: n) { properties.insert(property) }
                } else if words[i + 1] == "type" {
                    currentType = n
                    currentAxis = nil
                } else if let type = currentType, type <= EventUsage.typeMaximum, n <= EventUsage.codeMaximum {
                    codes.insert(EventUsage(type: type, code: n))
                    currentAxis = type == EventUsage.evAbs && n <= EventUsage.absMaximum ? n : nil
                    if let axis = currentAxis { axes[axis] = AxisInfo(minimum: 0, maximum: 0) }
                }
                i += 3
                continue
            } else if let axis = currentAxis, let value = number(at: i + 1) {
                switch word {
                case "Min": axes[axis]?.minimum = value
                case "Max": axes[axis]?.maximum = value
                case "Fuzz": axes[axis]?.fuzz = value
                case "Flat": axes[axis]?.flat = value
                case "Resolution": axes[axis]?.resolution = value
                default: break
                }
            }
            i += 1
        }
        if codes.contains(where: { $0.type == EventUsage.evSyn }) || !codes.isEmpty {
            codes.formUnion([.synReport, .synDropped])
        }
        return DeviceDescription(
            name: name,
            bustype: ids.count == 4 ? ids[0] : 0,
            vendor: ids.count == 4 ? ids[1] : 0,
            product: ids.count == 4 ? ids[2] : 0,
            version: ids.count == 4 ? ids[3] : 0,
            properties: properties,
            codes: codes,
            axes: axes
        )
    }
}
