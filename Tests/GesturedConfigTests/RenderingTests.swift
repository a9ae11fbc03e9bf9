import GestureEngine
import Testing

@testable import GesturedConfig

@Suite("Rendering the effective configuration")
struct RenderingTests {
    @Test("the shipped configuration renders to text that parses back to itself")
    func shippedRoundTrip() throws {
        let original = Configuration.parse(try repositoryFile("config/gestured.conf"), fileName: "gestured.conf")
        #expect(original.diagnostics == [])
        let text = original.configuration.rendered()
        let reparsed = Configuration.parse(text, fileName: "rendered")
        #expect(reparsed.diagnostics.map(\.rendered) == [])
        #expect(reparsed.configuration == original.configuration)
    }

    @Test("unusual values survive the round trip exactly")
    func unusualValues() {
        let text = """
            [Daemon]
            SocketMode=0600
            AllowRawTouchesForGroup=osk
            [Device d]
            MatchKind=touchpad
            MatchName=Syn*
            MatchVendor=0x2
            MatchUdevProperty=B=2 A=1
            Sloppiness=1.25
            WidthMM=99.9
            Gestures=r
            Disable=no
            [Gesture r]
            Kind=rotation
            AngleHysteresis=0.1rad
            Region=rect:10%,0%,33.3%,20%
            MaxFingers=3
            Tools=pen,finger
            [Gesture t]
            Kind=tap
            MaximumIntervalBetweenTaps=0.3333s
            AllowableTouchTimeSeparation=120ms
            AllowableMovement=0.1cm
            Region=edge:top:4.5mm
            [Gesture e]
            Kind=edge_pan
            Edges=bottom,left
            AngleWindow=45deg
            [Gesture p]
            Kind=pan
            MaximumNumberOfTouches=3
            VelocityStaleInterval=250us
            Region=rect:1mm,2mm,3mm,4.25mm
            [Gesture s]
            Kind=swipe
            MinimumPrimarySpeed=12.5mm/s
            [Gesture k]
            Kind=tickle
            [Gesture l]
            Kind=long_press
            Taps=1
            [Gesture z]
            Kind=pinch
            EndsOnSingleTouch=yes
            """
        let original = Configuration.parse(text, fileName: "u")
        #expect(original.diagnostics == [])
        let reparsed = Configuration.parse(original.configuration.rendered(), fileName: "rendered")
        #expect(reparsed.diagnostics.map(\.rendered) == [])
        #expect(reparsed.configuration == original.configuration)
    }

    @Test("values are written in friendly units")
    func friendlyUnits() {
        #expect(ConfigRenderer.duration(0.35) == "350ms")
        #expect(ConfigRenderer.duration(0.3333) == "333.3ms")
        #expect(ConfigRenderer.angle(77.5 * Double.pi / 180) == "77.5deg")
        #expect(ConfigRenderer.angle(0.1) == "0.1rad")
        #expect(ConfigRenderer.length(7.012) == "7.012mm")
        #expect(ConfigRenderer.length(.infinity) == "infinity")
        #expect(ConfigRenderer.hex(0x4f3) == "0x04f3")
    }

    @Test("the effective configuration of a device lists its rules and gestures")
    func effective() {
        let text = """
            [Device pads]
            MatchKind=touchpad
            Sloppiness=2
            [Gesture a]
            Kind=tap
            DeviceKinds=touchscreen
            [Gesture b]
            Kind=pinch
            """
        let configuration = Configuration.parse(text, fileName: "e").configuration
        let rendered = configuration.renderedEffective(for: TestDevices.touchpad, node: "/dev/input/event7")
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(5)) == [
                "# /dev/input/event7: \"SynPS/2 Synaptics TouchPad\" touchpad",
                "# matched rules: pads",
                "# Sloppiness=2 MaxTouches=10",
                "",
                "[Gesture b]",
            ]
        )
        #expect(!rendered.contains("[Gesture a]"))
    }
}
