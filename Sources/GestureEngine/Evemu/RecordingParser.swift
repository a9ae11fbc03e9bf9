/// Reads input recordings in any of the formats gestured understands and detects which one a
/// text is in: evemu, `libinput record` YAML (version 1) or an evtest log.
///
/// Pure text in, values out: the caller reads the file (GesturedSystem) and passes its name
/// for messages. Malformed input is a ``RecordingError`` naming `file:line` and what was
/// expected; a truncated file (a last frame without `SYN_REPORT`, or a cut last line) yields
/// what was parsed plus a warning.
public enum RecordingParser {
    /// Parses a recording, detecting its format.
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - fileName: used in errors and warnings (`bug.evemu:12: …`).
    ///   - description: the device, for files without a header (bare `E:` lines); ignored
    ///     when the file has its own header. Without either, axis ranges are inferred from the
    ///     data (minimum/maximum of the values seen, resolution unknown) and a warning says so.
    /// - Throws: ``RecordingError`` for malformed lines, an unsupported format (e.g. a
    ///   ChromiumOS gestures activity log) or a file with no events and no description.
    public static func parse(
        _ text: String,
        fileName: String,
        description: DeviceDescription? = nil
    ) throws(RecordingError) -> Recording {
        var recording: Recording
        switch detectFormat(text) {
        case .evemu:
            recording = try EvemuParser.parseRecording(text, fileName: fileName)
        case .evtest:
            recording = try EvtestParser.parse(text, fileName: fileName)
        case .libinputRecord:
            recording = try LibinputRecordParser.parse(text, fileName: fileName)
        case nil:
            let firstCharacter = text.first { !$0.isWhitespace }
            if firstCharacter == "{" || firstCharacter == "[" {
                throw RecordingError(
                    file: fileName,
                    line: nil,
                    expected: "an evemu, evtest or libinput-record recording",
                    found: "JSON (a ChromiumOS gestures activity log?), which is not supported"
                )
            }
            throw RecordingError(
                file: fileName,
                line: nil,
                expected: "an evemu, evtest or libinput-record recording",
                found: "no recognisable line"
            )
        }
        if recording.device == nil, let description {
            recording.device = description
        }
        if recording.device == nil {
            guard !recording.events.isEmpty else {
                throw RecordingError(
                    file: fileName,
                    line: nil,
                    expected: "a device description or events",
                    found: "neither"
                )
            }
            let inferred = inferDescription(from: recording.events, name: fileName)
            recording.device = inferred
            recording.warnings.append(
                RecordingDiagnostic(
                    file: fileName,
                    line: nil,
                    message: "no device description; axis ranges inferred from the data ("
                        + inferredSummary(inferred) + "), resolution unknown, using "
                        + "\(DeviceDescription.fallbackResolution) units/mm (or what spreads an axis over "
                        + "\(Int(DeviceDescription.fallbackMaximumSize)) mm)"
                )
            )
        }
        if let last = recording.events.last, last.usage != .synReport {
            let tail = recording.events.reversed().prefix { $0.usage != .synReport }.count
            recording.warnings.append(
                RecordingDiagnostic(
                    file: fileName,
                    line: nil,
                    message: "truncated: the last frame has no SYN_REPORT (\(tail) events kept)"
                )
            )
        }
        return recording
    }

    /// Parses a device description on its own (an evemu `.desc`/`.prop` file: `N: I: P: B: A:`
    /// lines; a file of only `A:` lines is accepted too). `E:` lines, if any, are ignored.
    ///
    /// - Throws: ``RecordingError`` for malformed lines or a file without any description line.
    public static func parseDescription(_ text: String, fileName: String) throws(RecordingError) -> DeviceDescription {
        try EvemuParser.parseDescription(text, fileName: fileName)
    }

    /// Which format `text` is in, or `nil` when none matches.
    public static func detectFormat(_ text: String) -> Recording.Format? {
        var lines = 0
        for line in text.numberedLines().lines.lazy.map(\.text) where !line.isEmpty {
            lines += 1
            if lines > 400 { break }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("Event: time") || trimmed.hasPrefix("Input driver version")
                || trimmed.hasPrefix("Input device ID:") || trimmed.hasPrefix("Testing ... (interrupt")
            {
                return .evtest
            }
            if trimmed.hasPrefix("version:") || trimmed.hasPrefix("devices:") || trimmed.hasPrefix("ndevices:") {
                return .libinputRecord
            }
            if trimmed.count >= 2 && trimmed.dropFirst().first == ":" && "NIPBAE".contains(trimmed.first ?? " ") {
                return .evemu
            }
            if trimmed.hasPrefix("# EVEMU") { return .evemu }
        }
        return nil
    }

    /// Builds a description from the events alone: every code seen is supported, each
    /// absolute axis spans the values seen, and no axis has a resolution (the engine then uses
    /// ``DeviceDescription/fallbackResolution``).
    ///
    /// A recording with `ABS_MT_TRACKING_ID` and no `SYN_MT_REPORT` is protocol B, so it gets
    /// an `ABS_MT_SLOT` axis even when only slot 0 was used (the kernel never sends
    /// `ABS_MT_SLOT 0` for the first contact).
    public static func inferDescription(from events: [RawEvent], name: String) -> DeviceDescription {
        var codes: Set<EventUsage> = []
        var ranges: [UInt16: (min: Int32, max: Int32)] = [:]
        var sawMTReport = false
        for event in events {
            codes.insert(event.usage)
            if event.usage == .synMTReport { sawMTReport = true }
            guard event.usage.type == EventUsage.evAbs, event.usage.code <= EventUsage.absMaximum else { continue }
            if let range = ranges[event.usage.code] {
                ranges[event.usage.code] = (Swift.min(range.min, event.value), Swift.max(range.max, event.value))
            } else {
                ranges[event.usage.code] = (event.value, event.value)
            }
        }
        var axes: [UInt16: AxisInfo] = [:]
        for (code, range) in ranges {
            // One value seen: a range one unit wide (below it when the value is Int32.max).
            let minimum = range.min == range.max && range.max == .max ? range.min - 1 : range.min
            axes[code] = AxisInfo(minimum: minimum, maximum: Swift.max(range.max, minimum + 1))
        }
        // Tracking ids are not a range to infer: -1 is a release, and ids wrap at 65535.
        if axes[EventUsage.absMTTrackingID.code] != nil {
            axes[EventUsage.absMTTrackingID.code] = AxisInfo(minimum: 0, maximum: 65535)
        }
        if !sawMTReport && axes[EventUsage.absMTTrackingID.code] != nil {
            let highest = ranges[EventUsage.absMTSlot.code]?.max ?? 0
            axes[EventUsage.absMTSlot.code] = AxisInfo(minimum: 0, maximum: Swift.max(highest, 0))
            codes.insert(.absMTSlot)
        }
        codes.insert(.synReport)
        var properties: Set<InputProperty> = []
        if codes.contains(.btnToolFinger) { properties.insert(.pointer) }
        var device = DeviceDescription(name: name, properties: properties, codes: codes, axes: axes)
        device.rangesAreInferred = true
        return device
    }

    private static func inferredSummary(_ device: DeviceDescription) -> String {
        var parts: [String] = []
        for usage in [EventUsage.absMTPositionX, .absMTPositionY, .absX, .absY] {
            if let axis = device.axis(usage) {
                parts.append("\(usage.name) \(axis.minimum)…\(axis.maximum)")
            }
            if parts.count == 2 { break }
        }
        return parts.isEmpty ? "no position axis seen" : parts.joined(separator: ", ")
    }
}

// MARK: - Shared scanning helpers

/// One line of a text file with its 1-based number.
struct NumberedLine {
    var number: Int
    var text: Substring

    /// A line that does not parse, as every recording parser reports it: the last line of a
    /// file cut short (`isCutLast`) is truncation, not corruption — a warning, and the lines
    /// before it are kept; anywhere else it is an error naming the file, the line and what
    /// was expected.
    func reject(
        file: String,
        expected: String,
        isCutLast: Bool,
        warnings: inout [RecordingDiagnostic]
    ) throws(RecordingError) {
        guard isCutLast else {
            throw RecordingError(file: file, line: number, expected: expected, found: Scan.quoted(text))
        }
        warnings.append(
            RecordingDiagnostic(file: file, line: number, message: "truncated: the last line is incomplete (\(Scan.quoted(text))), ignoring it")
        )
    }
}

extension String {
    /// Lines with numbers; a trailing `\r` is dropped. `endsWithNewline` tells whether the
    /// last line was complete (a cut last line is a truncation warning, not an error).
    ///
    /// Split on the UTF-8 byte of `\n`, not on Characters: `"\r\n"` is one Character, so a
    /// Character split kept a CRLF file (a recording passed through a Windows mail client or
    /// editor) as a single line; and walking graphemes was a quarter of the recording fuzz
    /// target's time. A `\n` is never part of another Character (grapheme clusters break
    /// after every control character), so the lines are otherwise the same.
    func numberedLines() -> (lines: [NumberedLine], endsWithNewline: Bool) {
        var result: [NumberedLine] = []
        var number = 0
        var start = startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "\n") {
                number += 1
                result.append(NumberedLine(number: number, text: Self.droppingCarriageReturn(self[start..<index])))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        number += 1
        result.append(NumberedLine(number: number, text: Self.droppingCarriageReturn(self[start..<endIndex])))
        let endsWithNewline = utf8.last == UInt8(ascii: "\n")
        if endsWithNewline, result.last?.text.isEmpty == true { result.removeLast() }
        return (result, endsWithNewline)
    }

    private static func droppingCarriageReturn(_ line: Substring) -> Substring {
        line.utf8.last == UInt8(ascii: "\r") ? line[..<line.utf8.index(before: line.endIndex)] : line
    }
}

enum Scan {
    /// Splits on spaces and tabs.
    static func fields(_ text: Substring) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    /// The text before a `#` comment, trimmed.
    static func stripComment(_ text: Substring) -> Substring {
        let body = text.firstIndex(of: "#").map { text[..<$0] } ?? text
        return trim(body)
    }

    static func trim(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first == " " || first == "\t" || first == "\r" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" || last == "\r" { result = result.dropLast() }
        return result
    }

    /// A decimal integer with optional sign (evemu pads values with zeros: `-001`).
    static func int32(_ text: Substring) -> Int32? {
        var digits = text
        var negative = false
        if digits.first == "-" {
            negative = true
            digits = digits.dropFirst()
        } else if digits.first == "+" {
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, let magnitude = Int64(digits), magnitude <= Int64(Int32.max) + 1 else { return nil }
        let value = negative ? -magnitude : magnitude
        guard let result = Int32(exactly: value) else { return nil }
        return result
    }

    /// A hexadecimal number, with or without `0x`.
    static func hex(_ text: Substring) -> UInt32? {
        var digits = text
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        return UInt32(digits, radix: 16)
    }

    static func hex16(_ text: Substring) -> UInt16? {
        guard let value = hex(text), let result = UInt16(exactly: value) else { return nil }
        return result
    }

    /// `sec.usec` (the fraction is microseconds; fewer than six digits are a decimal fraction).
    static func timestamp(_ text: Substring) -> Timestamp? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        // Seconds past Int64.max / 10⁶ (about 292 000 years) do not fit in microseconds.
        guard parts.count == 1 || parts.count == 2, let seconds = Int64(parts[0]), seconds >= 0,
            seconds < Int64.max / 1_000_000
        else { return nil }
        guard parts.count == 2 else { return Timestamp(seconds: seconds, microseconds: 0) }
        let fraction = parts[1]
        guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        var micro = Int64(fraction) ?? 0
        if fraction.count < 6 {
            for _ in fraction.count..<6 { micro *= 10 }
        } else if fraction.count > 6 {
            for _ in 6..<fraction.count { micro /= 10 }
        }
        return Timestamp(seconds: seconds, microseconds: micro)
    }

    /// A well-formed `E: <sec>.<usec> <hex type> <hex code> <value>` line (an optional
    /// `# comment` after it), read from the UTF-8 bytes without allocating; `nil` for anything
    /// else, which the caller then parses slowly and reports precisely.
    static func evemuEvent(_ line: Substring) -> RawEvent? {
        let bytes = line.utf8
        var index = bytes.startIndex
        let end = bytes.endIndex
        func skipBlanks() {
            while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index = bytes.index(after: index) }
        }
        func digits(radix: Int64, limit: Int) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while index < end {
                let c = bytes[index]
                let digit: Int64
                if c >= 0x30 && c <= 0x39 {
                    digit = Int64(c - 0x30)
                } else if radix == 16 && c >= 0x61 && c <= 0x66 {
                    digit = Int64(c - 0x61 + 10)
                } else if radix == 16 && c >= 0x41 && c <= 0x46 {
                    digit = Int64(c - 0x41 + 10)
                } else {
                    break
                }
                value = value * radix + digit
                count += 1
                if count > limit { return nil }
                index = bytes.index(after: index)
            }
            return count == 0 ? nil : value
        }
        func isFieldEnd() -> Bool { index == end || bytes[index] == 0x20 || bytes[index] == 0x09 }
        guard bytes.count > 2, bytes[index] == 0x45 else { return nil }  // "E"
        index = bytes.index(after: index)
        guard bytes[index] == 0x3A else { return nil }  // ":"
        index = bytes.index(after: index)
        skipBlanks()
        guard let seconds = digits(radix: 10, limit: 12), index < end, bytes[index] == 0x2E else { return nil }
        index = bytes.index(after: index)
        let fractionStart = index
        guard let fraction = digits(radix: 10, limit: 6), bytes.distance(from: fractionStart, to: index) == 6,
            isFieldEnd()
        else { return nil }
        skipBlanks()
        guard let type = digits(radix: 16, limit: 4), isFieldEnd() else { return nil }
        skipBlanks()
        guard let code = digits(radix: 16, limit: 4), isFieldEnd() else { return nil }
        skipBlanks()
        var negative = false
        if index < end && bytes[index] == 0x2D {
            negative = true
            index = bytes.index(after: index)
        }
        guard let magnitude = digits(radix: 10, limit: 10), isFieldEnd() else { return nil }
        let value = negative ? -magnitude : magnitude
        guard let value32 = Int32(exactly: value) else { return nil }
        skipBlanks()
        guard index == end || bytes[index] == 0x23 else { return nil }  // only a comment may follow
        return RawEvent(
            time: Timestamp(seconds: seconds, microseconds: fraction),
            type: UInt16(type),
            code: UInt16(code),
            value: value32
        )
    }

    /// The line for an error message, shortened.
    static func quoted(_ text: Substring) -> String {
        let trimmed = trim(text)
        if trimmed.count > 60 { return "'\(trimmed.prefix(57))...'" }
        return "'\(trimmed)'"
    }
}

extension Character {
    var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}
