import Foundation
import GestureEngine
import Testing

@testable import GesturedSystem

@Suite("udev and uinput")
struct UdevTests {
    @Test("enumeration lists only event nodes")
    func enumeration() throws {
        let devices = try UdevEnumerator.inputDevices()
        for device in devices {
            #expect(device.devnode.hasPrefix("/dev/input/event"))
        }
        // Machines without input devices (CI containers) list none, which is also correct.
        print("udev input event nodes: \(devices.map(\.devnode))")
    }

    @Test("a udev monitor either opens with nothing pending or fails with a SystemError")
    func monitor() {
        do {
            let monitor = try UdevMonitor()
            #expect(monitor.fileDescriptor >= 0)
            #expect(monitor.receive() == nil)
        } catch {
            // Sandboxes without AF_NETLINK refuse the socket; the error must name the step.
            #expect(error.operation.contains("udev"))
        }
    }

    @Test(
        "creating a uinput device without /dev/uinput fails with ENOENT on /dev/uinput",
        .enabled(if: !FileManager.default.fileExists(atPath: "/dev/uinput"), "this machine has /dev/uinput")
    )
    func uinputAbsent() throws {
        let error = try #require(throws: SystemError.self) {
            try UInputDevice(description: GestureSynthesizer.demoTouchscreen)
        }
        #expect(error.path == "/dev/uinput")
        #expect(error.errno == .noSuchFileOrDirectory)
    }

    @Test(
        "a synthesized swipe written to a uinput device comes back out of its event node",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/dev/uinput") && getuid() == 0,
            "needs /dev/uinput and root (kernel tier)"
        ),
        .tags(.kernel)
    )
    func uinputRoundTrip() throws {
        let description = GestureSynthesizer.demoTouchscreen
        let uinput = try UInputDevice(description: description)
        defer { uinput.destroy() }
        let node = try #require(uinput.devnode)
        let device = try EvdevDevice(path: node)
        defer { device.close() }
        #expect(device.description.axes == description.axes)
        var synthesizer = GestureSynthesizer(device: description)
        let events = synthesizer.events(for: synthesizer.tap())
        try uinput.write(events)
        var received: [RawEvent] = []
        while received.filter({ $0.usage == .synReport }).count < 2,
            try device.waitUntilReadable(timeoutMilliseconds: 2000)
        {
            guard case .events(let batch) = try device.readAvailable() else { break }
            received += batch
        }
        // The kernel drops values that did not change, such as the first ABS_MT_SLOT 0.
        let sent = events.filter { $0.usage != .absMTSlot }
        let got = received.filter { $0.usage != .absMTSlot }
        #expect(got.map(\.usage) == sent.map(\.usage))
        #expect(got.map(\.value) == sent.map(\.value))
    }

    @Test(
        "a protocol-A uinput device is read through mtdev as protocol B",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/dev/uinput") && getuid() == 0,
            "needs /dev/uinput and root (kernel tier)"
        ),
        .tags(.kernel)
    )
    func mtdevProtocolA() throws {
        let axes: [UInt16: AxisInfo] = [
            EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 9600),
            EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 7200),
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 9600),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 7200),
        ]
        var codes: Set<EventUsage> = [.synReport, .synMTReport, .btnTouch]
        for code in axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        let description = DeviceDescription(name: "gestured protocol A test", codes: codes, axes: axes)
        let uinput = try UInputDevice(description: description)
        defer { uinput.destroy() }
        let device = try EvdevDevice(path: try #require(uinput.devnode))
        defer { device.close() }
        #expect(device.usesMtdev)
        #expect(device.description.isMultitouchB)
        let t = Timestamp.zero
        var written: [RawEvent] = []
        for (x, y) in [(1000, 1000), (5000, 3000)] as [(Int32, Int32)] {
            written += [
                RawEvent(time: t, usage: .absMTPositionX, value: x),
                RawEvent(time: t, usage: .absMTPositionY, value: y),
                RawEvent(time: t, usage: .synMTReport, value: 0),
            ]
        }
        written += [RawEvent(time: t, usage: .btnTouch, value: 1), RawEvent(time: t, usage: .synReport, value: 0)]
        written += [
            RawEvent(time: t, usage: .synMTReport, value: 0), RawEvent(time: t, usage: .btnTouch, value: 0),
            RawEvent(time: t, usage: .synReport, value: 0),
        ]
        try uinput.write(written)
        var assembler = FrameAssembler(device: device.description)
        var frames: [Frame] = []
        while frames.count < 2, try device.waitUntilReadable(timeoutMilliseconds: 2000) {
            guard case .events(let batch) = try device.readAvailable() else { break }
            frames += batch.compactMap { assembler.feed($0) }
        }
        #expect(frames.map { $0.touches.map(\.phase) } == [[.began, .began], [.ended, .ended]])
    }

    @Test(
        "a real evdev buffer overflow comes out as SYN_DROPPED plus sync events and cancels the touches",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/dev/uinput") && getuid() == 0,
            "needs /dev/uinput and root (kernel tier)"
        ),
        .tags(.kernel)
    )
    func kernelSynDropped() throws {
        let description = GestureSynthesizer.demoTouchscreen
        let uinput = try UInputDevice(description: description)
        defer { uinput.destroy() }
        let device = try EvdevDevice(path: try #require(uinput.devnode))
        defer { device.close() }
        var synthesizer = GestureSynthesizer(device: description)
        // A long two-finger pan: far more frames than evdev's client buffer holds.
        let script = synthesizer.drag(
            fingers: 2,
            from: .fraction(x: 0.2, y: 0.5),
            to: .fraction(x: 0.8, y: 0.5),
            duration: 20
        )
        let events = synthesizer.events(for: script)
        let firstFrameEnd = try #require(events.firstIndex { $0.usage == .synReport })
        var assembler = FrameAssembler(device: device.description)
        try uinput.write(Array(events[...firstFrameEnd]))
        var frames: [Frame] = []
        while frames.isEmpty, try device.waitUntilReadable(timeoutMilliseconds: 2000) {
            guard case .events(let batch) = try device.readAvailable() else { break }
            frames += batch.compactMap { assembler.feed($0) }
        }
        #expect(frames.first?.touches.map(\.phase) == [.began, .began])
        // Everything else without reading: the kernel drops events and queues SYN_DROPPED.
        try uinput.write(Array(events[(firstFrameEnd + 1)...]))
        var received: [RawEvent] = []
        while try device.waitUntilReadable(timeoutMilliseconds: 500) {
            guard case .events(let batch) = try device.readAvailable() else { break }
            received += batch
            if batch.isEmpty { break }
        }
        #expect(received.contains { $0.usage == .synDropped })
        let after = received.compactMap { assembler.feed($0) }
        let synthetic = after.filter(\.isSynthetic)
        #expect(synthetic.count == 1)
        #expect(synthetic.first?.touches.map(\.phase) == [.cancelled, .cancelled])
        // The fingers lifted after the drop were stale: their end is not delivered.
        #expect(after.allSatisfy { $0.isSynthetic || $0.touches.isEmpty })
        #expect(assembler.activeTouchCount == 0)
    }
}

extension Tag {
    /// Tests that need a real kernel with uinput (the QEMU guest of `shared/vm`).
    @Tag static var kernel: Self
}
