import Testing

@testable import GestureEngine

@Suite("Recording parser")
struct RecordingParserTests {
    static let evemuWithHeader = """
        # EVEMU 1.3
        # Input device name: "Test Pad"
        N: Test Pad
        I: 0003 04f3 010c 0110
        P: 05 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 20 64 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1000 0 0 10
        A: 01 0 600 0 0 10
        A: 2f 0 1 0 0 0
        A: 35 0 1000 0 0 10
        A: 36 0 600 0 0 10
        A: 39 0 65535 0 0
        E: 0.000000 0003 0039 0012\t# EV_ABS / ABS_MT_TRACKING_ID 12
        E: 0.000000 0003 0035 0100
        E: 0.000000 0003 0036 0200
        E: 0.000000 0001 014a 0001
        E: 0.000000 0000 0000 0000
        E: 0.010000 0003 0039 -001
        E: 0.010000 0001 014a 0000
        E: 0.010000 0000 0000 0000

        """

    @Test("an evemu file with a header gives the device and every event")
    func evemuHeader() throws {
        let recording = try RecordingParser.parse(Self.evemuWithHeader, fileName: "pad.evemu")
        #expect(recording.format == .evemu)
        #expect(recording.warnings.isEmpty)
        let device = try #require(recording.device)
        #expect(device.name == "Test Pad")
        #expect((device.bustype, device.vendor, device.product, device.version) == (0x3, 0x4f3, 0x10c, 0x110))
        #expect(device.properties == [.pointer, .buttonpad])
        #expect(device.codes.contains(.btnTouch))
        #expect(device.codes.contains(.btnToolFinger))
        #expect(device.codes.contains(.btnToolDoubleTap))
        #expect(device.codes.contains(.btnToolTripleTap))
        #expect(device.codes.contains(.btnLeft) == false)
        #expect(device.axis(.absMTPositionX) == AxisInfo(minimum: 0, maximum: 1000, resolution: 10))
        #expect(device.axis(.absMTTrackingID) == AxisInfo(minimum: 0, maximum: 65535))
        #expect(device.slotCount == 2)
        #expect(recording.events.count == 8)
        #expect(recording.events[0] == RawEvent(time: .zero, usage: .absMTTrackingID, value: 12))
        #expect(
            recording.events[5] == RawEvent(time: Timestamp(microseconds: 10_000), usage: .absMTTrackingID, value: -1)
        )
    }

    @Test("a malformed E: line is an error naming file, line, the expected form and what was found")
    func malformedEventLine() {
        let text = "E: 0.000000 0003 0039 12\nE: 1.0 3\nE: 0.000000 0000 0000 0\n"
        #expect(
            throws: RecordingError(
                file: "bug.evemu",
                line: 2,
                expected: "'E: <sec>.<usec> <type> <code> <value>'",
                found: "'E: 1.0 3'"
            )
        ) {
            try RecordingParser.parse(text, fileName: "bug.evemu")
        }
        let error = RecordingError(
            file: "bug.evemu",
            line: 2,
            expected: "'E: <sec>.<usec> <type> <code> <value>'",
            found: "'E: 1.0 3'"
        )
        #expect(error.description == "bug.evemu:2: expected 'E: <sec>.<usec> <type> <code> <value>', found 'E: 1.0 3'")
    }

    @Test(
        "malformed header lines name their line and form",
        arguments: [
            ("A: 35 0 x 0 0 10", "'A: <code 00…3f> <min> <max> <fuzz> <flat> [<resolution>]'"),
            ("A: 508 3 232 0 0 23", "'A: <code 00…3f> <min> <max> <fuzz> <flat> [<resolution>]'"),
            ("I: 0003 zz 0001 0000", "'I: <bus> <vendor> <product> <version>' (hex)"),
            ("B: 01 00 1000", "'B: <type> <hex byte>...'"),
            ("P: 0g", "'P: <hex byte>...'"),
            ("hello", "an evemu line ('N:', 'I:', 'P:', 'B:', 'A:', 'E:' or '# comment')"),
        ]
    )
    func malformedHeader(line: String, expected: String) throws {
        let text = "N: Pad\n\(line)\nE: 0.000000 0000 0000 0\n"
        let error = try #require(throws: RecordingError.self) { try RecordingParser.parse(text, fileName: "x.desc") }
        #expect(error.line == 2)
        #expect(error.expected == expected)
        #expect(error.description.hasPrefix("x.desc:2: expected "))
    }

    @Test("a file cut mid-line keeps what was parsed and warns about the last line and the open frame")
    func truncatedFile() throws {
        let text =
            "E: 0.000000 0003 0039 12\nE: 0.000000 0003 0035 100\nE: 0.000000 0000 0000 0\nE: 0.010000 0003 0035 110\nE: 0.0100"
        let recording = try RecordingParser.parse(text, fileName: "cut.evemu", description: TestDevices.touchscreen)
        #expect(recording.events.count == 4)
        #expect(recording.device == TestDevices.touchscreen)
        let messages = recording.warnings.map(\.description)
        #expect(
            messages == [
                "cut.evemu:5: truncated: the last line is incomplete ('E: 0.0100'), ignoring it",
                "cut.evemu: truncated: the last frame has no SYN_REPORT (1 events kept)",
            ]
        )
    }

    @Test("bare E: lines without a description get axis ranges inferred from the data, with a warning")
    func inferredDescription() throws {
        let text = """
            E: 1.000000 0003 0039 5
            E: 1.000000 0003 0035 300
            E: 1.000000 0003 0036 40
            E: 1.000000 0000 0000 0
            E: 1.010000 0003 0035 900
            E: 1.010000 0003 0036 20
            E: 1.010000 0000 0000 0

            """
        let recording = try RecordingParser.parse(text, fileName: "bare.dat")
        let device = try #require(recording.device)
        #expect(device.axis(.absMTPositionX) == AxisInfo(minimum: 300, maximum: 900))
        #expect(device.axis(.absMTPositionY) == AxisInfo(minimum: 20, maximum: 40))
        #expect(device.isMultitouchB)
        #expect(device.slotCount == 1)
        #expect(recording.warnings.count == 1)
        #expect(recording.warnings[0].description.contains("ABS_MT_POSITION_X 300…900"))
        #expect(recording.warnings[0].description.contains("resolution unknown"))
    }

    @Test("a separate .desc supplies the device for bare E: lines")
    func separateDescription() throws {
        let description = try RecordingParser.parseDescription(Self.evemuWithHeader, fileName: "pad.desc")
        let recording = try RecordingParser.parse(
            "E: 1.000000 0000 0000 0\n",
            fileName: "bare.dat",
            description: description
        )
        #expect(recording.device == description)
        #expect(recording.warnings.isEmpty)
    }

    @Test("a description of only A: lines is accepted")
    func absOnlyDescription() throws {
        let description = try RecordingParser.parseDescription(
            "A: 00 0 1280 0 0 12\nA: 01 0 680 0 0 10\n",
            fileName: "lumpy.touchpad"
        )
        #expect(description.axis(.absX)?.resolution == 12)
        #expect(description.supports(.absY))
    }

    @Test("an evtest log gives its header's device and its events, glued header lines included")
    func evtest() throws {
        let text = """
            Input driver version is 1.0.1
            Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x1
            Input device name: "Cypress APA Trackpad (cyapa)"
            Supported events:
              Event type 0 (EV_SYN)
              Event type 1 (EV_KEY)
                Event code 272 (BTN_LEFT)
                Event code 330 (BTN_TOUCH)
              Event type 3 (EV_ABS)
                Event code 47 (ABS_MT_SLOT)
                  Value      0
                  Min        0
                  Max       14
                Event code 53 (ABS_MT_POSITION_X)
                  Value      0
                  Min        0
                  Max     1280
                  Resolution      12 Event code 54 (ABS_MT_POSITION_Y)
                  Value      0
                  Min        0
                  Max      680
                  Resolution      10
            Properties:
              Property type 0 (INPUT_PROP_POINTER)
              Property type 2 (INPUT_PROP_BUTTONPAD)
            Testing ... (interrupt to exit)
            Event: time 5373390.081542, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 284
            Event: time 5373390.081546, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 535
            Event: time 5373390.081574, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1
            Event: time 5373390.081582, -------------- SYN_REPORT ------------
            Event: time 5373390.090000, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<
            Event: time 5373390.091000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1
            Event: time 5373390.091001, -------------- SYN_REPORT ------------

            """
        let recording = try RecordingParser.parse(text, fileName: "1f_click.dat")
        #expect(recording.format == .evtest)
        let device = try #require(recording.device)
        #expect(device.name == "Cypress APA Trackpad (cyapa)")
        #expect(device.bustype == 0x18)
        #expect(device.version == 1)
        #expect(device.properties == [.pointer, .buttonpad])
        #expect(device.axis(.absMTPositionX) == AxisInfo(minimum: 0, maximum: 1280, resolution: 12))
        #expect(device.axis(.absMTPositionY) == AxisInfo(minimum: 0, maximum: 680, resolution: 10))
        #expect(device.slotCount == 15)
        #expect(device.codes.contains(.btnLeft))
        #expect(
            recording.events.map(\.usage) == [
                .absMTTrackingID, .absMTPositionX, .btnTouch, .synReport, .synDropped, .absMTTrackingID, .synReport,
            ]
        )
        #expect(recording.events[0].time == Timestamp(seconds: 5_373_390, microseconds: 81_542))
        #expect(recording.events[5].value == -1)
    }

    @Test("a malformed evtest event line is an error with its line number")
    func evtestMalformed() throws {
        let text =
            "Event: time 1.000000, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 5\nEvent: time 1.0, type 3\nEvent: time 1.000001, -------------- SYN_REPORT ------------\n"
        let error = try #require(throws: RecordingError.self) { try RecordingParser.parse(text, fileName: "e.dat") }
        #expect(error.line == 2)
        #expect(error.found == "'Event: time 1.0, type 3'")
    }

    static let libinputRecord = """
        version: 1
        ndevices: 1
        libinput:
          version: "1.22.0"
        system:
          kernel: "6.1.0"
        devices:
        - node: /dev/input/event5
          evdev:
            # Name: SynPS/2 Synaptics TouchPad
            name: "SynPS/2 Synaptics # TouchPad"
            id: [17, 2, 7, 433]
            codes:
              0: [0, 1, 2, 3] # EV_SYN
              1: [272, 325, 330, 333] # EV_KEY
              3: [0, 1, 47, 53, 54, 57] # EV_ABS
            absinfo:
              0: [1266, 5676, 0, 0, 45]
              1: [1100, 4754, 0, 0, 68]
              47: [0, 1, 0, 0, 0]
              53: [1266, 5676, 0, 0, 45]
              54: [1100, 4754, 0, 0, 68]
              57: [0, 65535, 0, 0, 0]
            properties: [0, 2]
          hid: [1, 2, 3]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHPAD=1
          quirks:
          - ModelSynapticsSerialTouchpad=1
          events:
          # Current time is 12:43:08
          - evdev:
            - [  0,      0,   3,  57,    1403] # EV_ABS / ABS_MT_TRACKING_ID     1403
            - [  0,      0,   3,  53,    3000] # EV_ABS / ABS_MT_POSITION_X      3000
            - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
          - libinput:
              type: "POINTER_MOTION"
              time: 0.012
          - evdev:
            - [  0,  12000,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID     -1
            - [  0,  12000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms

        """

    @Test("a libinput record YAML file gives its first device and the evdev events")
    func libinputRecord() throws {
        let recording = try RecordingParser.parse(Self.libinputRecord, fileName: "touchpad.yml")
        #expect(recording.format == .libinputRecord)
        #expect(recording.warnings.isEmpty)
        let device = try #require(recording.device)
        #expect(device.name == "SynPS/2 Synaptics # TouchPad")
        #expect((device.bustype, device.vendor, device.product, device.version) == (17, 2, 7, 433))
        #expect(device.properties == [.pointer, .buttonpad])
        #expect(device.axis(.absMTPositionY) == AxisInfo(minimum: 1100, maximum: 4754, resolution: 68))
        #expect(device.codes.contains(.btnToolDoubleTap))
        #expect(device.slotCount == 2)
        #expect(
            recording.events == [
                RawEvent(time: .zero, usage: .absMTTrackingID, value: 1403),
                RawEvent(time: .zero, usage: .absMTPositionX, value: 3000),
                RawEvent(time: .zero, usage: .synReport, value: 0),
                RawEvent(time: Timestamp(microseconds: 12_000), usage: .absMTTrackingID, value: -1),
                RawEvent(time: Timestamp(microseconds: 12_000), usage: .synReport, value: 0),
            ]
        )
    }

    @Test("a libinput record file of another version or with a bad event is refused with its line")
    func libinputRecordErrors() throws {
        let wrongVersion = Self.libinputRecord.replacingFirst("version: 1", with: "version: 2")
        let versionError = try #require(throws: RecordingError.self) {
            try RecordingParser.parse(wrongVersion, fileName: "r.yml")
        }
        #expect(versionError.line == 1)
        let badEvent = Self.libinputRecord.replacingFirst("[  0,  12000,   3,  57,      -1]", with: "[0, 12000, 3]")
        let eventError = try #require(throws: RecordingError.self) {
            try RecordingParser.parse(badEvent, fileName: "r.yml")
        }
        #expect(eventError.line == 42)
        #expect(eventError.expected == "'- [<sec>, <usec>, <type>, <code>, <value>]'")
    }

    @Test("JSON activity logs and unrecognisable text are refused with a reason")
    func unsupportedFormats() throws {
        let json = try #require(throws: RecordingError.self) {
            try RecordingParser.parse("{\n \"entries\": []\n}\n", fileName: "log.dat")
        }
        #expect(json.description.contains("JSON"))
        let prose = try #require(throws: RecordingError.self) {
            try RecordingParser.parse("hello world\n", fileName: "notes.txt")
        }
        #expect(prose.line == nil)
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced (tests only; no Foundation).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
