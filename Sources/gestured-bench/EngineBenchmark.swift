import GestureEngine
import GesturedConfig
import GesturedDaemon
import GesturedSystem

/// `gestured-bench engine`: the recognizer engine with the default gestures plus region-scoped
/// extras (24 recognizers) on the demo touchscreen, 1, 2, 5 and 10 fingers moving at 240 Hz.
/// Baseline in the same run: the frame assembler alone on the same events.
struct EngineBenchmark {
    var repetitions: Int
    /// Finger counts to run (`--fingers 10` for profiling one case).
    var fingerCounts = [1, 2, 5, 10]
    /// Each measurement is repeated this often and the run with the lowest median kept: other
    /// jobs on a shared machine only ever add time.
    var runs = 3

    /// Region-scoped recognizers added to the defaults so that at least 20 recognizers run,
    /// spread over halves, quadrants, corners and edge bands of the surface.
    static let extraGestures = """

        [Gesture bench-pan-left-half]
        Kind=pan
        Region=rect:0%,0%,50%,100%

        [Gesture bench-pan-right-half]
        Kind=pan
        Region=rect:50%,0%,50%,100%

        [Gesture bench-two-finger-pan-top]
        Kind=pan
        Region=rect:0%,0%,100%,50%
        MinimumNumberOfTouches=2

        [Gesture bench-tap-top-left]
        Kind=tap
        Region=rect:0mm,0mm,60mm,40mm

        [Gesture bench-two-finger-tap-bottom-right]
        Kind=tap
        Region=rect:70%,70%,30%,30%
        Fingers=2

        [Gesture bench-hold-center]
        Kind=long_press
        Region=rect:25%,25%,50%,50%

        [Gesture bench-pinch-right]
        Kind=pinch
        Region=rect:50%,0%,50%,100%

        [Gesture bench-rotate-left]
        Kind=rotation
        Region=rect:0%,0%,50%,100%

        [Gesture bench-swipe-bottom]
        Kind=swipe
        Region=edge:bottom:20mm
        Directions=left,right

        [Gesture bench-edge-pan-left-wide]
        Kind=edge_pan
        Region=edge:left:10mm
        Edges=left
        """

    static let device = GestureSynthesizer.demoTouchscreen

    /// The default configuration plus ``extraGestures``, for the demo touchscreen.
    static func configuration() -> EngineConfiguration {
        let parsed = Configuration.parse(EmbeddedResources.defaultConfiguration + extraGestures, fileName: "bench.conf")
        if parsed.hasErrors {
            for d in parsed.errors { writeStandardError("gestured-bench: \(d)\n") }
            exitProcess(1)
        }
        return parsed.configuration.engineConfiguration(for: device, kind: .touchscreen)
    }

    /// One repetition of the workload for `fingers` fingers: drags across both halves, then
    /// (two fingers or more) a pinch and a rotation, each about a second of frames.
    static func script(_ s: GestureSynthesizer, fingers: Int) -> GestureScript {
        var parts = [
            s.drag(fingers: fingers, from: .fraction(x: 0.3, y: 0.5), to: .fraction(x: 0.7, y: 0.5), duration: 1),
            s.drag(fingers: fingers, from: .fraction(x: 0.6, y: 0.4), to: .fraction(x: 0.4, y: 0.6), duration: 1),
        ]
        if fingers >= 2 {
            parts.append(s.pinch(scale: 1.8, fingers: fingers, at: .fraction(x: 0.45, y: 0.5), span: 50, duration: 1))
            parts.append(s.rotation(angle: 1.2, fingers: fingers, at: .fraction(x: 0.55, y: 0.5), span: 60, duration: 1))
        } else {
            parts.append(s.drag(fingers: 1, from: .fraction(x: 0.5, y: 0.2), to: .fraction(x: 0.5, y: 0.8), duration: 1))
        }
        return .sequence(parts, gap: 0.3)
    }

    /// The events of `repetitions` repetitions, split at each `SYN_REPORT`.
    static func eventGroups(fingers: Int, repetitions: Int) -> [[RawEvent]] {
        var synthesizer = GestureSynthesizer(device: device, frameInterval: 1.0 / 240, jitterMillimeters: 0.05, seed: 7)
        let one = script(synthesizer, fingers: fingers)
        let events = synthesizer.events(for: .sequence(Array(repeating: one, count: repetitions), gap: 0.3))
        var groups: [[RawEvent]] = []
        var current: [RawEvent] = []
        for event in events {
            current.append(event)
            if event.usage == .synReport {
                groups.append(current)
                current = []
            }
        }
        return groups
    }

    /// Per-frame times (ns) and allocation counts of the measured frames.
    struct Measurement {
        var nanoseconds: [UInt64] = []
        var allocations: [UInt64] = []
        /// Frames whose touches all moved or stayed (no touch began, ended or was cancelled)
        /// and in which no recognizer changed state (the engine noted no transition).
        var isSteady: [Bool] = []

        func line(_ label: String, baseline: Measurement?) -> String {
            let times = Summary(nanoseconds)
            let steadyAllocations = zip(allocations, isSteady).filter(\.1).map(\.0)
            let total = allocations.reduce(0, +)
            let steadyTotal = steadyAllocations.reduce(0, +)
            var text = padRight(label, 22)
            text += pad(fixed(times.median, 0), 8) + pad(fixed(times.p99, 0), 8)
            text += pad(fixed(Double(total) / Double(max(allocations.count, 1)), 2), 9)
            text += pad(fixed(Double(steadyTotal) / Double(max(steadyAllocations.count, 1)), 2), 10)
            text += pad(String(allocations.count { $0 > 0 }), 9)
            if let baseline {
                text += pad(fixed(times.median / Summary(baseline.nanoseconds).median, 1) + "x", 9)
            }
            return text
        }
    }

    func run() {
        let configuration = Self.configuration()
        let regions = Set(configuration.recognizers.map { "\($0.region)" }).count
        let overhead = Self.clockOverhead()
        print("gestured-bench engine: \(configuration.recognizers.count) recognizers over \(regions) regions")
        print("device: \(Self.device.name), \(fixed(Self.device.widthMillimeters, 0))x\(fixed(Self.device.heightMillimeters, 0)) mm, 240 Hz, jitter 0.05 mm")
        print("repetitions: \(repetitions) (the first is warm-up and not measured); each line is the best of \(runs) runs (lowest median)")
        print("clock read: median \(fixed(overhead, 0)) ns (included in every figure below)")
        print("allocations: malloc/calloc/realloc/memalign calls counted by wrappers (Sources/CBenchSupport)")
        print("")
        for fingers in fingerCounts {
            let groups = Self.eventGroups(fingers: fingers, repetitions: repetitions)
            let warmup = Self.eventGroups(fingers: fingers, repetitions: 1).count
            let frames = Self.frames(groups)
            let assembler = best { measureAssembler(groups, warmup: warmup) }
            let engine = best { measureEngine(frames, warmup: warmup, reusingOutput: false) }
            let engineInto = best { measureEngine(frames, warmup: warmup, reusingOutput: true) }
            let pipeline = best { measurePipeline(groups, warmup: warmup) }
            let daemonPipeline = best { measureDaemonPipeline(groups, warmup: warmup) }
            print("\(fingers) finger(s): \(assembler.nanoseconds.count) frames measured")
            print(
                padRight("", 22) + pad("median", 8) + pad("p99", 8) + pad("alloc/f", 9) + pad("steady/f", 10)
                    + pad("allocf", 9) + pad("ratio", 9)
            )
            print(assembler.line("  assembler (baseline)", baseline: nil))
            print(engine.line("  engine process(_:)", baseline: assembler))
            print(engineInto.line("  engine process(into:)", baseline: assembler))
            print(pipeline.line("  assembler + engine", baseline: assembler))
            print(daemonPipeline.line("  + touch filter", baseline: assembler))
        }
        print("")
        print("median/p99: ns per frame; alloc/f: heap allocations per frame (all measured frames);")
        print("steady/f: per frame in which no touch began or ended and no recognizer changed state;")
        print("allocf: frames with any allocation;")
        print("ratio: median against the assembler alone on the same events.")
    }

    /// The run with the lowest median of ``runs`` runs.
    func best(_ measure: () -> Measurement) -> Measurement {
        var kept: Measurement?
        for _ in 0..<max(runs, 1) {
            let m = measure()
            if kept.map({ Summary(m.nanoseconds).median < Summary($0.nanoseconds).median }) ?? true { kept = m }
        }
        return kept!
    }

    static func clockOverhead() -> Double {
        var samples: [UInt64] = []
        samples.reserveCapacity(10_000)
        for _ in 0..<10_000 {
            let t0 = monotonicNanoseconds()
            let t1 = monotonicNanoseconds()
            samples.append(t1 - t0)
        }
        return Summary(samples).median
    }

    static func frames(_ groups: [[RawEvent]]) -> [Frame?] {
        var assembler = FrameAssembler(device: device)
        return groups.map { group in
            var frame: Frame?
            for event in group { if let f = assembler.feed(event) { frame = f } }
            return frame
        }
    }

    static func isSteady(_ frame: Frame?) -> Bool {
        guard let frame else { return true }
        return frame.touches.allSatisfy { $0.phase == .moved || $0.phase == .stationary }
    }

    func measureAssembler(_ groups: [[RawEvent]], warmup: Int) -> Measurement {
        var assembler = FrameAssembler(device: Self.device)
        var m = Measurement()
        m.nanoseconds.reserveCapacity(groups.count)
        m.allocations.reserveCapacity(groups.count)
        m.isSteady.reserveCapacity(groups.count)
        var checksum = 0
        for (k, group) in groups.enumerated() {
            let a0 = allocationCount()
            let t0 = monotonicNanoseconds()
            var last: Frame?
            for event in group {
                if let frame = assembler.feed(event) {
                    checksum &+= frame.touches.count
                    last = frame
                }
            }
            let t1 = monotonicNanoseconds()
            let a1 = allocationCount()
            let steady = Self.isSteady(last)
            _ = assembler.drainDiagnostics()
            guard k >= warmup else { continue }
            m.nanoseconds.append(t1 - t0)
            m.allocations.append(a1 - a0)
            m.isSteady.append(steady)
        }
        if checksum == -1 { print(checksum) }
        return m
    }

    func measureEngine(_ frames: [Frame?], warmup: Int, reusingOutput: Bool) -> Measurement {
        var engine = GestureEngine(device: Self.device, configuration: Self.configuration())
        var m = Measurement()
        m.nanoseconds.reserveCapacity(frames.count)
        m.allocations.reserveCapacity(frames.count)
        m.isSteady.reserveCapacity(frames.count)
        var outputs: [EngineOutput] = []
        outputs.reserveCapacity(64)
        var checksum = 0
        for (k, frame) in frames.enumerated() {
            guard let frame else { continue }
            let a0 = allocationCount()
            let t0 = monotonicNanoseconds()
            if reusingOutput {
                outputs.removeAll(keepingCapacity: true)
                engine.process(frame, into: &outputs)
                checksum &+= outputs.count
            } else {
                checksum &+= engine.process(frame).count
            }
            let t1 = monotonicNanoseconds()
            let a1 = allocationCount()
            let transitions = engine.drainDiagnostics().count
            guard k >= warmup else { continue }
            m.nanoseconds.append(t1 - t0)
            m.allocations.append(a1 - a0)
            m.isSteady.append(Self.isSteady(frame) && transitions == 0)
        }
        if checksum == -1 { print(checksum) }
        return m
    }

    /// Times `run` on every group of events after the first `warmup`: nanoseconds and heap
    /// allocations per group, and whether it was steady (`isSteady`, asked untimed).
    func measureGroups(
        _ groups: [[RawEvent]],
        warmup: Int,
        run: (_ group: [RawEvent], _ outputs: inout [EngineOutput]) -> Void,
        isSteady: () -> Bool
    ) -> Measurement {
        var m = Measurement()
        m.nanoseconds.reserveCapacity(groups.count)
        m.allocations.reserveCapacity(groups.count)
        m.isSteady.reserveCapacity(groups.count)
        var outputs: [EngineOutput] = []
        outputs.reserveCapacity(64)
        var checksum = 0
        for (k, group) in groups.enumerated() {
            let a0 = allocationCount()
            let t0 = monotonicNanoseconds()
            outputs.removeAll(keepingCapacity: true)
            run(group, &outputs)
            checksum &+= outputs.count
            let t1 = monotonicNanoseconds()
            let a1 = allocationCount()
            let steady = isSteady()
            guard k >= warmup else { continue }
            m.nanoseconds.append(t1 - t0)
            m.allocations.append(a1 - a0)
            m.isSteady.append(steady)
        }
        if checksum == -1 { print(checksum) }
        return m
    }

    /// The daemon's per-device path (`GesturePipeline`: assembler, touch filter, engine), as
    /// `InputHub` runs it for every read.
    func measureDaemonPipeline(_ groups: [[RawEvent]], warmup: Int) -> Measurement {
        var pipeline = GesturePipeline(node: "bench", device: Self.device, configuration: Self.configuration())
        return measureGroups(groups, warmup: warmup) { group, outputs in
            pipeline.feed(group, into: &outputs)
        } isSteady: {
            pipeline.drainDiagnostics().isEmpty
        }
    }

    func measurePipeline(_ groups: [[RawEvent]], warmup: Int) -> Measurement {
        var assembler = FrameAssembler(device: Self.device)
        var engine = GestureEngine(device: Self.device, configuration: Self.configuration())
        var last: Frame?
        return measureGroups(groups, warmup: warmup) { group, outputs in
            last = nil
            for event in group {
                if let frame = assembler.feed(event) {
                    engine.process(frame, into: &outputs)
                    last = frame
                }
            }
        } isSteady: {
            let transitions = assembler.drainDiagnostics().count + engine.drainDiagnostics().count
            return Self.isSteady(last) && transitions == 0
        }
    }
}
