import GestureEngine
import GesturedConfig
#if canImport(Glibc)
import Glibc
#endif

/// Fuzz target: arbitrary event streams (any type, code and value; slots out of range;
/// tracking ids reused; SYN_REPORT missing; SYN_DROPPED anywhere; time going backwards)
/// through the daemon's own ``GesturePipeline`` — frame assembler, touch filter and engine,
/// with the shipped configuration's recognizers — on the project's device descriptions and
/// on descriptions made from the input (zero ranges, no resolution, inverted axes).
/// The ``ConsistencyChecker`` must find nothing, and once the stream ends and every
/// deadline has fired, nothing may be left open and no contact may still be delivered.
///
/// Input: one byte choosing the device (or a description read from the next bytes), one
/// choosing the configuration, then 8-byte records: operation, code, time step, spare byte,
/// 32-bit value. See ``PipelineProgram``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let (device, known) = PipelineProgram.device(from: &input)
    let configurations = PipelineProgram.configurations
    let configurationIndex = input.choose(configurations.count)
    // A project device starts from its pipeline built once (a copy of a value: the same
    // state a fresh pipeline has, without building the engine's recognizers again).
    var pipeline =
        known.map { PipelineProgram.pipelines[$0][configurationIndex] }
        ?? GesturePipeline(
            node: "fuzz",
            device: device,
            configuration: configurations[configurationIndex].engineConfiguration(for: device)
        )
    var checker = ConsistencyChecker()
    var time: Int64 = 1_000_000
    while !input.isAtEnd {
        let step = PipelineProgram.step(from: &input, device: device, time: &time)
        switch step {
        case .event(let event): checker.feed(pipeline.feed(CollectionOfOne(event)))
        case .advance: checker.feed(pipeline.advance(to: Timestamp(microseconds: time)))
        case .cancelAll: checker.feed(pipeline.cancelAll(at: Timestamp(microseconds: time)))
        case .reconfigure(let index):
            let other =
                known.map { PipelineProgram.engineConfigurations[$0][index % configurations.count] }
                ?? configurations[index % configurations.count].engineConfiguration(for: device)
            checker.feed(pipeline.reconfigure(other, at: Timestamp(microseconds: time)))
        }
        // What every call above left for the daemon's timer (`nextDeadline` as of that call).
        if let deadline = pipeline.storedDeadline, deadline.microseconds > Int64.max / 4 {
            fuzzFailure("a deadline at \(deadline)")
        }
        _ = pipeline.drainDiagnostics()
    }
    checker.feed(pipeline.finishReplay())
    checker.finish()
    if let violation = checker.violations.first {
        fuzzFailure("\(checker.violations.count) consistency violations, first: \(violation)")
    }
    if pipeline.assembler.activeTouchCount != 0 {
        fuzzFailure("\(pipeline.assembler.activeTouchCount) contacts still delivered after the end")
    }
    if pipeline.storedDeadline != pipeline.nextDeadline {
        fuzzFailure("the stored deadline \(String(describing: pipeline.storedDeadline)) is not the next one")
    }
    if pipeline.nextDeadline != nil {
        fuzzFailure("a deadline still pending after the end: \(String(describing: pipeline.nextDeadline))")
    }
    return 0
}

/// Builds seeds from the project's evemu fixtures when `GESTURED_FUZZ_SEEDS_FROM` (a list
/// of files, `:`-separated) and `GESTURED_FUZZ_SEEDS_TO` (a directory) are set, then exits.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzPipelineInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard let from = getenv("GESTURED_FUZZ_SEEDS_FROM"), let to = getenv("GESTURED_FUZZ_SEEDS_TO") else { return 0 }
    let directory = String(cString: to)
    var written = 0
    for path in String(cString: from).split(separator: ":").map(String.init) {
        guard let text = FuzzFiles.read(path),
            let recording = try? RecordingParser.parse(text, fileName: path), let device = recording.device
        else { continue }
        for (deviceIndex, known) in PipelineProgram.devices.enumerated() where known.axes == device.axes {
            let bytes = PipelineProgram.encode(recording.events, deviceIndex: deviceIndex, device: device)
            let name = directory + "/" + (path.split(separator: "/").last.map(String.init) ?? "seed") + ".bin"
            if FuzzFiles.write(bytes, to: name) { written += 1 }
            break
        }
    }
    print("pipeline: wrote \(written) seeds to \(directory)")
    exit(0)
}

enum Step {
    case event(RawEvent)
    case advance
    case cancelAll
    case reconfigure(Int)
}

enum PipelineProgram {
    /// The project's own descriptions: the demo touchscreen and clickpad, and the kernel
    /// tier's touchscreen and touchpad.
    static let devices: [DeviceDescription] = {
        let files = [
            "Tests/GestureEngineTests/Fixtures/gestured-demo-touchscreen/tap.evemu",
            "Tests/GestureEngineTests/Fixtures/gestured-demo-clickpad/three-finger-swipe-left.evemu",
            "Tests/EndToEndTests/Devices/elan-touchscreen.desc",
            "Tests/EndToEndTests/Devices/logitech-t650.desc",
        ]
        let found = files.compactMap { file -> DeviceDescription? in
            guard let text = FuzzFiles.read(file) else { return nil }
            return try? RecordingParser.parseDescription(text, fileName: file)
        }
        if found.count != files.count { fuzzFailure("device descriptions missing under \(FuzzFiles.root)") }
        return found
    }()

    /// Each project device's engine configuration under each configuration, made once.
    static let engineConfigurations: [[EngineConfiguration]] = devices.map { device in
        configurations.map { $0.engineConfiguration(for: device) }
    }

    /// A fresh pipeline per project device and configuration, built once; each input starts
    /// from a copy.
    static let pipelines: [[GesturePipeline]] = devices.indices.map { index in
        engineConfigurations[index].map { GesturePipeline(node: "fuzz", device: devices[index], configuration: $0) }
    }

    /// The shipped configuration and the evaluation's.
    static let configurations: [Configuration] = {
        ["config/gestured.conf", "config/evaluation.conf"].map { file in
            guard let text = FuzzFiles.read(file) else { fuzzFailure("\(file) missing under \(FuzzFiles.root)") }
            let result = Configuration.parse(text, fileName: file)
            if result.hasErrors { fuzzFailure("\(file) does not parse: \(result.errors)") }
            return result.configuration
        }
    }()

    static let absCodes: [EventUsage] = [
        .absMTSlot, .absMTTrackingID, .absMTPositionX, .absMTPositionY, .absMTPressure, .absMTTouchMajor,
        .absMTTouchMinor, .absMTToolType, .absMTWidthMajor, .absMTOrientation, .absMTDistance, .absX, .absY,
        .absPressure, .absToolWidth, .absMTBlobID,
    ]
    static let keyCodes: [EventUsage] = [
        .btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap,
        .btnLeft, .btnRight, .btnToolPen, .btnStylus,
    ]

    /// The device, and its index in ``devices`` when it is one of the project's.
    static func device(from input: inout FuzzInput) -> (DeviceDescription, Int?) {
        let choice = Int(input.byte())
        if choice < 200 { return (devices[choice % devices.count], choice % devices.count) }
        // A description from the input: whatever ranges and resolutions a device might claim.
        let flags = input.byte()
        let slots = Int32(input.byte() % 12)
        func axis() -> AxisInfo {
            let a = Int32(truncatingIfNeeded: Int16(bitPattern: input.uint16())) * Int32(1 + Int(input.byte() % 64))
            let b = Int32(truncatingIfNeeded: Int16(bitPattern: input.uint16())) * Int32(1 + Int(input.byte() % 64))
            return AxisInfo(minimum: min(a, b), maximum: flags & 0x40 != 0 ? min(a, b) : max(a, b), resolution: Int32(input.byte() % 40))
        }
        var axes: [UInt16: AxisInfo] = [:]
        var codes: Set<EventUsage> = [.synReport]
        let x = axis()
        let y = axis()
        axes[EventUsage.absX.code] = x
        axes[EventUsage.absY.code] = y
        if flags & 0x01 != 0 {
            axes[EventUsage.absMTPositionX.code] = x
            axes[EventUsage.absMTPositionY.code] = y
            axes[EventUsage.absMTTrackingID.code] = AxisInfo(minimum: 0, maximum: 65_535)
            if slots > 0 { axes[EventUsage.absMTSlot.code] = AxisInfo(minimum: 0, maximum: slots - 1) }
        }
        if flags & 0x02 != 0 { axes[EventUsage.absMTPressure.code] = axis() }
        if flags & 0x04 != 0 { axes[EventUsage.absMTTouchMajor.code] = axis() }
        if flags & 0x08 != 0 { codes.formUnion([.btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap]) }
        var properties: Set<InputProperty> = []
        if flags & 0x10 != 0 { properties.insert(.direct) } else { properties.insert(.pointer) }
        if flags & 0x20 != 0 { properties.insert(.buttonpad) }
        if flags & 0x80 != 0 { properties.insert(.semiMT) }
        return (DeviceDescription(name: "fuzzed", properties: properties, codes: codes, axes: axes), nil)
    }

    /// One 8-byte record.
    static func step(from input: inout FuzzInput, device: DeviceDescription, time: inout Int64) -> Step {
        let operation = input.byte()
        let code = input.byte()
        let timeStep = input.byte()
        _ = input.byte()
        let raw = input.int32()
        // 0…199: 0–9.95 ms; 200…254: 20 ms–1.1 s (timers fire); 255: 1.5 ms back in time.
        switch timeStep {
        case 255: time -= 1_500
        case 200...: time += Int64(timeStep - 199) * 20_000
        default: time += Int64(timeStep) * 50
        }
        let now = Timestamp(microseconds: time)
        let exact = operation & 0x80 != 0
        switch operation & 0x07 {
        case 0, 1, 2:
            let usage = absCodes[Int(code) % absCodes.count]
            return .event(RawEvent(time: now, usage: usage, value: exact ? raw : plausible(raw, for: usage, device: device)))
        case 3:
            let usage = keyCodes[Int(code) % keyCodes.count]
            return .event(RawEvent(time: now, usage: usage, value: exact ? raw : raw & 1))
        case 4:
            return .event(RawEvent(time: now, usage: .synReport, value: 0))
        case 5:
            return .event(RawEvent(time: now, usage: code & 1 == 0 ? .synDropped : .synMTReport, value: 0))
        case 6:
            // Anything at all: the type from the code byte, the code from the value's high half.
            let type = UInt16(code % 32)
            return .event(RawEvent(time: now, type: type, code: UInt16(truncatingIfNeeded: raw >> 16), value: raw))
        default:
            switch code % 8 {
            case 0...4: return .advance
            case 5: return .cancelAll
            default: return .reconfigure(Int(code))
            }
        }
    }

    /// A value the device could send: inside the axis' range, a slot that exists (or one
    /// past it), a tracking id among a few (so ids are reused).
    static func plausible(_ raw: Int32, for usage: EventUsage, device: DeviceDescription) -> Int32 {
        let magnitude = Int64(raw.magnitude)
        switch usage {
        case .absMTSlot: return Int32(magnitude % Int64(device.slotCount + 2)) - 1
        case .absMTTrackingID: return Int32(magnitude % 9) - 1
        case .absMTToolType: return Int32(magnitude % 3)
        default:
            guard let axis = device.axis(usage) else { return Int32(magnitude % 4096) }
            let span = Int64(axis.maximum) - Int64(axis.minimum) + 1
            guard span > 0 else { return axis.minimum }
            return Int32(truncatingIfNeeded: Int64(axis.minimum) + magnitude % span)
        }
    }

    /// The records that replay `events` (times approximated by the steps above).
    static func encode(_ events: [RawEvent], deviceIndex: Int, device: DeviceDescription) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(deviceIndex), 0]
        var time: Int64 = 1_000_000
        let start = events.first?.time.microseconds ?? 0
        for event in events {
            let target = 1_000_000 + event.time.microseconds - start
            var timeStep: UInt8 = 0
            let gap = target - time
            if gap >= 20_000 {
                timeStep = UInt8(min(254, 199 + gap / 20_000))
                time += Int64(timeStep - 199) * 20_000
            } else if gap > 0 {
                timeStep = UInt8(min(199, gap / 50))
                time += Int64(timeStep) * 50
            }
            var operation: UInt8 = 0x86
            var code: UInt8 = UInt8(event.usage.type)
            var value = event.value
            if let index = absCodes.firstIndex(of: event.usage) {
                operation = 0x80
                code = UInt8(index)
            } else if let index = keyCodes.firstIndex(of: event.usage) {
                operation = 0x83
                code = UInt8(index)
            } else if event.usage == .synReport {
                operation = 4
            } else if event.usage == .synDropped || event.usage == .synMTReport {
                operation = 5
                code = event.usage == .synDropped ? 0 : 1
            } else {
                value = Int32(truncatingIfNeeded: UInt32(event.usage.code) << 16 | UInt32(UInt16(truncatingIfNeeded: event.value)))
            }
            let v = UInt32(bitPattern: value)
            bytes += [operation, code, timeStep, 0, UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)]
        }
        return bytes
    }
}
