import GestureEngine
import Testing

@testable import GesturedConfig

private func rendered(_ text: String, file: String = "test.conf") -> [String] {
    Configuration.parse(text, fileName: file).diagnostics.map(\.rendered)
}

@Suite("Diagnostic goldens")
struct DiagnosticGoldenTests {
    @Test("a typo in a key is a warning with a suggestion, at the key's column")
    func typo() {
        let text = """
            [Gesture double-tap]
            Kind=tap
              Tapz=2
            """
        #expect(
            rendered(text) == [
                "test.conf:3:3: warning: unknown key 'Tapz' in [Gesture double-tap], ignoring (did you mean 'Taps'?)"
            ]
        )
    }

    @Test("a key nothing resembles gets no suggestion")
    func noSuggestion() {
        #expect(
            rendered("[Daemon]\nColour=blue\n") == [
                "test.conf:2:1: warning: unknown key 'Colour' in [Daemon], ignoring"
            ]
        )
    }

    @Test("values with a wrong or missing unit are errors at the value's column")
    func badUnits() {
        let text = """
            [Gesture hold]
            Kind=long_press
            MinimumPressDuration=500mm
            AllowableMovement = 7
            Fingers=2mm

            [Gesture turn]
            Kind=edge_pan
            Edges=left
            AngleWindow=77.5
            """
        #expect(
            rendered(text) == [
                "test.conf:3:22: error: MinimumPressDuration=: 'mm' is not a time unit (use ms, s or us)",
                "test.conf:4:21: error: AllowableMovement=: length '7' needs a unit (write 7mm)",
                "test.conf:5:9: error: Fingers=: this value is a count and takes no unit, found 'mm'",
                "test.conf:10:13: error: AngleWindow=: angle '77.5' needs a unit (write 77.5deg)",
            ]
        )
    }

    @Test("unknown sections are warnings with a suggestion; malformed lines are errors")
    func sections() {
        let text = """
            [Gestur tap]
            Kind=tap
            [Daemon extra]
            [Gesture]
            [Gesture two words]
            [Device
            MatchKind=touchpad
            just some words
            =value
            """
        #expect(
            rendered(text) == [
                "test.conf:1:1: warning: unknown section [Gestur tap], ignoring (did you mean [Gesture]?)",
                "test.conf:3:9: error: [Daemon] takes no name (write [Daemon])",
                "test.conf:4:1: error: [Gesture] needs a name (write [Gesture NAME], e.g. [Gesture double-tap])",
                "test.conf:5:10: error: 'two words' is not a valid gesture name (use letters, digits, '-', '_' and '.')",
                "test.conf:6:1: error: section header is missing its closing ']'",
                "test.conf:8:1: error: expected 'Key=Value' or a '[Section]' header, found 'just some words'",
                "test.conf:9:1: error: missing key before '='",
            ]
        )
    }

    @Test("text after a section header's bracket is an error at that bracket")
    func trailingText() {
        #expect(
            rendered("[Gesture tap] # the tap\nKind=tap\n") == [
                "test.conf:1:13: error: unexpected text after ']' in a section header (comments go on their own line)"
            ]
        )
    }

    @Test("a key before any section is an error with a hint")
    func keyBeforeSection() {
        #expect(
            rendered("# comment\nSocketMode=0600\n") == [
                "test.conf:2:1: error: 'SocketMode=' appears before any section header (start the file with a section such as [Daemon])"
            ]
        )
    }

    @Test("a kind-specific key used with another kind names the kind")
    func wrongKind() {
        let text = """
            [Gesture flick]
            Kind=swipe
            Taps=2
            Directions=left
            Edges=top
            """
        #expect(
            rendered(text) == [
                "test.conf:3:1: error: 'Taps=' does not apply to [Gesture flick], which has Kind=swipe (Taps= applies to Kind=tap, long_press)",
                "test.conf:5:1: error: 'Edges=' does not apply to [Gesture flick], which has Kind=swipe (Edges= applies to Kind=edge_pan)",
            ]
        )
    }

    @Test("a missing or unknown kind is an error")
    func kinds() {
        let text = """
            [Gesture a]
            Taps=1
            [Gesture b]
            Kind=swpie
            """
        #expect(
            rendered(text) == [
                "test.conf:1:1: error: [Gesture a] has no Kind= (add Kind= with one of tap, long_press, pan, swipe, pinch, rotation, edge_pan, tickle)",
                "test.conf:4:6: error: Kind=: 'swpie' is not a gesture kind (expected one of tap, long_press, pan, swipe, pinch, rotation, edge_pan, tickle) (did you mean 'swipe'?)",
            ]
        )
    }

    @Test("relations to unknown gestures and to oneself are errors at the value")
    func relations() {
        let text = """
            [Gesture tap]
            Kind=tap
            RequireFailureOf=double-tapp
            [Gesture double-tap]
            Kind=tap
            Taps=2
            RecognizeSimultaneouslyWith=double-tap,pinch
            [Device screens]
            Gestures=tap,zoom
            """
        #expect(
            rendered(text) == [
                "test.conf:3:18: error: RequireFailureOf=: no gesture is named 'double-tapp' (did you mean 'double-tap'?)",
                "test.conf:7:29: error: RecognizeSimultaneouslyWith=: gesture 'double-tap' cannot name itself",
                "test.conf:7:29: error: RecognizeSimultaneouslyWith=: no gesture is named 'pinch'",
                "test.conf:9:10: error: Gestures=: no gesture is named 'zoom'",
            ]
        )
    }

    @Test("a RequireFailureOf cycle is reported once, naming its members")
    func cycle() {
        let text = """
            [Gesture a]
            Kind=tap
            RequireFailureOf=b
            [Gesture b]
            Kind=tap
            RequireFailureOf=c
            [Gesture c]
            Kind=tap
            RequireFailureOf=a
            [Gesture d]
            Kind=tap
            RequireFailureOf=a
            """
        #expect(
            rendered(text) == [
                "test.conf:3:18: error: RequireFailureOf= forms a cycle: a → b → c → a (a gesture cannot wait, directly or through others, for its own failure)"
            ]
        )
    }

    @Test("every problem is reported, across files, in file order")
    func allCollected() {
        let result = Configuration.parse([
            ConfigSource(name: "main.conf", contents: "[Daemon]\nMaxClients=zero\nSocketMode=999\n"),
            ConfigSource(name: "conf.d/10-x.conf", contents: "[Daemon]\nSocketPath=relative.sock\nMaxClient=3\n"),
        ])
        #expect(
            result.diagnostics.map(\.rendered) == [
                "main.conf:2:12: error: MaxClients=: 'zero' is not an integer",
                "main.conf:3:12: error: SocketMode=: '999' is not an octal file mode (write e.g. 0660)",
                "conf.d/10-x.conf:2:12: error: SocketPath=: SocketPath= must be an absolute path, found 'relative.sock'",
                "conf.d/10-x.conf:3:1: warning: unknown key 'MaxClient' in [Daemon], ignoring (did you mean 'MaxClients'?)",
            ]
        )
        #expect(result.hasErrors)
        #expect(result.errors.count == 3)
        #expect(result.warnings.count == 1)
    }

    @Test("diagnostics found late (relations) still sort by file, then line")
    func lateDiagnosticsSort() {
        let result = Configuration.parse([
            ConfigSource(name: "a.conf", contents: "[Gesture t]\nKind=tap\nRequireFailureOf=nope\n"),
            ConfigSource(
                name: "b.conf",
                contents: "[Daemon]\nMaxClients=x\n[Gesture u]\nKind=tap\nRequireFailureOf=t,zip\n"
            ),
            ConfigSource(name: "c.conf", contents: "[Gesture t]\nTaps=x\n"),
        ])
        #expect(
            result.diagnostics.map(\.rendered) == [
                "a.conf:3:18: error: RequireFailureOf=: no gesture is named 'nope'",
                "b.conf:2:12: error: MaxClients=: 'x' is not an integer",
                "b.conf:5:18: error: RequireFailureOf=: no gesture is named 'zip'",
                "c.conf:2:6: error: Taps=: 'x' is not an integer",
            ]
        )
    }

    @Test("an edge pan without edges is a warning")
    func edgePanWithoutEdges() {
        #expect(
            rendered("[Gesture e]\nKind=edge_pan\n") == [
                "test.conf:1:1: warning: [Gesture e] sets no Edges=, so it never recognizes (add e.g. Edges=left)"
            ]
        )
    }

    @Test(
        "range and consistency checks",
        arguments: [
            ("[Gesture t]\nKind=tap\nTaps=0\n", "test.conf:3:6: error: Taps=: '0' must be between 1 and 10"),
            ("[Gesture p]\nKind=pinch\nFingers=1\n", "test.conf:3:9: error: Fingers=: '1' must be between 2 and 20"),
            (
                "[Gesture t]\nKind=tap\nMinFingers=3\nMaxFingers=2\n",
                "test.conf:3:12: error: MinFingers= (3) is greater than MaxFingers= (2)"
            ),
            (
                "[Daemon]\nClientQueueSoft=10\nClientQueueHard=5\n",
                "test.conf:2:17: error: ClientQueueSoft= (10) must not exceed ClientQueueHard= (5)"
            ),
            (
                "[Gesture s]\nKind=swipe\nDirections=left,sideways\n",
                "test.conf:3:12: error: Directions=: 'sideways' is not a direction (expected one of left, right, up, down)"
            ),
            (
                "[Gesture s]\nKind=tap\nRegion=rect:10%,0mm,5%,5%\n",
                "test.conf:3:8: error: Region=: a rectangle is either all millimetres or all percentages (write surface, edge:left:5mm, rect:10mm,0mm,80mm,20mm or rect:10%,0%,80%,20%)"
            ),
            (
                "[Device d]\nMatchVendor=elan\n",
                "test.conf:2:13: error: MatchVendor=: 'elan' is not a 16-bit id (write it in hex, e.g. 0x04f3)"
            ),
            ("[Device d]\nSloppiness=0\n", "test.conf:2:12: error: Sloppiness=: '0' must be greater than 0"),
            (
                "[Gesture t]\nKind=tap\nEnabled=maybe\n",
                "test.conf:3:9: error: Enabled=: 'maybe' is not a boolean (use yes or no)"
            ),
        ]
    )
    func ranges(text: String, expected: String) {
        #expect(rendered(text) == [expected])
    }
}
