import Testing

@testable import GestureEngine

@Suite("Transcript renderer and consistency checker")
struct TranscriptCheckerTests {
    @Test("a scripted press-and-drag renders as a fixed transcript")
    func golden() {
        var h = Harness([
            recognizer("tap", tap()), recognizer("press", longPress()), recognizer("swipe", swipe([.left])),
        ])
        var f = Fingers()
        let a = f.down(20, 20, at: 1.0)
        f.move(a, to: 20.5, 20, at: 1.1)
        f.move(a, to: 25, 21, at: 1.8)
        f.up(a, at: 2.0)
        let b = f.down(60, 30, at: 2.5)
        f.move(b, to: 51.8, 30.2, at: 2.6)
        f.up(b, at: 2.7)
        h.run(f)
        let expected = """
            +0.000s touch #1 began x_mm=20.00 y_mm=20.00
            +0.100s touch #1 moved x_mm=20.50 y_mm=20.00
            +0.500s touch #1 cancelled x_mm=20.50 y_mm=20.00
            +0.500s long_press 'press' began fingers=1 dx_mm=0.50 dy_mm=0.00 x_mm=20.50 y_mm=20.00 seq=1
            +0.800s long_press 'press' changed fingers=1 dx_mm=5.00 dy_mm=1.00 x_mm=25.00 y_mm=21.00 seq=1
            +1.000s long_press 'press' ended fingers=1 dx_mm=5.00 dy_mm=1.00 x_mm=25.00 y_mm=21.00 seq=1
            +1.500s touch #2 began x_mm=60.00 y_mm=30.00
            +1.600s touch #2 cancelled x_mm=51.80 y_mm=30.20
            +1.600s swipe 'swipe' recognized fingers=1 dir=left dx_mm=-8.20 dy_mm=0.20 vx_mm_s=-82.0 vy_mm_s=2.0 x_mm=60.00 y_mm=30.00 seq=2

            """
        #expect(Transcript.render(h.outputs, origin: Timestamp(seconds: 1.0)) == expected)
    }

    @Test("fixed decimals round half away from zero and never print an exponent")
    func fixed() {
        #expect(Transcript.fixed(0.125, 2) == "0.13")
        #expect(Transcript.fixed(-0.125, 2) == "-0.13")
        #expect(Transcript.fixed(-0.001, 2) == "0.00")
        #expect(Transcript.fixed(1e-9, 3) == "0.000")
        #expect(Transcript.fixed(12345.678, 1) == "12345.7")
        #expect(Transcript.fixed(.nan, 2) == "nan")
        #expect(Transcript.fixed(-.infinity, 2) == "-inf")
        #expect(Transcript.time(Timestamp(microseconds: 412_400), .zero) == "+0.412s")
    }

    func event(_ state: GestureState, seq: UInt64, t: Double, name: String = "g", scale: Double? = nil) -> EngineOutput
    {
        .gesture(
            GestureEvent(
                name: name,
                kind: .pan,
                state: state,
                timestamp: Timestamp(seconds: t),
                sequence: seq,
                fingers: 1,
                location: .zero,
                scale: scale
            )
        )
    }

    @Test("a well-formed stream has no violations")
    func wellFormed() {
        let outputs = [
            event(.began, seq: 1, t: 0), event(.changed, seq: 1, t: 0.1), event(.ended, seq: 1, t: 0.2),
            event(.recognized, seq: 2, t: 0.3, name: "tap"),
            .touch(SinkTouchEvent(touch: TouchID(1), phase: .began, timestamp: .zero, position: .zero)),
            .touch(SinkTouchEvent(touch: TouchID(1), phase: .ended, timestamp: .zero, position: .zero)),
        ]
        #expect(ConsistencyChecker.check(outputs, requireClosed: true).isEmpty)
    }

    @Test(
        "the checker catches each broken rule",
        arguments: [
            ("changed without began", [1]),
            ("two begans", [2]),
            ("output after the end", [3]),
            ("recognized twice", [4]),
            ("NaN value", [5]),
            ("time going backwards", [6]),
            ("touch after it ended", [7]),
            ("open at the end", [8]),
        ]
    )
    func violations(rule: String, which: [Int]) {
        let cases: [Int: [EngineOutput]] = [
            1: [event(.changed, seq: 1, t: 0)],
            2: [event(.began, seq: 1, t: 0), event(.began, seq: 1, t: 0.1)],
            3: [event(.began, seq: 1, t: 0), event(.cancelled, seq: 1, t: 0.1), event(.changed, seq: 1, t: 0.2)],
            4: [event(.recognized, seq: 1, t: 0), event(.recognized, seq: 1, t: 0)],
            5: [event(.began, seq: 1, t: 0, scale: .nan), event(.ended, seq: 1, t: 0)],
            6: [event(.began, seq: 1, t: 1), event(.ended, seq: 1, t: 0.5)],
            7: [
                .touch(SinkTouchEvent(touch: TouchID(1), phase: .began, timestamp: .zero, position: .zero)),
                .touch(SinkTouchEvent(touch: TouchID(1), phase: .cancelled, timestamp: .zero, position: .zero)),
                .touch(SinkTouchEvent(touch: TouchID(1), phase: .moved, timestamp: .zero, position: .zero)),
            ],
            8: [event(.began, seq: 1, t: 0)],
        ]
        let found = ConsistencyChecker.check(cases[which[0]]!, requireClosed: true)
        #expect(!found.isEmpty, "\(rule)")
    }
}
