import Testing

@testable import GestureEngine

/// Inputs the recording fuzzer (Fuzz/Targets/recording.swift, docs/hostile-input.md) found
/// or that sit at the same edges: each once crashed, or parsed into a description the
/// writer could not give back.
@Suite("Recordings at the edges of the formats")
struct HostileRecordingTests {
    @Test("an axis code past ABS_MAX is an error, not an axis the writer truncates (fuzz finding)")
    func axisCodePastAbsMax() throws {
        let text = "N: Pad\nA: 35 0 100 0 0 10\nA: 508 3 232 0 0 23\n"
        let error = try #require(throws: RecordingError.self) { try RecordingParser.parseDescription(text, fileName: "x.desc") }
        #expect(error.line == 3)
        #expect(error.found == "'A: 508 3 232 0 0 23'")
    }

    @Test(
        "a time whose seconds do not fit in microseconds is an error naming its line (fuzz finding)",
        arguments: [
            "N: Pad\nA: 35 0 100 0 0 10\nE: 9223372036854775.000000 0000 0000 0\n",
            "Input device name: \"Pad\"\nTesting ... (interrupt to exit)\nEvent: time 1.000000, -------------- SYN_REPORT ------------\nEvent: time 92233720368547.000000, -------------- SYN_REPORT ------------\n",
        ])
    func timeSecondsOverflow(text: String) throws {
        // Before: Timestamp(seconds:microseconds:) trapped multiplying by 10⁶.
        let outcome = Result { () throws(RecordingError) -> Recording in try RecordingParser.parse(text, fileName: "x") }
        switch outcome {
        case .success(let recording):
            // a parser that skips the line keeps only what fits
            #expect(recording.events.allSatisfy { $0.time.microseconds < 2_000_000 })
        case .failure(let error):
            #expect(error.line == 3 || error.line == 4, "\(error)")
        }
        // the largest time that fits still parses
        let largest = "N: Pad\nA: 35 0 100 0 0 10\nE: 9223372036853.999999 0000 0000 0\n"
        let recording = try RecordingParser.parse(largest, fileName: "y")
        #expect(recording.events.first?.time.microseconds == 9_223_372_036_853_999_999)
    }

    @Test(
        "a recording with CRLF line ends parses as with LF ends (evemu, evtest)",
        arguments: [
            "N: Pad\nI: 0018 06cb 7e7e 0100\nP: 05 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\nB: 03 00 00 00 00 00 80 60 02\n"
                + "A: 2f 0 4 0 0 0\nA: 35 0 100 0 0 10\nA: 36 0 50 0 0 10\nA: 39 0 65535 0 0 0\n"
                + "E: 0.000001 0003 002f 0000\nE: 0.000001 0003 0039 0007\nE: 0.000001 0003 0035 0040\nE: 0.000001 0000 0000 0000\n"
                + "E: 0.010000 0003 0039 -001\nE: 0.010000 0000 0000 0000\n",
            "Input driver version is 1.0.1\nInput device ID: bus 0x18 vendor 0x6cb product 0x7e7e version 0x100\nInput device name: \"Pad\"\n"
                + "Supported events:\n  Event type 3 (EV_ABS)\n    Event code 53 (ABS_MT_POSITION_X)\n      Value      0\n      Min        0\n"
                + "      Max      100\n      Resolution      10\nTesting ... (interrupt to exit)\n"
                + "Event: time 1.000001, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 40\n"
                + "Event: time 1.000001, -------------- SYN_REPORT ------------\n",
        ])
    func crlfLineEnds(text: String) throws {
        let lf = try RecordingParser.parse(text, fileName: "lf")
        let crlf = try RecordingParser.parse(text.replacing("\n", with: "\r\n"), fileName: "crlf")
        // Before: "\r\n" is one Character, so splitting on "\n" kept the file as one line.
        #expect(!lf.events.isEmpty)
        #expect(crlf.format == lf.format)
        #expect(crlf.events == lf.events)
        #expect(crlf.device?.axes == lf.device?.axes)
        #expect(crlf.warnings.map(\.message) == lf.warnings.map(\.message))
    }

    @Test("every description the parser accepts is written back with the same axes")
    func writtenDescriptionsReadBack() throws {
        let text = "N: Pad\nI: 0003 04f3 0001 0000\nP: 02 00 00 00 00 00 00 00\nA: 00 0 2832 0 0 23\nA: 3f -5 5 0 0 0\n"
        let device = try RecordingParser.parseDescription(text, fileName: "x.desc")
        let again = try RecordingParser.parseDescription(EvemuWriter.description(device), fileName: "written.desc")
        #expect(again.axes == device.axes)
        #expect(again.properties == device.properties)
    }

    @Test("a libinput-record absinfo code past ABS_MAX is an error naming its line")
    func libinputAbsinfoPastAbsMax() throws {
        let text = """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event5
              evdev:
                name: "Pad"
                codes:
                  3: [0, 1]
                absinfo:
                  0: [0, 100, 0, 0, 10]
                  300: [0, 100, 0, 0, 10]
                events:
                - evdev:
                  - [  0,      0,   0,   0,       0]

            """
        let error = try #require(throws: RecordingError.self) { try RecordingParser.parse(text, fileName: "r.yml") }
        #expect(error.line == 11)
    }

    @Test("capability bits past KEY_MAX and types past EV_MAX are ignored, not a trap")
    func capabilityBitsPastTheMaximum() throws {
        let bytes = Array(repeating: "ff", count: 9000).joined(separator: " ")
        let text = "N: Pad\nB: 00 0b 00 00 00 00 00 00 00\nB: 01 \(bytes)\nB: 7f01 ff\nA: 35 0 100 0 0 10\n"
        let device = try RecordingParser.parseDescription(text, fileName: "x.desc")
        #expect(device.codes.allSatisfy { $0.code <= EventUsage.codeMaximum && $0.type <= EventUsage.typeMaximum })
        #expect(device.codes.contains(.btnTouch))
    }

    @Test("a header-less recording whose only value is Int32.max infers a range, not an overflow")
    func inferredRangeAtInt32Maximum() throws {
        let text = "E: 0.000000 0003 0035 2147483647\nE: 0.000000 0003 0400 5\nE: 0.000000 0000 0000 0\n"
        let recording = try RecordingParser.parse(text, fileName: "bare.evemu")
        let axis = try #require(recording.device?.axis(.absMTPositionX))
        #expect(axis.minimum < axis.maximum)
        #expect(axis.maximum == .max)
        #expect(recording.device?.axes[0x400] == nil)
    }
}
