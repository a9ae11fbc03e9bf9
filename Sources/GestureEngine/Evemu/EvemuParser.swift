/// Reads evemu text (evemu-describe / evemu-record): `N:` name, `I:` ids, `P:` property bits,
/// `B:` capability bits, `A:` absinfo, `E:` events, `#` comments.
///
/// The `B: 00` line is the event-*type* bitmask (as `EVIOCGBIT(0)` returns it); `B: <type>`
/// lines carry that type's code bits, eight bytes per line, continued by further lines of the
/// same type.
enum EvemuParser {
    static let eventSyntax = "'E: <sec>.<usec> <type> <code> <value>'"
    static let absSyntax = "'A: <code 00…3f> <min> <max> <fuzz> <flat> [<resolution>]'"
    static let idSyntax = "'I: <bus> <vendor> <product> <version>' (hex)"
    static let bitsSyntax = "'B: <type> <hex byte>...'"
    static let propSyntax = "'P: <hex byte>...'"

    private struct Header {
        var name: String?
        var ids: (UInt16, UInt16, UInt16, UInt16)?
        var propertyBytes: [UInt8] = []
        var typeBytes: [UInt16: [UInt8]] = [:]
        var axes: [UInt16: AxisInfo] = [:]
        var hasContent: Bool {
            name != nil || ids != nil || !propertyBytes.isEmpty || !typeBytes.isEmpty || !axes.isEmpty
        }
    }

    static func parseRecording(_ text: String, fileName: String) throws(RecordingError) -> Recording {
        try parse(text, fileName: fileName, wantEvents: true)
    }

    static func parseDescription(_ text: String, fileName: String) throws(RecordingError) -> DeviceDescription {
        let recording = try parse(text, fileName: fileName, wantEvents: false)
        guard let device = recording.device else {
            throw RecordingError(
                file: fileName,
                line: nil,
                expected: "an evemu device description ('N:', 'I:', 'B:', 'A:' lines)",
                found: "none"
            )
        }
        return device
    }

    private static func parse(_ text: String, fileName: String, wantEvents: Bool) throws(RecordingError) -> Recording {
        let (lines, endsWithNewline) = text.numberedLines()
        var header = Header()
        var events: [RawEvent] = []
        var warnings: [RecordingDiagnostic] = []
        events.reserveCapacity(lines.count)

        for (index, line) in lines.enumerated() {
            // Nearly every line is a well-formed E: line; read those straight from the bytes.
            if let event = Scan.evemuEvent(line.text) {
                if wantEvents { events.append(event) }
                continue
            }
            let body = Scan.stripComment(line.text)
            if body.isEmpty { continue }
            let isLast = index == lines.count - 1
            func fail(_ expected: String) throws(RecordingError) {
                try line.reject(file: fileName, expected: expected, isCutLast: isLast && !endsWithNewline, warnings: &warnings)
            }
            guard body.count >= 2, body.dropFirst().first == ":" else {
                try fail("an evemu line ('N:', 'I:', 'P:', 'B:', 'A:', 'E:' or '# comment')")
                continue
            }
            let fields = Scan.fields(body.dropFirst(2))
            switch body.first {
            case "E":
                guard wantEvents else { continue }
                guard fields.count == 4, let time = Scan.timestamp(fields[0]), let type = Scan.hex16(fields[1]),
                    let code = Scan.hex16(fields[2]), let value = Scan.int32(fields[3])
                else {
                    try fail(eventSyntax)
                    continue
                }
                events.append(RawEvent(time: time, type: type, code: code, value: value))
            case "N":
                // The name is the rest of the line, '#' included (names are free text).
                header.name = String(Scan.trim(Scan.trim(line.text).dropFirst(2)))
            case "I":
                guard fields.count == 4, let bus = Scan.hex16(fields[0]), let vendor = Scan.hex16(fields[1]),
                    let product = Scan.hex16(fields[2]), let version = Scan.hex16(fields[3])
                else {
                    try fail(idSyntax)
                    continue
                }
                header.ids = (bus, vendor, product, version)
            case "P":
                guard let bytes = hexBytes(fields[...]) else {
                    try fail(propSyntax)
                    continue
                }
                header.propertyBytes += bytes
            case "B":
                guard fields.count >= 2, let type = Scan.hex16(fields[0]), let bytes = hexBytes(fields.dropFirst())
                else {
                    try fail(bitsSyntax)
                    continue
                }
                header.typeBytes[type, default: []] += bytes
            case "A":
                guard fields.count == 5 || fields.count == 6, let code = Scan.hex16(fields[0]),
                    code <= EventUsage.absMaximum, let minimum = Scan.int32(fields[1]), let maximum = Scan.int32(fields[2]),
                    let fuzz = Scan.int32(fields[3]), let flat = Scan.int32(fields[4])
                else {
                    try fail(absSyntax)
                    continue
                }
                var resolution: Int32 = 0
                if fields.count == 6 {
                    guard let value = Scan.int32(fields[5]) else {
                        try fail(absSyntax)
                        continue
                    }
                    resolution = value
                }
                header.axes[code] = AxisInfo(
                    minimum: minimum,
                    maximum: maximum,
                    fuzz: fuzz,
                    flat: flat,
                    resolution: resolution
                )
            default:
                // Other evemu records (L: LEDs, S: switches, R: repeat…) do not matter here.
                warnings.append(
                    RecordingDiagnostic(
                        file: fileName,
                        line: line.number,
                        message: "unknown evemu line \(Scan.quoted(line.text)), ignoring"
                    )
                )
            }
        }
        let device = header.hasContent ? makeDescription(header, fileName: fileName, warnings: &warnings) : nil
        return Recording(device: device, events: events, warnings: warnings, format: .evemu)
    }

    private static func hexBytes(_ fields: ArraySlice<Substring>) -> [UInt8]? {
        var bytes: [UInt8] = []
        for field in fields {
            guard field.count <= 2, let value = UInt8(field, radix: 16) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    private static func makeDescription(
        _ header: Header,
        fileName: String,
        warnings: inout [RecordingDiagnostic]
    ) -> DeviceDescription {
        var properties: Set<InputProperty> = []
        for (byteIndex, byte) in header.propertyBytes.prefix(8).enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                if let property = InputProperty(rawValue: UInt16(byteIndex * 8 + bit)) {
                    properties.insert(property)
                }
            }
        }
        var codes: Set<EventUsage> = []
        var types: Set<UInt16> = []
        if let typeMask = header.typeBytes[0] {
            for (byteIndex, byte) in typeMask.prefix(Int(EventUsage.typeMaximum) / 8 + 1).enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 { types.insert(UInt16(byteIndex * 8 + bit)) }
            }
        }
        // Bits past EV_MAX and KEY_MAX name no event a kernel can send (and would not fit a
        // code); they are ignored, as the kernel's bitmaps have none.
        for (type, bytes) in header.typeBytes where type != 0 && type <= EventUsage.typeMaximum {
            // Only types the type mask lists are real; evemu writes empty masks for the others.
            if !types.isEmpty && !types.contains(type) { continue }
            for (byteIndex, byte) in bytes.prefix(Int(EventUsage.codeMaximum) / 8 + 1).enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    codes.insert(EventUsage(type: type, code: UInt16(byteIndex * 8 + bit)))
                }
            }
        }
        if types.contains(EventUsage.evSyn) || header.typeBytes[0] == nil {
            codes.formUnion([.synReport, .synConfig, .synDropped])
        }
        for code in header.axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        for usage in codes where usage.type == EventUsage.evAbs && header.axes[usage.code] == nil {
            warnings.append(
                RecordingDiagnostic(
                    file: fileName,
                    line: nil,
                    message: "\(usage.name) is supported but has no 'A:' line; its range is unknown"
                )
            )
        }
        let ids = header.ids ?? (0, 0, 0, 0)
        return DeviceDescription(
            name: header.name ?? "",
            bustype: ids.0,
            vendor: ids.1,
            product: ids.2,
            version: ids.3,
            properties: properties,
            codes: codes,
            axes: header.axes
        )
    }
}
