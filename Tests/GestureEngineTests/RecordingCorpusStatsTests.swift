import Foundation
import GesturedTestSupport
import Testing

@testable import GestureEngine

/// Touch statistics of real recordings, checked against the figures the corpus's SOURCES.md
/// gives for them (measured independently when the corpus was assembled).
@Suite("Recording corpus statistics", .tags(.corpus))
struct RecordingCorpusStatsTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var path: String
        var sequences: Int
        var maxSimultaneous: Int
        var maxFingerCount: Int?
        var testDescription: String { path }
    }

    static let expectations: [Expectation] = [
        Expectation(
            path: "real/evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
            sequences: 4,
            maxSimultaneous: 4
        ),
        Expectation(
            path: "real/evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events",
            sequences: 9,
            maxSimultaneous: 1
        ),
        Expectation(path: "real/evemu-devices/EP0430M09.4-finger-drag-down.events", sequences: 4, maxSimultaneous: 4),
        Expectation(
            path: "real/evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events",
            sequences: 2,
            maxSimultaneous: 2
        ),
        Expectation(
            path: "real/evemu-devices/CyPS2 Cypress Trackpad.three_finger_tap.events",
            sequences: 2,
            maxSimultaneous: 2,
            maxFingerCount: 3
        ),
        Expectation(
            path: "real/evemu-devices/AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.doubletap.events",
            sequences: 2,
            maxSimultaneous: 1
        ),
        Expectation(
            path: "real/chromiumos-autotest/firmware_TouchMTB/tests/data/pinch_to_zoom.zoom_in.dat",
            sequences: 2,
            maxSimultaneous: 2,
            maxFingerCount: 2
        ),
        Expectation(
            path: "real/chromiumos-autotest/firmware_TouchMTB/tests/data/drumroll_lumpy.dat",
            sequences: 7,
            maxSimultaneous: 2
        ),
        Expectation(
            path: "real/chromiumos-autotest/firmware_TouchMTB/tests/data/two_finger_tap.vertical.dat",
            sequences: 1,
            maxSimultaneous: 1,
            maxFingerCount: 2
        ),
    ]

    @Test(
        "the assembler finds the touch sequences and simultaneous contacts the corpus documents",
        .enabled(if: Corpus.isPresent, "the corpus (shared/corpus or GESTURED_CORPUS_DIR) is absent"),
        arguments: expectations
    )
    func statistics(_ expectation: Expectation) throws {
        let url = try #require(Corpus.directory).appendingPathComponent(expectation.path)
        let recording = try RecordingParser.parse(try Corpus.text(of: url), fileName: expectation.path)
        var assembler = FrameAssembler(device: try #require(recording.device))
        let frames = assembler.frames(recording.events)
        let began = Set(frames.flatMap { $0.touches(in: .began) }.map(\.id))
        let simultaneous =
            frames.map { frame in frame.touches.count { $0.phase != .ended && $0.phase != .cancelled } }.max() ?? 0
        #expect(began.count == expectation.sequences)
        #expect(simultaneous == expectation.maxSimultaneous)
        if let fingers = expectation.maxFingerCount {
            #expect(frames.compactMap(\.fingerCount).max() == fingers)
        }
        #expect(frames.allSatisfy { !$0.isSynthetic })
    }
}
