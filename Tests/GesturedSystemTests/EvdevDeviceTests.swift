import CLinuxInput
import Foundation
import GestureEngine
import Glibc
import Testing

@testable import GesturedSystem

@Suite("Evdev reading")
struct EvdevBatchReadTests {
    /// A scripted `read(2)` of a device: each step is one read's events or `-errno`; the
    /// script counts the reads, so a test fails if the loop reads once too often.
    final class ScriptedDevice {
        enum Step {
            case events([RawEvent])
            case error(Int32)
        }

        var steps: [Step]
        var reads = 0
        var resyncs: [Timestamp] = []
        /// What the kernel's state says after a drop (appended by `resync`, before its SYN_REPORT).
        var state: [RawEvent]

        init(_ steps: [Step], state: [RawEvent] = []) {
            self.steps = steps
            self.state = state
        }

        func read(_ buffer: UnsafeMutableBufferPointer<input_event>) -> Int {
            reads += 1
            guard !steps.isEmpty else { return -Int(EAGAIN) }
            switch steps.removeFirst() {
            case .error(let error):
                return -Int(error)
            case .events(let events):
                precondition(events.count <= buffer.count, "a step larger than the buffer")
                for (index, event) in events.enumerated() {
                    var kernel = input_event()
                    kernel.time.tv_sec = Int(event.time.microseconds / 1_000_000)
                    kernel.time.tv_usec = Int(event.time.microseconds % 1_000_000)
                    kernel.type = event.usage.type
                    kernel.code = event.usage.code
                    kernel.value = event.value
                    buffer[index] = kernel
                }
                return events.count
            }
        }

        func resync(_ time: Timestamp, _ events: inout [RawEvent]) {
            resyncs.append(time)
            events += state
            events.append(RawEvent(time: time, usage: .synReport, value: 0))
        }

        func run(capacity: Int = 8) -> Result<EvdevReadOutcome, Errno> {
            let buffer = UnsafeMutableBufferPointer<input_event>.allocate(capacity: capacity)
            defer { buffer.deallocate() }
            var events: [RawEvent] = []
            return EvdevBatchRead.run(into: &events, buffer: buffer, read: read, resync: resync)
        }
    }

    static func event(_ ms: Int64, _ usage: EventUsage, _ value: Int32 = 0) -> RawEvent {
        RawEvent(time: Timestamp(microseconds: ms * 1000), usage: usage, value: value)
    }

    static let frame = [event(1, .absMTPositionX, 5), event(1, .synReport)]

    @Test("a read that does not fill the buffer has drained the device: one read(2) a wake-up")
    func shortReadIsOneRead() {
        let device = ScriptedDevice([.events(Self.frame), .events([Self.event(2, .synReport)])])
        #expect(device.run(capacity: 8) == .success(.events(Self.frame)))
        #expect(device.reads == 1)
        #expect(device.steps.count == 1, "the second frame is left for the next wake-up")
    }

    @Test("a full buffer is read again, until a short read or EAGAIN")
    func fullBufferReadsAgain() {
        let second = [Self.event(2, .absMTPositionY, 7), Self.event(2, .synReport)]
        let device = ScriptedDevice([.events(Self.frame), .events(second), .events([Self.event(3, .synReport)])])
        #expect(device.run(capacity: 2) == .success(.events(Self.frame + second + [Self.event(3, .synReport)])))
        #expect(device.reads == 3)
        let exact = ScriptedDevice([.events(Self.frame), .error(EAGAIN)])
        #expect(exact.run(capacity: 2) == .success(.events(Self.frame)))
        #expect(exact.reads == 2)
    }

    /// A device without kernel slots answers `hasContactDown` from the events read, not from
    /// `EVIOCGKEY` (which discards the key events still queued for the reader): the last
    /// `BTN_TOUCH` read wins, a resync's state included; a read without one keeps the last.
    @Test("BTN_TOUCH as read: the last one wins, a resync's state counts, a read without one keeps it")
    func touchKeyAsRead() {
        let press = [Self.event(1, .absX, 10), Self.event(1, .btnTouch, 1), Self.event(1, .synReport)]
        #expect(EvdevDevice.touchKey(after: .events(press), from: false))
        #expect(EvdevDevice.touchKey(after: .events(Self.frame), from: true), "a move keeps the finger down")
        #expect(EvdevDevice.touchKey(after: .events([]), from: true))
        let liftThenPress = [Self.event(2, .btnTouch, 0), Self.event(2, .synReport), Self.event(3, .btnTouch, 1), Self.event(3, .synReport)]
        #expect(EvdevDevice.touchKey(after: .events(liftThenPress), from: true))
        let resync = [Self.event(4, .synDropped), Self.event(4, .btnTouch, 0), Self.event(4, .synReport)]
        #expect(!EvdevDevice.touchKey(after: .events(resync), from: true), "the kernel's state after a drop")
        #expect(!EvdevDevice.touchKey(after: .removed([Self.event(5, .btnTouch, 0)]), from: true))
    }

    /// A backlog (the loop was late: several frames queued) larger than the buffer: the kernel
    /// fills each read whatever the frame boundaries, so a frame can straddle two reads. All
    /// of it is read in the one call, in order, and nothing is left for a later wake-up.
    @Test("a backlog of several buffers is read whole in one call, frames split across reads kept in order")
    func backlogAcrossReads() {
        let frames = (1...4).flatMap { ms in
            [Self.event(ms, .absMTSlot, 0), Self.event(ms, .absMTPositionX, Int32(ms)), Self.event(ms, .synReport)]
        }
        // 12 events in reads of 5: 5, 5 (full: read again), 2 (short: drained).
        let device = ScriptedDevice([.events(Array(frames[0..<5])), .events(Array(frames[5..<10])), .events(Array(frames[10...]))])
        #expect(device.run(capacity: 5) == .success(.events(frames)))
        #expect(device.reads == 3)
        #expect(device.steps.isEmpty)
    }

    @Test("SYN_DROPPED: the rest is drained and discarded, then the kernel's state and a SYN_REPORT follow")
    func resync() {
        let state = [Self.event(2, .absMTSlot, 0), Self.event(2, .absMTTrackingID, -1)]
        let device = ScriptedDevice(
            [
                .events(Self.frame + [Self.event(2, .synDropped), Self.event(2, .absMTPositionX, 9)]),
                .events([Self.event(3, .absMTPositionX, 10), Self.event(3, .synReport)]),
                .error(EAGAIN),
                .events([Self.event(4, .synReport)]),
            ], state: state)
        let expected = Self.frame + [Self.event(2, .synDropped)] + state + [Self.event(2, .synReport)]
        #expect(device.run(capacity: 8) == .success(.events(expected)))
        #expect(device.resyncs == [Timestamp(microseconds: 2000)])
        #expect(device.reads == 3, "drained until EAGAIN even after a short read")
        #expect(device.steps.count == 1)
    }

    @Test("a device that never stops sending cannot hold the drain: at most drainLimit reads after the drop")
    func drainIsBounded() {
        let endless = (0..<20).map { _ in ScriptedDevice.Step.events([Self.event(5, .synReport)]) }
        let device = ScriptedDevice([.events([Self.event(2, .synDropped)])] + endless)
        guard case .success(.events(let events)) = device.run(capacity: 8) else {
            Issue.record("unexpected outcome")
            return
        }
        #expect(events == [Self.event(2, .synDropped), Self.event(2, .synReport)])
        #expect(device.reads == EvdevBatchRead.drainLimit + 1)
    }

    @Test("ENODEV is a removal with the events read before; EINTR is retried; other errors fail")
    func removalAndErrors() {
        let removed = ScriptedDevice([.events([Self.event(1, .synReport)]), .error(EINTR), .error(ENODEV)])
        #expect(removed.run(capacity: 1) == .success(.removed([Self.event(1, .synReport)])))
        let failing = ScriptedDevice([.error(EIO)])
        #expect(failing.run() == .failure(.ioError))
        let interrupted = ScriptedDevice([.error(EINTR), .events(Self.frame)])
        #expect(interrupted.run() == .success(.events(Self.frame)))
        #expect(interrupted.reads == 2)
    }

    @Test("the read's output drives the assembler through a SYN_DROPPED resync")
    func readIntoAssembler() throws {
        let device = GestureSynthesizer.demoTouchscreen
        var assembler = FrameAssembler(device: device)
        let scripted = ScriptedDevice(
            [
                .events([
                    Self.event(1, .absMTTrackingID, 1), Self.event(1, .absMTPositionX, 100),
                    // Both coordinates: the assembler places a new contact only once it has both
                    Self.event(1, .absMTPositionY, 200), Self.event(1, .synReport),
                    Self.event(5, .synDropped),
                ])
            ],
            // the finger lifted while events were lost
            state: [Self.event(5, .absMTSlot, 0), Self.event(5, .absMTTrackingID, -1), Self.event(5, .absMTPositionX, 300)])
        guard case .success(.events(let events)) = scripted.run() else {
            Issue.record("unexpected read outcome")
            return
        }
        let frames = events.compactMap { assembler.feed($0) }
        #expect(frames.count == 2)
        #expect(frames[1].isSynthetic)
        #expect(frames[1].touches.map(\.phase) == [.cancelled])
        #expect(assembler.activeTouchCount == 0)
    }
}

@Suite("Opening evdev devices")
struct EvdevDeviceOpenTests {
    @Test("a missing node fails with ENOENT, in systemd style, with what to do")
    func missingNode() throws {
        let error = try #require(throws: SystemError.self) { try EvdevDevice(path: "/nonexistent/input/event99") }
        #expect(
            error == SystemError(operation: "open", path: "/nonexistent/input/event99", errno: .noSuchFileOrDirectory)
        )
        #expect(error.description == "Failed to open '/nonexistent/input/event99': No such file or directory")
        #expect(
            error.userFacingDescription.hasSuffix("No such device node; list devices with `gesturectl list-devices`.")
        )
    }

    @Test("a node that is not an evdev device fails when libevdev reads its description")
    func notEvdev() throws {
        let error = try #require(throws: SystemError.self) { try EvdevDevice(path: "/dev/null") }
        #expect(error.operation == "read the evdev description of")
        #expect(error.path == "/dev/null")
        #expect(error.errno == .notATerminal)
        #expect(error.suggestion == "The path is not an evdev device node (expected /dev/input/eventN).")
    }

    @Test("openTouchDevice wraps open failures for the user")
    func openTouchDeviceErrors() throws {
        let error = try #require(throws: DeviceOpenError.self) {
            try EvdevDevice.openTouchDevice(path: "/nonexistent/event1")
        }
        #expect(
            error == .system(SystemError(operation: "open", path: "/nonexistent/event1", errno: .noSuchFileOrDirectory))
        )
        let notTouch = DeviceOpenError.notATouchDevice(
            path: "/dev/input/event3",
            NotATouchDevice(name: "Power Button", reasons: ["has no ABS_MT_POSITION_X/ABS_X axis"])
        )
        #expect(
            notTouch.description
                == "/dev/input/event3: 'Power Button' is not a touch device: has no ABS_MT_POSITION_X/ABS_X axis. Choose a touchscreen or touchpad from `gesturectl list-devices`."
        )
    }

    @Test(
        "the open-error suggestions say what to do",
        arguments: [
            (
                Errno.permissionDenied,
                "Permission denied: run as root, or install the gestured udev rule / add the user to group 'input'."
            ),
            (Errno.resourceBusy, "Another process grabbed the device (EVIOCGRAB); close it or stop it grabbing."),
            (Errno.noSuchDevice, "No such device node; list devices with `gesturectl list-devices`."),
        ]
    )
    func suggestions(errno: Errno, suggestion: String) {
        let error = SystemError(operation: "open", path: "/dev/input/event5", errno: errno)
        #expect(error.suggestion == suggestion)
        #expect(error.userFacingDescription == "\(error.description). \(suggestion)")
    }

    @Test("errno values print the C library's message and their C name")
    func errnoNames() {
        #expect(Errno.permissionDenied.description == "Permission denied")
        #expect(Errno.permissionDenied.symbol == "EACCES")
        #expect(Errno(rawValue: 4095).symbol == "errno 4095")
        #expect(
            SystemError(operation: "bind", errno: .addressInUse).description == "Failed to bind: Address already in use"
        )
    }
}

@Suite("System helpers")
struct SystemHelperTests {
    @Test("the errno helper retries EINTR and turns EAGAIN into wouldBlock")
    func errnoPolicy() throws {
        var calls = 0
        let value = retryingOnInterrupt { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(value == .success(42))
        #expect(calls == 3)
        let wouldBlock = try nonBlockingSystemCall("read") { () -> Int32 in
            errno = EAGAIN
            return -1
        }
        #expect(wouldBlock == .wouldBlock)
        #expect(throws: SystemError(operation: "read", path: "/x", errno: .ioError)) {
            _ = try systemCall("read", path: "/x") { () -> Int32 in
                errno = EIO
                return -1
            }
        }
    }
}
