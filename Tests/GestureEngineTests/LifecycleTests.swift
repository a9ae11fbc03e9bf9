import Testing

@testable import GestureEngine

@Suite("Disabling, reconfiguring, resetting and bad input (spec §3.3, §2.4, §8)")
struct LifecycleTests {
    /// Frames of a one-finger drag: down at 0, moves every 0.1 s by 5 mm, up at 1.0.
    func drag() -> Fingers {
        var f = Fingers()
        let a = f.down(10, 20, at: 0)
        for k in 1...9 { f.move(a, to: 10 + Double(k) * 5, 20, at: Double(k) * 0.1) }
        f.up(a, at: 1.0)
        return f
    }

    @Test("disabling a pan in progress cancels it; it sees nothing more of those touches")
    func disableCancels() {
        var h = Harness([recognizer("pan", pan())])
        let f = drag()
        for frame in f.frames.prefix(3) { h.record(h.engine.process(frame)) }
        h.record(h.engine.setEnabled(false, name: "pan", at: Timestamp(seconds: 0.25)))
        for frame in f.frames.dropFirst(3) { h.record(h.engine.process(frame)) }
        #expect(h.summary == ["pan began@0.100", "pan changed@0.200", "pan cancelled@0.250"])
        #expect(h.engine.state(of: "pan") == .possible)
        #expect(h.engine.configuration.recognizers[0].isEnabled == false)
        // Enabled again, it takes new touches only.
        h.record(h.engine.setEnabled(true, name: "pan", at: Timestamp(seconds: 1.1)))
        var g = Fingers(firstID: 10)
        g.tick(at: 1.2)
        let b = g.down(10, 20, at: 1.3)
        g.move(b, to: 20, 20, at: 1.4)
        g.up(b, at: 1.5)
        h.run(g)
        #expect(h.summary.suffix(2) == ["pan began@1.400", "pan ended@1.500"])
        #expect(h.checker.violations.isEmpty)
    }

    @Test("disabling the double tap releases a single tap waiting for it")
    func disableReleasesDependent() {
        var h = Harness([
            recognizer("single", tap()) { $0.requiresFailureOf = ["double"] },
            recognizer("double", tap(taps: 2)),
        ])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        f.up(a, at: 0.1)
        for frame in f.frames { h.record(h.engine.process(frame)) }
        h.record(h.engine.setEnabled(false, name: "double", at: Timestamp(seconds: 0.2)))
        #expect(h.summary == ["single recognized@0.200"])
    }

    @Test("an engine made with a first sequence numbers its attempts from there (a replugged device's gesture ids are new)")
    func firstSequence() {
        var first = Harness([recognizer("pan", pan())])
        first.run(drag())
        let used = first.gestures.map(\.sequence)
        #expect(!used.isEmpty && used.allSatisfy { $0 < first.engine.upcomingSequence })
        var second = Harness([recognizer("pan", pan())])
        second.engine = GestureEngine(
            device: testDevice, configuration: EngineConfiguration(recognizers: [recognizer("pan", pan())]),
            firstSequence: first.engine.upcomingSequence)
        second.run(drag())
        let again = second.gestures.map(\.sequence)
        #expect(!again.isEmpty && Set(again).isDisjoint(with: used), "\(used) then \(again)")
    }

    @Test("an unknown name is a configuration diagnostic, not a crash")
    func unknownName() {
        var engine = GestureEngine(device: testDevice, configuration: EngineConfiguration())
        let out = engine.setEnabled(false, name: "nope", at: .zero)
        #expect(out.isEmpty)
        #expect(engine.drainDiagnostics() == [.configuration("no recognizer named 'nope' to disable")])
    }

    @Test("reconfigure keeps unchanged recognizers running and cancels changed ones")
    func reconfigure() {
        var h = Harness([
            recognizer("pan", pan()), recognizer("press", longPress()) { $0.region = .edge(.top, width: 5) },
        ])
        var f = Fingers()
        let a = f.down(10, 20, at: 0)
        f.move(a, to: 20, 20, at: 0.1)
        let b = f.down(50, 2, at: 0.15)
        for frame in f.frames { h.record(h.engine.process(frame)) }
        // Two pans on separate regions: "pan" is unchanged, "press" changes, "other" is new.
        let next = EngineConfiguration(recognizers: [
            recognizer("other", tap()),
            recognizer("pan", pan()),
            recognizer("press", longPress { $0.minimumPressDuration = 1 }) { $0.region = .edge(.top, width: 5) },
        ])
        h.record(h.engine.reconfigure(next, at: Timestamp(seconds: 0.2)))
        var g = Fingers()
        g.tick(at: 0.3)
        h.run(g, until: 0.35)
        for frame in [
            Frame(
                timestamp: Timestamp(seconds: 0.4),
                touches: [
                    Touch(id: a, phase: .moved, position: PhysicalPoint(x: 30, y: 20), startTime: .zero),
                    Touch(id: b, phase: .stationary, position: PhysicalPoint(x: 50, y: 2), startTime: .zero),
                ]
            ),
            Frame(
                timestamp: Timestamp(seconds: 0.5),
                touches: [
                    Touch(id: a, phase: .ended, position: PhysicalPoint(x: 30, y: 20), startTime: .zero),
                    Touch(id: b, phase: .ended, position: PhysicalPoint(x: 50, y: 2), startTime: .zero),
                ]
            ),
        ] {
            h.record(h.engine.process(frame))
        }
        h.record(h.engine.advance(to: Timestamp(seconds: 3)))
        #expect(h.summary == ["pan began@0.100", "pan changed@0.400", "pan ended@0.500"])
        #expect(Set(h.events("pan").map(\.sequence)).count == 1)
        #expect(h.engine.engineOrder == ["press", "other", "pan"])
        #expect(h.checker.violations.isEmpty)
    }

    @Test("reconfigure cancels a changed recognizer's gesture in progress")
    func reconfigureCancels() {
        var h = Harness([recognizer("pan", pan())])
        let f = drag()
        for frame in f.frames.prefix(3) { h.record(h.engine.process(frame)) }
        h.record(
            h.engine.reconfigure(
                EngineConfiguration(recognizers: [recognizer("pan", pan { $0.hysteresis = 3 })]),
                at: Timestamp(seconds: 0.25)
            )
        )
        for frame in f.frames.dropFirst(3) { h.record(h.engine.process(frame)) }
        #expect(h.summary == ["pan began@0.100", "pan changed@0.200", "pan cancelled@0.250"])
    }

    @Test("reset cancels gestures in progress, fails possible ones and cancels touches at the sink")
    func resetCancelsEverything() {
        var h = Harness([
            recognizer("pan", pan()) { $0.region = .fraction(x: 0, y: 0, width: 0.5, height: 1) },
            recognizer("tap", tap()) { $0.region = .edge(.right, width: 10) },
        ])
        var f = Fingers()
        let a = f.down(10, 20, at: 0)
        f.move(a, to: 20, 20, at: 0.1)
        f.down(95, 20, at: 0.15)
        for frame in f.frames { h.record(h.engine.process(frame)) }
        h.record(h.engine.reset(at: Timestamp(seconds: 0.2)))
        #expect(h.summary == ["pan began@0.100", "pan cancelled@0.200"])
        #expect(h.sinkEvents.filter { $0.touch == TouchID(2) }.map(\.phase) == [.began, .cancelled])
        #expect(h.engine.nextDeadline == nil)
        h.checker.finish()
        #expect(h.checker.violations.isEmpty)
    }

    @Test("touches above maxTouches never exist for recognizers or the sink")
    func touchCap() {
        var h = Harness([recognizer("tap", tap(touches: 2))], maxTouches: 2)
        var f = Fingers()
        let a = f.down(10, 20, at: 0)
        let b = f.down(20, 20, at: 0)
        let c = f.down(30, 20, at: 0.01)
        f.up(a, at: 0.1)
        f.up(b, at: 0.1)
        f.up(c, at: 0.1)
        h.run(f)
        #expect(h.summary == ["tap recognized@0.100"])
        #expect(!h.sinkEvents.contains { $0.touch == c })
    }

    @Test("a move of a touch that never began is repaired and reported as a kernel bug")
    func moveBeforeBegan() {
        var h = Harness([recognizer("tap", tap())])
        let t = Touch(id: TouchID(7), phase: .moved, position: PhysicalPoint(x: 10, y: 10), startTime: .zero)
        h.record(h.engine.process(Frame(timestamp: .zero, touches: [t])))
        var up = t
        up.phase = .ended
        h.record(h.engine.process(Frame(timestamp: Timestamp(seconds: 0.1), touches: [up])))
        #expect(h.summary == ["tap recognized@0.100"])
        #expect(h.diagnostics.contains(.kernelBug("touch #7 moved before it began; treated as began")))
    }

    @Test("a touch that begins and ends in one frame is delivered as both")
    func beganAndEndedInOneFrame() {
        var h = Harness([recognizer("tap", tap())])
        let t = Touch(id: TouchID(1), phase: .ended, position: PhysicalPoint(x: 10, y: 10), startTime: .zero)
        h.record(h.engine.process(Frame(timestamp: Timestamp(seconds: 0.1), touches: [t])))
        #expect(h.summary == ["tap recognized@0.100"])
    }

    @Test("time never goes backwards and empty frames still run timers")
    func monotonicTime() {
        var h = Harness([recognizer("press", longPress())])
        var f = Fingers()
        f.down(10, 10, at: 1.0)
        f.tick(at: 1.6)
        for frame in f.frames { h.record(h.engine.process(frame)) }
        #expect(h.summary == ["press began@1.500"])
        // An older frame time is treated as the current time.
        h.record(h.engine.process(Frame(timestamp: Timestamp(seconds: 1.2), touches: [])))
        #expect(h.checker.violations.isEmpty)
        #expect(h.engine.advance(to: Timestamp(seconds: 0.5)).isEmpty)
    }

    @Test("equal frame timestamps skip velocity samples without dividing by zero")
    func zeroDeltaTime() {
        var h = Harness([
            recognizer("pan", pan()), recognizer("pinch", pinch()) { $0.recognizesSimultaneouslyWith = ["pan"] },
        ])
        let a = TouchID(1)
        let b = TouchID(2)
        func frame(_ t: Double, _ phase: TouchPhase, _ xa: Double, _ xb: Double) -> Frame {
            Frame(
                timestamp: Timestamp(seconds: t),
                touches: [
                    Touch(id: a, phase: phase, position: PhysicalPoint(x: xa, y: 20), startTime: .zero),
                    Touch(id: b, phase: phase, position: PhysicalPoint(x: xb, y: 20), startTime: .zero),
                ]
            )
        }
        for fr in [
            frame(0, .began, 10, 30), frame(0.1, .moved, 5, 40), frame(0.1, .moved, 0, 50), frame(0.2, .ended, 0, 50),
        ] {
            h.record(h.engine.process(fr))
        }
        #expect(h.events("pinch").count == 3)
        #expect(h.gestures.allSatisfy { ($0.scalarVelocity ?? 0).isFinite && ($0.velocity?.x ?? 0).isFinite })
        #expect(h.checker.violations.isEmpty)
    }

    @Test("touches still down when a recognizer resets are never offered to it again (spec §8.11)")
    func staleTouchesAfterReset() {
        var h = Harness([recognizer("press", longPress { $0.numberOfTouchesRequired = 2 })])
        var f = Fingers()
        let a = f.down(10, 10, at: 0)
        let b = f.down(20, 10, at: 0)
        f.up(a, at: 0.6)  // ends the press; b stays down
        let c = f.down(30, 10, at: 0.7)  // only c is new: one finger, never two
        f.up(c, at: 1.5)
        f.up(b, at: 1.6)
        h.run(f)
        #expect(h.summary == ["press began@0.500", "press ended@0.600"])
    }
}
