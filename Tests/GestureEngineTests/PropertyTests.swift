import GesturedRandom
import Testing

@testable import GestureEngine

@Suite("Properties over random finger scripts")
struct PropertyTests {
    /// Every recognizer kind, with relations that exercise exclusion, simultaneity and
    /// require-to-fail, plus a custom one.
    static let everything: [RecognizerConfiguration] = [
        recognizer("single", tap()) { $0.requiresFailureOf = ["double"] },
        recognizer("double", tap(taps: 2)),
        recognizer("two-finger-tap", tap(touches: 2)),
        recognizer("press", longPress()),
        recognizer("tap-press", longPress { $0.numberOfTapsRequired = 1 }),
        recognizer("pan", pan()) { $0.requiresFailureOf = ["swipe"] },
        recognizer("two-finger-pan", pan { $0.minimumNumberOfTouches = 2 }) { $0.cancelsTouchesInView = false },
        recognizer("swipe", swipe([.left, .right, .up, .down])),
        recognizer("three-swipe", swipe([.left, .right], touches: 3)),
        recognizer("pinch", pinch()) { $0.recognizesSimultaneouslyWith = ["rotation", "two-finger-pan"] },
        recognizer("rotation", rotation()),
        recognizer("pinch3", pinch { $0.numberOfTouchesRequired = 3 }),
        recognizer("edge", edgePan([.left, .top])) { $0.priority = 1 },
        recognizer("corner", tap()) { $0.region = .fraction(x: 0.8, y: 0.8, width: 0.2, height: 0.2) },
        recognizer("tickle", .tickle(TickleParameters())),
        recognizer("still", .custom(AnyCustomRecognizer(HoldStill()))) { $0.delaysTouchesBegan = true },
    ]

    /// A random script: up to 4 fingers going down, wandering and lifting, some cancelled, with
    /// frame gaps from 0 (equal timestamps) to 0.4 s; every finger lifts by the end.
    static func script(seed: UInt64) -> Fingers {
        var rng = SplitMix64(seed: seed)
        var f = Fingers()
        var down: [(TouchID, PhysicalPoint)] = []
        var t = 0.0
        let frames = Int.random(in: 5...60, using: &rng)
        for _ in 0..<frames {
            let gap = [0.0, 0.008, 0.012, 0.02, 0.05, 0.15, 0.4].randomElement(using: &rng)!
            t += gap
            if gap == 0 { t += 0.000001 }  // the script builder wants increasing times
            let action = Int.random(in: 0..<10, using: &rng)
            if (action < 2 && down.count < 4) || down.isEmpty {
                let p = PhysicalPoint(
                    x: Double.random(in: 0...100, using: &rng),
                    y: Double.random(in: 0...60, using: &rng)
                )
                down.append((f.down(p.x, p.y, at: t), p))
            } else if action < 3 {
                let k = Int.random(in: 0..<down.count, using: &rng)
                f.up(down.remove(at: k).0, at: t, cancelled: Int.random(in: 0..<8, using: &rng) == 0)
            } else if action == 3 {
                f.tick(at: t)
            } else {
                let step = Double.random(in: 0.2...8, using: &rng)
                let heading = Double.random(in: -Double.pi...Double.pi, using: &rng)
                for k in down.indices {
                    let jitter = Double.random(in: -0.5...0.5, using: &rng)
                    var p =
                        down[k].1 + PhysicalPoint(x: step * cosine(heading + jitter), y: step * sine(heading + jitter))
                    p.x = min(max(p.x, 0), 100)
                    p.y = min(max(p.y, 0), 60)
                    down[k].1 = p
                    f.move(down[k].0, to: p.x, p.y, at: t)
                }
            }
        }
        t += 0.01
        for (id, _) in down { f.up(id, at: t) }
        return f
    }

    @Test("200 seeded random scripts keep the output contract", arguments: 0..<4)
    func randomScripts(batch: Int) {
        for seed in UInt64(batch * 50)..<UInt64(batch * 50 + 50) {
            var h = Harness(Self.everything)
            h.run(Self.script(seed: seed))
            h.checker.finish()
            #expect(h.checker.violations.isEmpty, "seed \(seed): \(h.checker.violations)")
            #expect(h.engine.nextDeadline == nil, "seed \(seed): a timer outlived every touch")
            #expect(h.engine.slots.allSatisfy { $0.state == .possible && $0.history.isEmpty }, "seed \(seed)")
            #expect(h.engine.sink.isEmpty, "seed \(seed): sink records left")
        }
    }

    @Test("the same script gives the same transcript twice")
    func deterministic() {
        var a = Harness(Self.everything)
        var b = Harness(Self.everything)
        a.run(Self.script(seed: 42))
        b.run(Self.script(seed: 42))
        #expect(a.transcript == b.transcript)
        #expect(!a.transcript.isEmpty)
    }

    @Test("random scripts do produce gestures of many kinds (the generator is not idle)")
    func coverage() {
        var kinds: Set<String> = []
        for seed in UInt64(0)..<200 {
            var h = Harness(Self.everything)
            h.run(Self.script(seed: seed))
            for e in h.gestures { kinds.insert(e.name) }
        }
        #expect(kinds.count >= 6, "\(kinds.sorted())")
    }
}
