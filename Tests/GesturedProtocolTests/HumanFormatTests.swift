import Testing

@testable import GesturedProtocol

@Suite("Human-readable event lines")
struct HumanFormatTests {
    @Test(
        "fixed decimals round half away from zero and never print a negative zero",
        arguments: [
            (1.0, 2, "1.00"), (-24.104, 2, "-24.10"), (0.125, 2, "0.13"), (-0.004, 2, "0.00"), (2.9999, 2, "3.00"),
            (1.23456, 3, "1.235"), (7.5, 0, "8"), (0.05, 1, "0.1"),
        ]
    )
    func fixed(value: Double, places: Int, expected: String) {
        #expect(HumanFormat.fixed(value, places) == expected)
    }

    @Test("a gesture line starts with the time relative to the origin and lists what applies")
    func gestureLine() {
        let line = HumanFormat.line(
            .gesture(JSONGoldenTests.swipe),
            originMicroseconds: JSONGoldenTests.swipe.timeUS - 1_412_000
        )
        #expect(
            line
                == "+1.412s event5 swipe 'swipe-left-3' recognized fingers=3 dir=left x_mm=40.50 y_mm=20.25 dx_mm=-30.00 dy_mm=1.50"
        )
    }

    @Test("replies have no human line; events do")
    func replies() {
        #expect(HumanFormat.line(.ok(OkReply(request: "ping")), originMicroseconds: 0) == nil)
        #expect(
            HumanFormat.line(
                .deviceRemoved(DeviceRemovedEvent(device: "/dev/input/event9", name: "Pad")),
                originMicroseconds: 0
            )
                == "device removed /dev/input/event9 'Pad'"
        )
    }
}
