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
}
