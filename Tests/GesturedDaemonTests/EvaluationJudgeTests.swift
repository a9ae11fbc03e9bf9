import GestureEngine
import Testing

@testable import gestured_eval

/// How the evaluation judges an observation against a label, on crafted observations (no
/// corpus needed).
@Suite("Evaluation judging")
struct EvaluationJudgeTests {
    /// One scroll that goes 50 mm left while three fingers are down (until t = 2 s), then
    /// 40 mm down: the hardware_Trackpad `three_finger_contact` prompt, as the link user did it.
    static func scrollLeftThenDown() -> Observation {
        var record = GestureRecord(name: "scroll", fingers: 2, translation: PhysicalPoint(x: -50, y: 40))
        record.samples = [
            TranslationSample(time: 1_000_000, translation: PhysicalPoint(x: -20, y: 0)),
            TranslationSample(time: 2_000_000, translation: PhysicalPoint(x: -50, y: 0)),
            TranslationSample(time: 3_000_000, translation: PhysicalPoint(x: -50, y: 40)),
        ]
        var observation = Observation()
        observation.records = [record]
        observation.lastFrameWithAtLeast = [3: 2_000_000]
        return observation
    }

    static func expectation(_ checks: [Check]) -> gestured_eval.Expectation {
        gestured_eval.Expectation(category: "two-finger scroll", device: "link", label: "crafted", checks: checks)
    }

    @Test("a three-finger-contact scroll is judged by its motion after the third finger lifted")
    func motionAfterThirdFinger() {
        let observation = Self.scrollLeftThenDown()
        #expect(Evaluator.judge(observation, Self.expectation([.panDirectionAfter("scroll", .down, fingers: 3)])).isEmpty)
        #expect(
            Evaluator.judge(observation, Self.expectation([.panDirectionAfter("scroll", .left, fingers: 3)]))
                == ["scroll went down after the last 3-finger frame, expected left"])
        // Summed over the whole scroll the same motion goes left.
        #expect(Evaluator.judge(observation, Self.expectation([.panDirection("scroll", .down)])) == ["scroll went left, expected down"])
    }

    @Test("a scroll that ended before the third finger lifted leaves no motion to judge")
    func noMotionAfterThirdFinger() {
        var observation = Self.scrollLeftThenDown()
        observation.lastFrameWithAtLeast = [3: 3_000_000]
        #expect(
            Evaluator.judge(observation, Self.expectation([.panDirectionAfter("scroll", .down, fingers: 3)]))
                == ["no scroll motion after the last 3-finger frame, expected one going down"])
    }

    @Test("without a three-finger frame the whole scroll is judged")
    func noThirdFinger() {
        var observation = Self.scrollLeftThenDown()
        observation.lastFrameWithAtLeast = [:]
        #expect(
            Evaluator.judge(observation, Self.expectation([.panDirectionAfter("scroll", .down, fingers: 3)]))
                == ["scroll went left after the last 3-finger frame, expected down"])
    }

    @Test("three_finger_contact scroll labels judge only the motion after the third finger")
    func mapping() throws {
        let path = "chromiumos-autotest/hardware_Trackpad/link/user_20120508_034842/"
            + "scroll-regardless_prior_state.down.three_finger_contact-link-user-20120508_040631.dat"
        let expectation = try #require(LabelMapping.expectation(for: path))
        #expect(expectation.checks.contains(.panDirectionAfter("scroll", .down, fingers: 3)))
        let plain = "chromiumos-autotest/hardware_Trackpad/link/user_20120508_034842/"
            + "scroll-regardless_prior_state.down.right_click-link-user-20120508_040631.dat"
        let other = try #require(LabelMapping.expectation(for: plain))
        #expect(other.checks.contains(.panDirection("scroll", .down)))
    }

    static func event(_ name: String, _ kind: GestureKind, _ state: GestureState, sequence: UInt64, at seconds: Double) -> EngineOutput {
        .gesture(
            GestureEvent(
                name: name, kind: kind, state: state, timestamp: Timestamp(seconds: seconds), sequence: sequence, fingers: 3, location: .zero,
                direction: kind == .swipe ? .left : nil, translation: kind == .swipe ? nil : .zero))
    }

    @Test("a hold the engine cancelled while the recording ran is withdrawn; one the replay's end cancelled, and a cancelled scroll, count")
    func withdrawnHold() {
        let outputs: [EngineOutput] = [
            Self.event("three-finger-hold", .longPress, .began, sequence: 1, at: 1.5),
            Self.event("three-finger-hold", .longPress, .cancelled, sequence: 1, at: 1.6),
            Self.event("three-finger-swipe", .swipe, .recognized, sequence: 2, at: 1.6),
            Self.event("scroll", .pan, .began, sequence: 3, at: 2.0),
            Self.event("scroll", .pan, .cancelled, sequence: 3, at: 2.2),
            Self.event("three-finger-hold", .longPress, .began, sequence: 4, at: 3.0),
            // The replay's end (finishReplay) from here on.
            Self.event("three-finger-hold", .longPress, .cancelled, sequence: 4, at: 3.5),
        ]
        let observation = Evaluator.observation(of: outputs, withdrawnBefore: 6)
        #expect(observation.records.map(\.name) == ["three-finger-swipe", "scroll", "three-finger-hold"])
        #expect(observation.withdrawn.map(\.name) == ["three-finger-hold"])
        #expect(observation.summary.contains("(three-finger-hold×1 cancelled)"))
        // Without the split every record counts, as before.
        #expect(Evaluator.observation(of: outputs).records.count == 4)
        let stress = StressSet.records(outputs, withdrawnBefore: 6)
        #expect(stress.map(\.name) == ["three-finger-swipe", "scroll", "three-finger-hold"])
    }
}
