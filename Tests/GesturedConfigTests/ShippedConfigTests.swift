import FoundationEssentials
import GestureEngine
import Testing

@testable import GesturedConfig

/// The repository's `config/` directory, found from this file's path.
func repositoryFile(_ relative: String, filePath: String = #filePath) throws -> String {
    // Tests/GesturedConfigTests/<file>.swift → package root is two levels above the folder.
    var components = filePath.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)
    let path = components.joined(separator: "/") + "/" + relative
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return String(decoding: data, as: UTF8.self)
}

@Suite("Shipped configuration")
struct ShippedConfigTests {
    @Test("config/gestured.conf parses with no errors and no warnings")
    func parsesCleanly() throws {
        let text = try repositoryFile("config/gestured.conf")
        let result = Configuration.parse(text, fileName: "gestured.conf")
        #expect(result.diagnostics.map(\.rendered) == [])
        #expect(result.configuration.gestures.count >= 20)
    }

    @Test("the default set covers what the README promises on each device kind")
    func defaultSet() throws {
        let configuration = Configuration.parse(try repositoryFile("config/gestured.conf"), fileName: "gestured.conf")
            .configuration
        let screen = configuration.engineConfiguration(for: TestDevices.touchscreen).recognizers
        let pad = configuration.engineConfiguration(for: TestDevices.touchpad).recognizers
        func kinds(_ list: [RecognizerConfiguration]) -> [String] { list.compactMap { KindName($0.kind)?.rawValue } }
        for kind in ["tap", "long_press", "swipe", "pinch", "rotation", "edge_pan"] {
            #expect(kinds(screen).contains(kind), "touchscreen lacks \(kind)")
        }
        for kind in ["tap", "long_press", "swipe", "pinch"] {
            #expect(kinds(pad).contains(kind), "touchpad lacks \(kind)")
        }
        // Every swipe direction, 1–4 fingers, on touchscreens.
        var screenSwipes: Set<String> = []
        for gesture in screen {
            guard case .swipe(let p) = gesture.kind else { continue }
            for d in p.directions { screenSwipes.insert("\(p.numberOfTouchesRequired)\(d)") }
        }
        #expect(screenSwipes.count == 16)
        // Edge swipes from every edge.
        let edges = screen.compactMap { g -> Set<Edge>? in
            if case .edgePan(let p) = g.kind { return p.edges }
            return nil
        }.reduce(into: Set<Edge>()) { $0.formUnion($1) }
        #expect(edges == Set(Edge.allCases))
        // No touchscreen gesture leaks onto touchpads and vice versa.
        #expect(Set(screen.map(\.name)).isDisjoint(with: pad.map(\.name)))
        let tap = try #require(screen.first { $0.name == "tap" })
        #expect(tap.requiresFailureOf == ["double-tap"])
        let pinch = try #require(screen.first { $0.name == "pinch" })
        #expect(pinch.recognizesSimultaneouslyWith == ["rotate"])
    }

    /// Every commented `#Key=value` line is a documented default: setting it explicitly must
    /// give exactly what leaving it out gives (the engine's and the daemon's defaults).
    @Test("every documented default in config/gestured.conf equals the built-in default")
    func documentedDefaults() throws {
        let text = try repositoryFile("config/gestured.conf")
        var header: String?
        var kind: String?
        var checked = 0
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.hasPrefix("#"), line.count > 1, line.dropFirst().first != " " else { continue }
            let body = line.dropFirst()
            if body.hasPrefix("[") {
                header = String(body)
                kind = nil
                continue
            }
            guard let eq = body.firstIndex(of: "="), body.first?.isUppercase == true else { continue }
            let key = String(body[..<eq])
            let value = String(body[body.index(after: eq)...])
            if key == "Kind" {
                kind = value
                continue
            }
            let section = try #require(header, "line \(lineNumber): a documented default before any #[Section]")
            let prefix = section + "\n" + (kind.map { "Kind=\($0)\n" } ?? "")
            let baseline = Configuration.parse(prefix, fileName: "baseline")
            let explicit = Configuration.parse(prefix + "\(key)=\(value)\n", fileName: "line \(lineNumber)")
            // The baseline may carry a warning (an edge pan without Edges= never recognizes);
            // the documented default must not add or remove any.
            #expect(!baseline.hasErrors, "line \(lineNumber): \(baseline.diagnostics)")
            #expect(explicit.diagnostics.map(\.message) == baseline.diagnostics.map(\.message), "line \(lineNumber)")
            #expect(
                explicit.configuration.daemon == baseline.configuration.daemon,
                "line \(lineNumber): #\(key)=\(value) is not the [Daemon] default"
            )
            #expect(
                explicit.configuration.touchFilter == baseline.configuration.touchFilter,
                "line \(lineNumber): #\(key)=\(value) is not the [TouchFilter] default"
            )
            #expect(
                explicit.configuration.gestures == baseline.configuration.gestures,
                "line \(lineNumber): #\(key)=\(value) is not the default of Kind=\(kind ?? "?")"
            )
            for device in [TestDevices.touchscreen, TestDevices.touchpad] {
                #expect(
                    explicit.configuration.deviceSettings(for: device).comparable
                        == baseline.configuration.deviceSettings(for: device).comparable,
                    "line \(lineNumber): #\(key)=\(value) is not the [Device] default"
                )
                #expect(
                    explicit.configuration.engineConfiguration(for: device)
                        == baseline.configuration.engineConfiguration(for: device)
                )
            }
            checked += 1
        }
        // The file documents every key of every section; a much smaller count means the
        // parsing above silently stopped matching the file's convention.
        #expect(checked >= 60, "only \(checked) documented defaults found")
    }

    @Test("every gesture key is documented in config/gestured.conf")
    func everyKeyDocumented() throws {
        let text = try repositoryFile("config/gestured.conf")
        let keys = gestureKeys.map(\.name) + daemonKeys.map(\.name) + deviceKeys.map(\.name) + touchFilterKeys.map(\.name)
        for key in keys {
            #expect(text.contains("#\(key)=") || text.contains("# \(key)="), "\(key)= is not documented")
        }
    }
}

extension DeviceSettings {
    /// The settings without the list of matched rule names (which differ by construction).
    var comparable: DeviceSettings {
        var copy = self
        copy.matchedRules = []
        return copy
    }
}

/// Device descriptions for matching tests.
enum TestDevices {
    static let touchscreen = DeviceDescription(
        name: "ELAN Touchscreen",
        bustype: 3,
        vendor: 0x04f3,
        product: 0x2a1c,
        properties: [.direct],
        axes: [
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 2936, resolution: 10),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 1652, resolution: 10),
            EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 9),
            EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        ]
    )
    static let touchpad = DeviceDescription(
        name: "SynPS/2 Synaptics TouchPad",
        bustype: 0x11,
        vendor: 0x0002,
        product: 0x0007,
        properties: [.pointer, .buttonpad],
        axes: [
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 1266, maximum: 5676, resolution: 42),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 1096, maximum: 4758, resolution: 42),
            EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 4),
            EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
        ]
    )
}

@Suite("gestured.conf(5)")
struct ManPageTests {
    @Test("every key the parser knows is documented in the man page")
    func everyKey() throws {
        let page = try repositoryFile("docs/man/gestured.conf.5.scd")
        let keys = gestureKeys.map(\.name) + daemonKeys.map(\.name) + deviceKeys.map(\.name) + touchFilterKeys.map(\.name)
        for key in keys {
            #expect(page.contains("*\(key)=*"), "gestured.conf(5) does not document \(key)=")
        }
    }

    @Test("the examples in the man page parse without diagnostics")
    func examples() throws {
        let page = try repositoryFile("docs/man/gestured.conf.5.scd")
        let examples = page.components(separatedBy: "# EXAMPLES").last ?? ""
        let blocks = examples.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(blocks.count == 4)
        let result = Configuration.parse(blocks.joined(separator: "\n"), fileName: "examples")
        #expect(result.diagnostics.map(\.rendered) == [])
    }
}
