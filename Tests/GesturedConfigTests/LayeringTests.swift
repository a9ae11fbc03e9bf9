import GestureEngine
import GesturedRandom
import Testing

@testable import GesturedConfig

@Suite("Layering and drop-ins")
struct LayeringTests {
    let main = """
        [Daemon]
        SocketGroup=input
        MaxClients=10

        [Gesture tap]
        Kind=tap
        RequireFailureOf=double-tap

        [Gesture double-tap]
        Kind=tap
        Taps=2
        MaximumIntervalBetweenTaps=300ms
        """

    @Test("a drop-in overrides single keys and keeps the others")
    func overrideKeys() throws {
        let result = Configuration.parse([
            ConfigSource(name: "gestured.conf", contents: main),
            ConfigSource(
                name: "conf.d/50-slow.conf",
                contents: "[Gesture double-tap]\nMaximumIntervalBetweenTaps=500ms\n[Daemon]\nMaxClients=20\n"
            ),
        ])
        #expect(result.diagnostics == [])
        let config = result.configuration
        #expect(config.daemon.maxClients == 20)
        #expect(config.daemon.socketGroup == "input")
        let doubleTap = try #require(config.gestures.first { $0.name == "double-tap" })
        guard case .tap(let p) = doubleTap.kind else {
            Issue.record("double-tap is not a tap")
            return
        }
        #expect(p.maximumIntervalBetweenTaps == 0.5)
        #expect(p.numberOfTapsRequired == 2)
    }

    @Test("later drop-ins win over earlier ones, and sections accumulate in first-seen order")
    func order() throws {
        let result = Configuration.parse([
            ConfigSource(name: "gestured.conf", contents: main),
            ConfigSource(
                name: "conf.d/10-a.conf",
                contents: "[Gesture tap]\nPriority=1\n[Gesture swipe]\nKind=swipe\n"
            ),
            ConfigSource(name: "conf.d/20-b.conf", contents: "[Gesture tap]\nPriority=2\n"),
        ])
        #expect(result.diagnostics == [])
        #expect(result.configuration.gestures.map(\.name) == ["tap", "double-tap", "swipe"])
        #expect(result.configuration.gestures[0].priority == 2)
        #expect(result.configuration.gestures[0].requiresFailureOf == ["double-tap"])
    }

    @Test("a drop-in may change a gesture's kind; keys of the old kind then become errors")
    func changeKind() {
        let result = Configuration.parse([
            ConfigSource(name: "gestured.conf", contents: main),
            ConfigSource(name: "conf.d/90-kind.conf", contents: "[Gesture double-tap]\nKind=long_press\n"),
        ])
        #expect(
            result.diagnostics.map(\.rendered) == [
                "gestured.conf:12:1: error: 'MaximumIntervalBetweenTaps=' does not apply to [Gesture double-tap], which has Kind=long_press (MaximumIntervalBetweenTaps= applies to Kind=tap)"
            ]
        )
    }

    @Test("a drop-in can fix a relation or disable a gesture")
    func disable() throws {
        let result = Configuration.parse([
            ConfigSource(name: "gestured.conf", contents: main),
            ConfigSource(name: "conf.d/50-notap.conf", contents: "[Gesture tap]\nEnabled=no\nRequireFailureOf=\n"),
        ])
        #expect(result.diagnostics == [])
        let tap = try #require(result.configuration.gestures.first)
        #expect(!tap.isEnabled)
        #expect(tap.requiresFailureOf == [])
    }

    @Test("an overridden bad value is still reported where it was written")
    func overriddenError() {
        let result = Configuration.parse([
            ConfigSource(name: "gestured.conf", contents: "[Daemon]\nMaxClients=lots\n"),
            ConfigSource(name: "conf.d/1.conf", contents: "[Daemon]\nMaxClients=5\n"),
        ])
        #expect(
            result.diagnostics.map(\.rendered) == ["gestured.conf:2:12: error: MaxClients=: 'lots' is not an integer"]
        )
        #expect(result.configuration.daemon.maxClients == 5)
    }
}

@Suite("Device matching")
struct DeviceMatchingTests {
    let text = """
        [Gesture tap]
        Kind=tap
        RequireFailureOf=double-tap

        [Gesture double-tap]
        Kind=tap
        Taps=2
        DeviceKinds=touchscreen

        [Gesture pad-swipe]
        Kind=swipe
        DeviceKinds=touchpad
        Fingers=3

        [Device all]
        Sloppiness=1.5

        [Device elan]
        MatchName=ELAN*
        MatchVendor=0x04f3
        MaxTouches=5
        WidthMM=293.5
        HeightMM=165mm

        [Device synaptics]
        MatchKind=touchpad
        MatchUdevProperty=ID_INPUT_TOUCHPAD=1 ID_BUS=serio
        Sloppiness=2

        [Device other-elan]
        MatchProduct=0x9999
        Disable=yes
        """

    var configuration: Configuration {
        let result = Configuration.parse(text, fileName: "m.conf")
        #expect(result.diagnostics == [])
        return result.configuration
    }

    @Test("name glob and vendor select rules; unmatched ones leave defaults")
    func touchscreen() {
        let settings = configuration.deviceSettings(for: TestDevices.touchscreen)
        #expect(settings.matchedRules == ["all", "elan"])
        #expect(settings.sloppiness == 1.5)
        #expect(settings.maxTouches == 5)
        #expect(settings.widthMM == 293.5)
        #expect(settings.heightMM == 165)
        #expect(!settings.isDisabled)
        let engine = configuration.engineConfiguration(for: TestDevices.touchscreen)
        #expect(engine.recognizers.map(\.name) == ["tap", "double-tap"])
        #expect(engine.maxTouches == 5)
        #expect(engine.sloppiness == 1.5)
        #expect(engine.recognizers[0].requiresFailureOf == ["double-tap"])
    }

    @Test("udev properties must all match; kinds filter gestures and their relations")
    func touchpad() {
        let partial = configuration.deviceSettings(
            for: TestDevices.touchpad,
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"]
        )
        #expect(partial.matchedRules == ["all"])
        let properties = ["ID_INPUT_TOUCHPAD": "1", "ID_BUS": "serio", "ID_SERIAL": "noserial"]
        let full = configuration.deviceSettings(for: TestDevices.touchpad, udevProperties: properties)
        #expect(full.matchedRules == ["all", "synaptics"])
        #expect(full.sloppiness == 2)
        let engine = configuration.engineConfiguration(for: TestDevices.touchpad, udevProperties: properties)
        #expect(engine.recognizers.map(\.name) == ["tap", "pad-swipe"])
        // double-tap does not run on touchpads, so tap no longer waits for it.
        #expect(engine.recognizers[0].requiresFailureOf == [])
    }

    @Test("Disable=yes gives a device no recognizers; Gestures= restricts them")
    func disableAndRestrict() {
        var device = TestDevices.touchscreen
        device.product = 0x9999
        #expect(configuration.deviceSettings(for: device).isDisabled)
        #expect(configuration.engineConfiguration(for: device).recognizers == [])

        let restricted = Configuration.parse(
            text + "\n[Device only-tap]\nMatchKind=touchscreen\nGestures=double-tap\n",
            fileName: "m"
        )
        #expect(restricted.diagnostics == [])
        let names = restricted.configuration.engineConfiguration(for: TestDevices.touchscreen).recognizers.map(\.name)
        #expect(names == ["double-tap"])
    }

    @Test("an explicit kind overrides the description's own classification")
    func explicitKind() {
        // The touchscreen description, classified as a touchpad by the caller (udev).
        let settings = configuration.deviceSettings(
            for: TestDevices.touchscreen,
            kind: .touchpad,
            udevProperties: ["ID_INPUT_TOUCHPAD": "1", "ID_BUS": "serio"]
        )
        #expect(settings.matchedRules == ["all", "elan", "synaptics"])
        let engine = configuration.engineConfiguration(for: TestDevices.touchscreen, kind: .touchpad)
        #expect(engine.recognizers.map(\.name) == ["tap", "pad-swipe"])
    }

    @Test("a configured size becomes the resolution of axes that report none")
    func physicalSize() throws {
        var device = TestDevices.touchscreen
        device.axes[EventUsage.absMTPositionX.code]?.resolution = 0
        device.axes[EventUsage.absMTPositionY.code]?.resolution = 0
        device.axes[EventUsage.absX.code] = AxisInfo(minimum: 0, maximum: 2936)
        #expect(!device.hasResolution)
        let settings = configuration.deviceSettings(for: device)
        let sized = settings.applyingPhysicalSize(to: device)
        #expect(sized.hasResolution)
        // 2936 units over 293.5 mm and 1652 units over 165 mm: 10 units/mm each.
        #expect(sized.axes[EventUsage.absMTPositionX.code]?.resolution == 10)
        #expect(sized.axes[EventUsage.absX.code]?.resolution == 10)
        #expect(sized.axes[EventUsage.absMTPositionY.code]?.resolution == 10)
        #expect(abs(sized.widthMillimeters - 293.6) < 0.01)
        // A measured resolution is kept, and no configured size changes nothing.
        #expect(settings.applyingPhysicalSize(to: TestDevices.touchpad) == TestDevices.touchpad)
        #expect(DeviceSettings().applyingPhysicalSize(to: device) == device)
    }

    @Test(
        "glob patterns",
        arguments: [
            ("ELAN*", "ELAN Touchscreen", true), ("*Touch*", "ELAN Touchscreen", true),
            ("elan*", "ELAN Touchscreen", false),
            ("?LAN*", "ELAN Touchscreen", true), ("[A-F]LAN*", "ELAN Touchscreen", true),
            ("[!E]LAN*", "ELAN Touchscreen", false),
            ("*", "", true), ("a*b*c", "aXbYc", true), ("a*b*c", "aXbY", false), ("a[", "a[", true),
            ("exact", "exact", true),
        ]
    )
    func glob(pattern: String, name: String, expected: Bool) {
        #expect(Glob.matches(pattern: pattern, name) == expected)
    }
}

@Suite("Values and units")
struct ValueTests {
    @Test(
        "lengths, durations, angles and speeds convert to the engine's units",
        arguments: [
            (
                "[Gesture g]\nKind=tap\nAllowableMovement=1cm\nMaximumTapDuration=0.5s\nMinimumTapDuration=2000us\n",
                "tap"
            )
        ]
    )
    func conversions(text: String, kind: String) throws {
        let result = Configuration.parse(text, fileName: "v")
        #expect(result.diagnostics == [])
        let gesture = try #require(result.configuration.gestures.first)
        guard case .tap(let p) = gesture.kind else {
            Issue.record("not a tap")
            return
        }
        #expect(p.allowableMovement == 10)
        #expect(p.maximumTapDuration == 0.5)
        #expect(p.minimumTapDuration == 0.002)
    }

    @Test("angles, regions, sets and policies")
    func richValues() throws {
        let text = """
            [Gesture r]
            Kind=rotation
            AngleHysteresis=0.1rad
            Region=rect:10%,0%,80%,20%
            DeviceKinds=touchscreen, touchpad
            Tools=finger,pen
            MaxFingers=3
            Priority=-5
            CancelsTouches=no
            DelaysTouchesBegan=true
            [Gesture e]
            Kind=edge_pan
            Edges=left top
            Region=edge:left:5mm
            MaximumNumberOfTouches=infinity
            [Gesture s]
            Kind=swipe
            MinimumPrimarySpeed=100mm/s
            Region=rect:1mm,2mm,3cm,4mm
            """
        let result = Configuration.parse(text, fileName: "v")
        #expect(result.diagnostics == [])
        let gestures = result.configuration.gestures
        #expect(gestures.count == 3)
        let r = gestures[0]
        #expect(
            r.kind
                == .rotation(
                    {
                        var p = RotationParameters(); p.angleHysteresis = 0.1; return p
                    }()
                )
        )
        #expect(r.region == .fraction(x: 0.1, y: 0, width: 0.8, height: 0.2))
        #expect(r.policy.deviceKinds == [.touchscreen, .touchpad])
        #expect(r.policy.toolTypes == [.finger, .pen])
        #expect(r.policy.maximumFingers == 3)
        #expect(r.priority == -5)
        #expect(!r.cancelsTouchesInView)
        #expect(r.delaysTouchesBegan)
        let e = gestures[1]
        guard case .edgePan(let ep) = e.kind else {
            Issue.record("not an edge pan")
            return
        }
        #expect(ep.edges == [.left, .top])
        #expect(ep.maximumNumberOfTouches == Int.max)
        #expect(e.region == .edge(.left, width: 5))
        #expect(e.delaysTouchesBegan)
        guard case .swipe(let sp) = gestures[2].kind else {
            Issue.record("not a swipe")
            return
        }
        #expect(sp.minimumPrimarySpeed == 100)
        #expect(gestures[2].region == .rectangle(PhysicalRect(x: 1, y: 2, width: 30, height: 4)))
    }

    @Test("daemon settings")
    func daemon() {
        let text = """
            [Daemon]
            SocketPath=/tmp/g.sock
            SocketMode=0600
            SocketGroup=wheel
            AllowRawTouchesForGroup=osk
            ClientQueueSoft=8
            ClientQueueHard=16
            """
        let result = Configuration.parse(text, fileName: "d")
        #expect(result.diagnostics == [])
        var expected = DaemonSettings()
        expected.socketPath = "/tmp/g.sock"
        expected.socketMode = 0o600
        expected.socketGroup = "wheel"
        expected.allowRawTouchesForGroup = "osk"
        expected.clientQueueSoft = 8
        expected.clientQueueHard = 16
        #expect(result.configuration.daemon == expected)
        #expect(DaemonSettings().allowRawTouchesForGroup == nil)
    }

    @Test("CRLF files, quotes, comments with ';' and indentation are accepted")
    func syntax() {
        let text = "; header\r\n[Device d]\r\n  MatchName = \"ELAN *\"\r\n# done\r\n"
        let result = Configuration.parse(text, fileName: "s")
        #expect(result.diagnostics == [])
        #expect(result.configuration.deviceRules.first?.match.namePattern == "ELAN *")
    }

    @Test("edit distance")
    func distance() {
        #expect(Suggest.distance("Tapz", "Taps") == 1)
        #expect(Suggest.distance("kitten", "sitting") == 3)
        #expect(Suggest.closest(to: "hysteresis", among: ["Hysteresis", "Priority"]) == "Hysteresis")
        #expect(Suggest.closest(to: "Colour", among: ["SocketMode", "MaxClients"]) == nil)
    }

    @Test("the bounded suggestion search picks what a full scan picks: the first nearest, within the bound")
    func suggestionMatchesFullScan() {
        let candidates = [
            "Kind", "Fingers", "MinimumFingers", "MaximumFingers", "Taps", "Directions", "Edges", "Priority",
            "RequireFailureOf", "CancelsTouches", "DelaysTouchesEnded", "DeviceKinds", "Hysteresis", "Region",
            "AllowableMovement", "MinimumPressDuration", "SocketMode", "SocketGroup", "MaxClients", "Daemon",
            "TouchFilter", "Gesture", "Device", "taps", "TAPS",
        ]
        func fullScan(_ word: String) -> String? {
            var best: (name: String, distance: Int) = ("", Int.max)
            for candidate in candidates where Suggest.distance(word, candidate) < best.distance {
                best = (candidate, Suggest.distance(word, candidate))
            }
            return best.distance <= max(2, word.count / 3) ? best.name : nil
        }
        var random = SplitMix64(seed: 16)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCXYZ_ ")
        var words = ["", "x", "Tap", "taps", "Colour", "Kindd", String(repeating: "q", count: 60), "DirectionsDirections"]
        for _ in 0..<200 {
            var word = Array(candidates[Int(random.next() % UInt64(candidates.count))])
            for _ in 0..<Int(random.next() % 5) {
                let position = Int(random.next() % UInt64(word.count + 1))
                let letter = letters[Int(random.next() % UInt64(letters.count))]
                switch random.next() % 3 {
                case 0: word.insert(letter, at: position)
                case 1 where position < word.count: word.remove(at: position)
                default: if position < word.count { word[position] = letter }
                }
            }
            words.append(String(word))
        }
        var suggested = 0
        for word in words {
            let expected = fullScan(word)
            #expect(Suggest.closest(to: word, among: candidates) == expected, "'\(word)'")
            if expected != nil { suggested += 1 }
        }
        #expect(suggested > 100)
        #expect(suggested < words.count)
    }
}
