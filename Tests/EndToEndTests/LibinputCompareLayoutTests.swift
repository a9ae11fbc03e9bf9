import Foundation
import GesturedTestSupport
import Testing

/// `scripts/vm/libinput-compare/gestures.awk` and `gesturectl synthesize` on the six compared
/// touchpads, on the host: every finger of every generated gesture lands where a hand's
/// fingers land, inside the part of the pad that neither reader sets apart, and stays on the
/// pad. Checked on what is played (the evemu recording the synthesizer writes), with the
/// bands computed here from libinput's own rules, not from the generator's.
@Suite("libinput comparison: gestures.awk lays out a hand")
struct LibinputCompareLayoutTests {
    /// The six descriptions run.sh compares by default, and the seeds of six runs each.
    static let descriptions: [String] = [
        "xorg-integration-tests/SynPS2-Synaptics-TouchPad-T440.desc",
        "evemu-devices/Logitech Wireless Touchpad.desc",
        "evemu-devices/SynPS2 Synaptics TouchPad.lenovo-p50.desc",
        "evemu-devices/ETPS2 Elantech Touchpad-ASUS-N500JK.desc",
        "evemu-devices/ETPS2 Elantech Touchpad.Dell-Inspiron-7520.desc",
        "Devices/logitech-t650.desc",  // the kernel tier's own (Tests/EndToEndTests/Devices)
    ]

    struct Axis {
        var minimum: Int
        var maximum: Int
        var resolution: Int
    }

    /// The pad's position axes and input properties, from its description.
    static func pad(_ text: String) throws -> (x: Axis, y: Axis, properties: Int) {
        var axes: [String: Axis] = [:]
        var properties = 0
        for line in text.split(separator: "\n") {
            let w = line.split(separator: " ").map(String.init)
            if w.first == "A:", w.count >= 7, let lo = Int(w[2]), let hi = Int(w[3]), let res = Int(w[6]) {
                axes[w[1]] = Axis(minimum: lo, maximum: hi, resolution: res)
            }
            if w.first == "P:", w.count >= 2 { properties = Int(w[1], radix: 16) ?? 0 }
        }
        return (try #require(axes["35"]), try #require(axes["36"]), properties)
    }

    /// Each touch of the recording: the burst it belongs to (from 0: one a script line), where
    /// it landed and every position it had (device units).
    static func touches(_ evemu: String) -> [(burst: Int, landing: (Int, Int), positions: [(Int, Int)])] {
        var slot = 0
        var current: [Int: (x: Int, y: Int, index: Int?)] = [:]
        var began: Set<Int> = []
        var burst = -1
        var result: [(burst: Int, landing: (Int, Int), positions: [(Int, Int)])] = []
        for line in evemu.split(separator: "\n") where line.hasPrefix("E: ") {
            let w = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard w.count >= 5, let type = Int(w[2], radix: 16), let code = Int(w[3], radix: 16), let value = Int(w[4]) else {
                continue
            }
            switch (type, code) {
            case (3, 0x2f): slot = value
            case (3, 0x39):
                if value >= 0 {
                    current[slot] = (current[slot]?.x ?? -1, current[slot]?.y ?? -1, nil)
                    began.insert(slot)
                } else {
                    current[slot]?.index = nil
                    current[slot] = nil
                }
            case (3, 0x35): current[slot]?.x = value
            case (3, 0x36): current[slot]?.y = value
            case (0, 0):
                if !began.isEmpty && current.count == began.count { burst += 1 }
                for s in began.sorted() {
                    guard let c = current[s] else { continue }
                    result.append((burst: burst, landing: (c.x, c.y), positions: []))
                    current[s]?.index = result.count - 1
                }
                began = []
                for (_, c) in current { if let i = c.index { result[i].positions.append((c.x, c.y)) } }
            default: break
            }
        }
        return result
    }

    @Test(
        "every finger lands in the pad's usable middle (above the clickpad button area and the thumb band, off the top buttons and the palm edges) and never leaves the pad",
        .enabled(if: SharedCorpus.isPresent, SharedCorpus.absentReason),
        arguments: LibinputCompareLayoutTests.descriptions)
    func handLayout(_ description: String) throws {
        let corpus = try #require(SharedCorpus.directory)
        let descPath =
            description.hasPrefix("Devices/")
            ? KernelTier.packageRoot.appending(path: "Tests/EndToEndTests/\(description)").path
            : corpus.appending(path: "devices/\(description)").path
        let (x, y, properties) = try Self.pad(try String(contentsOfFile: descPath, encoding: .utf8))
        // Millimetres as both the synthesizer and the generator read them (a pad without a
        // resolution is libinput's fallback 69 × 50 mm).
        let ux = x.resolution > 0 ? Double(x.resolution) : Double(x.maximum - x.minimum) / 69
        let uy = y.resolution > 0 ? Double(y.resolution) : Double(y.maximum - y.minimum) / 50
        let width = Double(x.maximum - x.minimum) / ux
        let height = Double(y.maximum - y.minimum) / uy
        // libinput: tp_init_softbuttons (INPUT_PROP_BUTTONPAD, min(10 mm, 15 %) at the bottom),
        // tp_init_top_softbuttons (INPUT_PROP_TOPBUTTONPAD, the top 10 mm),
        // tp_init_palmdetect_edge (min(8 mm, 8 %) at the sides of pads 70 mm wide or more, the
        // top 5 % of pads taller than 55 mm without top buttons); gestured: ThumbBand (15 %).
        let clickpad = properties & 0x04 != 0
        let topButtons = properties & 0x10 != 0
        let buttonArea = clickpad ? min(10, 0.15 * height) : 0
        let bottom = height - max(buttonArea, 0.15 * height)
        let top = topButtons ? 10 : (height > 55 ? 0.05 * height : 0)
        let side = width >= 70 ? min(8, 0.08 * width) : 0
        let quad = try String(contentsOfFile: descPath, encoding: .utf8).contains("BTN_TOOL_QUADTAP") ? 4 : 3
        let gesturectl = KernelTier.gesturedExecutable.deletingLastPathComponent().appending(path: "gesturectl")
        #expect(FileManager.default.isExecutableFile(atPath: gesturectl.path), "swift build first: no \(gesturectl.path)")
        let directory = FileManager.default.temporaryDirectory.appending(path: "layout-awk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var checked = 0
        var failures: [String] = []
        for seed in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] {
            let lines = try Self.run(
                URL(filePath: "/usr/bin/awk"),
                ["-v", "count=100", "-v", "seed=\(seed)", "-v", "maxFingers=\(quad)", "-v", "desc=\(descPath)", "-f",
                 KernelTier.packageRoot.appending(path: "scripts/vm/libinput-compare/gestures.awk").path])
                .split(separator: "\n").map(String.init)
            #expect(lines.count == 100)
            let file = directory.appending(path: "gestures")
            try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            let touches = Self.touches(try Self.run(gesturectl, ["synthesize", file.path, "--device", descPath]))
            #expect(touches.last?.burst == lines.count - 1, "one burst a line")
            for touch in touches {
                checked += 1
                let line = touch.burst >= 0 && touch.burst < lines.count ? lines[touch.burst] : "?"
                let lx = Double(touch.landing.0 - x.minimum) / ux
                let ly = Double(touch.landing.1 - y.minimum) / uy
                if !(ly < bottom && ly > top && lx > side && lx < width - side) {
                    failures.append(
                        String(format: "seed %d line %d: a finger lands at %.1f, %.1f mm, outside %.1f…%.1f × %.1f…%.1f mm: ",
                               seed, touch.burst + 1, lx, ly, side, width - side, top, bottom) + line)
                }
                if let off = touch.positions.first(where: {
                    $0.0 <= x.minimum || $0.0 >= x.maximum || $0.1 <= y.minimum || $0.1 >= y.maximum
                }) {
                    failures.append("seed \(seed) line \(touch.burst + 1): a finger reaches the pad's edge (\(off.0), \(off.1)): \(line)")
                }
            }
        }
        #expect(checked > 2000)
        #expect(failures.isEmpty, "\(failures.count) fingers, e.g.\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    static func run(_ executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable.lastPathComponent) \(arguments.joined(separator: " "))")
        return String(decoding: data, as: UTF8.self)
    }
}
