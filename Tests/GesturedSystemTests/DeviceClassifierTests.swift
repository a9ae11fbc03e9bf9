import CLinuxInput
import Foundation
import GestureEngine
import Testing

@testable import GesturedSystem

/// The device descriptions of the third-party corpus (`shared/corpus/devices`), found through
/// `GESTURED_CORPUS_DIR` or by walking up from this file.
enum DeviceCorpus {
    static let directory: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["GESTURED_CORPUS_DIR"], !path.isEmpty {
            let url = URL(fileURLWithPath: path).appendingPathComponent("devices")
            return fileManager.fileExists(atPath: url.path) ? url : nil
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/corpus/devices")
            if fileManager.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    static var isPresent: Bool { directory != nil }

    static func description(_ relativePath: String) throws -> DeviceDescription {
        let url = try #require(directory).appendingPathComponent(relativePath)
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        return try RecordingParser.parseDescription(text, fileName: relativePath)
    }

    /// Every evemu description in the corpus (not the derived JSON summary).
    static var allDescriptionPaths: [String] {
        guard let root = directory,
            let enumerator = FileManager.default.enumerator(atPath: root.path)
        else { return [] }
        var result: [String] = []
        for case let path as String in enumerator {
            let ext = (path as NSString).pathExtension
            if ["desc", "prop", "touchpad", "device", "events"].contains(ext) { result.append(path) }
        }
        return result.sorted()
    }
}

/// Builds an in-memory libevdev device (no file descriptor, libevdev's own testing trick) from
/// a description, reads it back the way `EvdevDevice` reads a live device, and classifies that.
func classifyThroughLibevdev(_ description: DeviceDescription) -> (
    DeviceDescription, Result<DeviceClassification, NotATouchDevice>
) {
    let handle = Libevdev.makeLibevdev(from: description)
    defer { libevdev_free(handle) }
    let readBack = Libevdev.describe(handle)
    return (readBack, DeviceClassifier.classify(readBack))
}

@Suite("Device classification")
struct DeviceClassifierTests {
    @Test(
        "real device descriptions classify as the device they are",
        .enabled(if: DeviceCorpus.isPresent, "the corpus (shared/corpus or GESTURED_CORPUS_DIR) is absent"),
        arguments: [
            ("evemu-devices/Atmel maXTouch Touchscreen.desc", "touchscreen", MultitouchProtocol.slots, 10),
            ("evemu-devices/ELAN Touchscreen.desc", "touchscreen", .slots, 10),
            ("evemu-devices/ELAN CANDO Windows7.desc", "touchscreen", .slots, 10),
            ("evemu-devices/EP0430M09.desc", "touchscreen", .slots, 5),
            ("evemu-devices/Wacom ISDv4 E6 Finger.desc", "touchscreen", .slots, 2),
            ("evemu-devices/N-Trig MultiTouch.desc", "touchscreen", .anonymousContacts, 1),
            ("evemu-devices/SynPS2 Synaptics TouchPad.desc", "clickpad", .slots, 2),
            ("evemu-devices/SynPS2 Synaptics TouchPad-fdo23890.desc", "touchpad", .singleTouch, 1),
            ("evemu-devices/Logitech Rechargeable Touchpad T650.desc", "clickpad", .slots, 10),
            ("evemu-devices/Logitech Wireless Touchpad.desc", "touchpad", .slots, 4),
            ("evemu-devices/Wacom Intuos5 touch M Finger.desc", "touchpad", .slots, 16),
            ("xorg-integration-tests/SynPS2-Synaptics-TouchPad-Clickpad.desc", "clickpad", .slots, 2),
            // Only A: lines in link.touchpad (no properties): the "-manual" file has the header.
            ("chromiumos-autotest/link-fw_1.0.AA-manual.touchpad", "clickpad", .slots, 10),
        ]
    )
    func realDevices(path: String, label: String, multitouch: MultitouchProtocol, slots: Int) throws {
        let description = try DeviceCorpus.description(path)
        let (readBack, result) = classifyThroughLibevdev(description)
        let classification = try result.get()
        #expect(classification.label == label)
        #expect(classification.multitouch == multitouch)
        #expect(classification.slotCount == slots)
        #expect(readBack.axes == description.axes)
        #expect(readBack.properties == description.properties)
    }

    @Test(
        "every corpus description survives libevdev and gets a classification or a reason",
        .enabled(if: DeviceCorpus.isPresent, "the corpus (shared/corpus or GESTURED_CORPUS_DIR) is absent")
    )
    func everyCorpusDescription() throws {
        let paths = DeviceCorpus.allDescriptionPaths
        #expect(paths.count >= 50)
        var labels: [String: Int] = [:]
        var refused: [String] = []
        for path in paths {
            let description = try DeviceCorpus.description(path)
            let (readBack, result) = classifyThroughLibevdev(description)
            #expect(readBack.name == description.name, "\(path)")
            #expect(readBack.axes == description.axes, "\(path)")
            switch result {
            case .success(let classification):
                labels[classification.label, default: 0] += 1
            case .failure(let reason):
                #expect(!reason.reasons.isEmpty)
                refused.append("\(path): \(reason)")
            }
        }
        print("corpus devices through libevdev: \(labels.sorted { $0.key < $1.key }), refused \(refused.count):")
        for line in refused { print("  \(line)") }
        // The one description without any axis is refused.
        #expect(refused.contains { $0.hasPrefix("evemu/ntrig-lenovo-T410s.prop") })
    }

    @Test("a keyboard is refused with every missing capability named")
    func keyboardRefused() throws {
        let keyboard = DeviceDescription(
            name: "AT Translated Set 2 keyboard",
            codes: [.synReport, EventUsage(type: EventUsage.evKey, code: 30)]
        )
        let (_, result) = classifyThroughLibevdev(keyboard)
        guard case .failure(let reason) = result else {
            Issue.record("a keyboard was classified as a touch device")
            return
        }
        #expect(
            reason.reasons == [
                "has no ABS_MT_POSITION_X/ABS_X axis",
                "has no ABS_MT_POSITION_Y/ABS_Y axis",
                "has no ABS_MT_SLOT, BTN_TOUCH or BTN_TOOL_FINGER to report a touch",
            ]
        )
        #expect(
            reason.description.hasPrefix(
                "'AT Translated Set 2 keyboard' is not a touch device: has no ABS_MT_POSITION_X/ABS_X axis"
            )
        )
    }

    @Test("a pen tablet and an accelerometer are refused for what they are")
    func penAndAccelerometer() throws {
        let axes: [UInt16: AxisInfo] = [
            EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 20000),
            EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 12000),
        ]
        let pen = DeviceDescription(name: "Wacom Pen", codes: [.btnToolPen, .btnTouch, .absX, .absY], axes: axes)
        let (_, penResult) = classifyThroughLibevdev(pen)
        #expect(
            throws: NotATouchDevice(
                name: "Wacom Pen",
                reasons: ["is a pen tablet (BTN_TOOL_PEN without BTN_TOOL_FINGER)"]
            )
        ) {
            try penResult.get()
        }
        let accelerometer = DeviceDescription(
            name: "Accel",
            properties: [.accelerometer],
            codes: [.absX, .absY],
            axes: axes
        )
        let (_, accelResult) = classifyThroughLibevdev(accelerometer)
        let reason = try #require(throws: NotATouchDevice.self) { try accelResult.get() }
        #expect(reason.reasons.contains("is an accelerometer (INPUT_PROP_ACCELEROMETER)"))
    }

    @Test("an axis with an empty range is refused")
    func emptyRange() throws {
        let broken = DeviceDescription(
            name: "Broken",
            properties: [.direct],
            codes: [.btnTouch],
            axes: [
                EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 9),
                EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 0),
                EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 100),
            ]
        )
        let (_, result) = classifyThroughLibevdev(broken)
        let reason = try #require(throws: NotATouchDevice.self) { try result.get() }
        #expect(reason.reasons == ["its X axis has an empty range (0…0)"])
    }

    @Test("the demo devices classify as a touchscreen and a clickpad with resolution")
    func demoDevices() throws {
        let (_, screen) = classifyThroughLibevdev(GestureSynthesizer.demoTouchscreen)
        #expect(try screen.get().description == "touchscreen, 10 slots")
        let (_, pad) = classifyThroughLibevdev(GestureSynthesizer.demoClickpad)
        #expect(try pad.get().description == "clickpad, 5 slots")
    }
}
