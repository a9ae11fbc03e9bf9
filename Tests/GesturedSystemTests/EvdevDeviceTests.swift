import Foundation
import GestureEngine
import Glibc
import Testing

@testable import GesturedSystem

@Suite("Evdev reading")
struct EvdevReadLoopTests {
    /// A scripted `libevdev_next_event`: each step says which mode it expects and what it
    /// returns, so that the test fails if the loop reads in the wrong mode.
    final class ScriptedLibevdev {
        var steps: [(syncing: Bool, status: Int32, event: RawEvent)]
        var modeErrors: [String] = []

        init(_ steps: [(Bool, Int32, RawEvent)]) {
            self.steps = steps.map { (syncing: $0.0, status: $0.1, event: $0.2) }
        }

        func next(_ syncing: Bool) -> (status: Int32, event: RawEvent) {
            guard !steps.isEmpty else {
                modeErrors.append("read past the script")
                return (-EAGAIN, RawEvent(time: .zero, usage: .synReport, value: 0))
            }
            let step = steps.removeFirst()
            if step.syncing != syncing { modeErrors.append("expected syncing=\(step.syncing), read with \(syncing)") }
            return (step.status, step.event)
        }
    }

    static func event(_ ms: Int64, _ usage: EventUsage, _ value: Int32 = 0) -> RawEvent {
        RawEvent(time: Timestamp(microseconds: ms * 1000), usage: usage, value: value)
    }

    static let none = RawEvent(time: .zero, usage: .synReport, value: 0)

    @Test("normal events are read until -EAGAIN")
    func normalRead() {
        let script = ScriptedLibevdev([
            (false, EvdevReadLoop.success, Self.event(1, .absMTPositionX, 5)),
            (false, EvdevReadLoop.success, Self.event(1, .synReport)),
            (false, -EAGAIN, Self.none),
        ])
        let result = EvdevReadLoop.run(script.next)
        #expect(result == .success(.events([Self.event(1, .absMTPositionX, 5), Self.event(1, .synReport)])))
        #expect(script.modeErrors.isEmpty)
        #expect(script.steps.isEmpty)
    }

    @Test("after SYN_DROPPED the loop drains sync events in sync mode, then reads normally again")
    func resync() {
        let script = ScriptedLibevdev([
            (false, EvdevReadLoop.success, Self.event(1, .absMTPositionX, 5)),
            (false, EvdevReadLoop.sync, Self.event(2, .synDropped)),
            (true, EvdevReadLoop.sync, Self.event(3, .absMTSlot, 0)),
            (true, EvdevReadLoop.sync, Self.event(3, .absMTTrackingID, -1)),
            (true, EvdevReadLoop.sync, Self.event(3, .synReport)),
            (true, -EAGAIN, Self.none),
            (false, EvdevReadLoop.success, Self.event(4, .synReport)),
            (false, -EAGAIN, Self.none),
        ])
        let result = EvdevReadLoop.run(script.next)
        #expect(
            result
                == .success(
                    .events([
                        Self.event(1, .absMTPositionX, 5), Self.event(2, .synDropped), Self.event(3, .absMTSlot, 0),
                        Self.event(3, .absMTTrackingID, -1), Self.event(3, .synReport), Self.event(4, .synReport),
                    ])
                )
        )
        #expect(script.modeErrors.isEmpty)
        #expect(script.steps.isEmpty)
    }

    @Test("a sync that does not end in SYN_REPORT gets one, so the assembler's resync ends")
    func resyncWithoutReport() {
        let script = ScriptedLibevdev([
            (false, EvdevReadLoop.sync, Self.event(2, .synDropped)),
            (true, EvdevReadLoop.sync, Self.event(3, .absMTTrackingID, -1)),
            (true, -EAGAIN, Self.none),
            (false, -EAGAIN, Self.none),
        ])
        let result = EvdevReadLoop.run(script.next)
        #expect(
            result
                == .success(
                    .events([
                        Self.event(2, .synDropped), Self.event(3, .absMTTrackingID, -1), Self.event(3, .synReport),
                    ])
                )
        )
    }

    @Test("ENODEV is a removal with the events read before; EINTR is retried; other errors fail")
    func removalAndErrors() {
        let removed = ScriptedLibevdev([
            (false, EvdevReadLoop.success, Self.event(1, .synReport)),
            (false, -EINTR, Self.none),
            (false, -ENODEV, Self.none),
        ])
        #expect(EvdevReadLoop.run(removed.next) == .success(.removed([Self.event(1, .synReport)])))
        let failing = ScriptedLibevdev([(false, -EIO, Self.none)])
        #expect(EvdevReadLoop.run(failing.next) == .failure(.ioError))
    }

    @Test("the read loop's output drives the assembler through a SYN_DROPPED resync")
    func loopIntoAssembler() throws {
        let device = GestureSynthesizer.demoTouchscreen
        var assembler = FrameAssembler(device: device)
        let first = ScriptedLibevdev([
            (false, EvdevReadLoop.success, Self.event(1, .absMTTrackingID, 1)),
            (false, EvdevReadLoop.success, Self.event(1, .absMTPositionX, 100)),
            // Both coordinates: the assembler places a new contact only once it has both
            (false, EvdevReadLoop.success, Self.event(1, .absMTPositionY, 200)),
            (false, EvdevReadLoop.success, Self.event(1, .synReport)),
            (false, EvdevReadLoop.sync, Self.event(5, .synDropped)),
            (true, EvdevReadLoop.sync, Self.event(6, .absMTPositionX, 300)),
            (true, EvdevReadLoop.sync, Self.event(6, .synReport)),
            (true, -EAGAIN, Self.none),
            (false, -EAGAIN, Self.none),
        ])
        guard case .success(.events(let events)) = EvdevReadLoop.run(first.next) else {
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
