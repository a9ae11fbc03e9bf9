import Foundation
import GesturedTestSupport
import Testing

@testable import GestureEngine

@Suite("Evemu writer")
struct EvemuWriterTests {
    @Test("a description with properties, high key codes and odd axes round-trips through the parser")
    func descriptionRoundTrip() throws {
        let device = DeviceDescription(
            name: "Odd # Device",
            bustype: 0x11,
            vendor: 0xabcd,
            product: 0x1,
            version: 0xffff,
            properties: [.pointer, .semiMT, .topButtonpad],
            codes: [
                .synReport, .synConfig, .synDropped, .btnLeft, .btnToolQuintTap, .mscTimestamp,
                EventUsage(type: EventUsage.evKey, code: 0x2ff), EventUsage(type: EventUsage.evRel, code: 0),
            ],
            axes: [
                EventUsage.absX.code: AxisInfo(minimum: -100, maximum: 100, fuzz: 2, flat: 1, resolution: 7),
                EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 3),
                EventUsage.absMTDistance.code: AxisInfo(minimum: 0, maximum: 1),
            ]
        )
        let text = EvemuWriter.description(device)
        let parsed = try RecordingParser.parseDescription(text, fileName: "odd.desc")
        var expected = device
        for code in device.axes.keys { expected.codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        #expect(parsed == expected)
    }

    @Test("every ABS_MT axis the kernel defines is named in the comment, the tool position included")
    func multitouchAxesNamed() {
        let t = Timestamp(seconds: 1, microseconds: 0)
        let text = EvemuWriter.events([
            RawEvent(time: t, usage: .absMTToolX, value: 5), RawEvent(time: t, usage: .absMTToolY, value: 6),
            RawEvent(time: t, usage: .absMTDistance, value: 1),
        ])
        #expect(text.contains("# EV_ABS / ABS_MT_TOOL_X 5\n") && text.contains("# EV_ABS / ABS_MT_TOOL_Y 6\n"), "\(text)")
        #expect(!text.contains("EV_ABS:"), "\(text)")
    }

    @Test("events round-trip, negative values and large timestamps included")
    func eventsRoundTrip() throws {
        let events = [
            RawEvent(
                time: Timestamp(seconds: 1_335_786_868, microseconds: 337_160),
                usage: .absMTTrackingID,
                value: -1
            ),
            RawEvent(time: Timestamp(seconds: 1_335_786_868, microseconds: 337_160), usage: .absX, value: -123_456),
            RawEvent(time: Timestamp(seconds: 1_335_786_868, microseconds: 337_161), usage: .synReport, value: 0),
        ]
        let text = EvemuWriter.events(events)
        #expect(text.hasPrefix("E: 1335786868.337160 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID -1\n"))
        let recording = try RecordingParser.parse(text, fileName: "e.evemu", description: TestDevices.touchscreen)
        #expect(recording.events == events)
    }

    @Test(
        "every corpus description is written back and re-read unchanged",
        .enabled(if: Corpus.isPresent, "the corpus (shared/corpus or GESTURED_CORPUS_DIR) is absent")
    )
    func corpusDescriptionsRoundTrip() throws {
        let files = Corpus.files(under: "devices").filter { $0.pathExtension != "json" }
        for url in files {
            let name = Corpus.relative(url)
            let original = try RecordingParser.parseDescription(try Corpus.text(of: url), fileName: name)
            let again = try RecordingParser.parseDescription(EvemuWriter.description(original), fileName: name)
            // evemu files may list EV_SYN codes the writer does not (they come from the type bit).
            #expect(again.axes == original.axes, "\(name)")
            #expect(again.properties == original.properties, "\(name)")
            #expect(again.name == original.name, "\(name)")
            #expect(
                again.codes.filter { $0.type != EventUsage.evSyn }
                    == original.codes.filter { $0.type != EventUsage.evSyn },
                "\(name)"
            )
        }
    }
}
