import GesturedRandom
import Testing

@testable import GestureEngine

@Suite("Frame assembler on random input")
struct FrameAssemblerFuzzTests {
    static let devices: [(String, DeviceDescription)] = [
        ("touchscreen", TestDevices.touchscreen),
        ("clickpad", TestDevices.clickpad),
        ("protocol A", TestDevices.protocolA),
        ("single-touch", TestDevices.singleTouch),
    ]

    static let usages: [EventUsage] = [
        .absMTSlot, .absMTTrackingID, .absMTPositionX, .absMTPositionY, .absMTToolType, .absMTPressure,
        .absMTTouchMajor, .absX, .absY, .btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnLeft,
        .synReport, .synReport, .synReport, .synMTReport, .synDropped,
    ]

    @Test("random event streams never break the frame contract", arguments: 0..<4, [1, 2, 3, 4, 5] as [UInt64])
    func randomStreams(deviceIndex: Int, seed: UInt64) {
        let (_, device) = Self.devices[deviceIndex]
        var random = SplitMix64(seed: seed)
        var time: Int64 = 1_000_000
        var events: [RawEvent] = []
        for _ in 0..<3000 {
            let usage = Self.usages[Int(random.next() % UInt64(Self.usages.count))]
            let value: Int32
            switch usage {
            case .absMTSlot: value = Int32(random.next() % 7) - 1
            case .absMTTrackingID: value = Int32(random.next() % 6) - 1
            case .absMTToolType: value = Int32(random.next() % 4)
            case .btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnLeft:
                value = Int32(random.next() % 2)
            default: value = Int32(random.next() % 1200) - 100
            }
            // Mostly forward in time, sometimes backwards (a kernel bug the assembler clamps).
            time += Int64(random.next() % 12_000) - 1_000
            events.append(RawEvent(time: Timestamp(microseconds: time), usage: usage, value: value))
        }
        var assembler = FrameAssembler(device: device, maxTouches: 3)
        var frames = assembler.frames(events)
        if let last = assembler.cancelAll(at: Timestamp(microseconds: time)) { frames.append(last) }
        let violations = frameStreamViolations(frames, maxTouches: 3)
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        #expect(frames.count > 100)
        #expect(assembler.activeTouchCount == 0)
        _ = assembler.drainDiagnostics()
    }
}
