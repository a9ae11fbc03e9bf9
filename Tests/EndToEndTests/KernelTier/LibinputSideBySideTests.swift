import Foundation
import Testing

extension KernelTierTests {
    /// One boot of `Guest/libinput-side-by-side.sh COUNT SEED`: libinput (the
    /// reference for touchpads) and gestured reading the same uinput clickpad
    /// while randomized touchpad gestures are played, compared touch burst by
    /// touch burst.
    ///
    /// The tier plays 24 gestures (about 40 s); the full comparison the
    /// project reports on is 200 or more:
    /// `scripts/vm/run.sh Tests/EndToEndTests/Guest/libinput-side-by-side.sh 200 SEED`
    /// prints every label and each disagreement. `GESTURED_SIDE_BY_SIDE_COUNT`
    /// and `GESTURED_SIDE_BY_SIDE_SEED` change the tier's run.
    @Suite("gestured and libinput side by side on a clickpad")
    struct LibinputSideBySide {
        static let environment = ProcessInfo.processInfo.environment
        static let count = environment["GESTURED_SIDE_BY_SIDE_COUNT"].flatMap(Int.init) ?? 24
        static let seed = environment["GESTURED_SIDE_BY_SIDE_SEED"].flatMap(Int.init) ?? 20_261_130

        static let boot = Task {
            try await KernelTier.run(
                "Tests/EndToEndTests/Guest/libinput-side-by-side.sh",
                arguments: [String(count), String(seed)],
                environment: ["GESTURED_BIN": KernelTier.gesturedExecutable.path],
                timeout: 60 + 2 * count
            )
        }

        /// The label each reader gave each burst, by burst number.
        static func labels(_ run: GuestRun, _ reader: String) -> [Int: String] {
            var labels: [Int: String] = [:]
            for line in run.stdout.split(separator: "\n") where line.hasPrefix("\(reader) ") {
                let words = line.split(separator: " ", maxSplits: 2).map(String.init)
                if words.count == 3, let burst = Int(words[1]) { labels[burst] = words[2] }
            }
            return labels
        }

        @Test("every randomized gesture is played as one touch burst that both readers saw")
        func everyGestureIsABurst() async throws {
            let run = try await Self.boot.value
            #expect(run.exitStatus == 0, run.diagnosis)
            // "bursts N for M script lines" when the two differ
            #expect(!run.facts.contains { $0.first == "bursts" }, run.diagnosis)
            let agreement = try #require(run.facts.first { $0.first == "agreement" }, run.diagnosis)
            #expect(agreement.last == String(Self.count), run.diagnosis)
            #expect(Self.labels(run, "libinput").count == Self.count)
            #expect(Self.labels(run, "gestured").count == Self.count)
        }

        @Test("gestured reports each randomized gesture as the gesture it was scripted to be")
        func gesturedMatchesTheScript() async throws {
            let run = try await Self.boot.value
            let expected = Self.labels(run, "expected")
            let gestured = Self.labels(run, "gestured")
            #expect(expected.count == Self.count, run.diagnosis)
            let wrong = expected.keys.sorted().filter { gestured[$0] != expected[$0] }.map { burst in
                "\(burst): scripted \(expected[burst] ?? "?"), gestured \(gestured[burst] ?? "none")"
            }
            #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
        }

        @Test("libinput agrees with gestured on the randomized gestures (reported, 90% floor)")
        func libinputAgrees() async throws {
            let run = try await Self.boot.value
            let fields = try #require(run.facts.first { $0.first == "agreement" }, run.diagnosis)
            let agreeing = try #require(Int(fields[1]))
            let bursts = try #require(Int(fields[2]))
            let disagreements = run.stdout.split(separator: "\n").filter { $0.hasPrefix("disagreement ") }
            let rate = Double(agreeing) / Double(max(bursts, 1))
            let report = "libinput agrees with gestured on \(agreeing) of \(bursts) gestures (seed \(Self.seed))"
                + disagreements.map { "\n  \($0)" }.joined()
            Attachment.record(report, named: "libinput-side-by-side.txt")
            // The project's goal is 99% (issue 5); remaining disagreements are
            // explained in DESIGN.md. Below 90% the comparison itself is broken.
            #expect(rate >= 0.9, "\(report)")
            #expect(disagreements.count == bursts - agreeing)
        }
    }
}
