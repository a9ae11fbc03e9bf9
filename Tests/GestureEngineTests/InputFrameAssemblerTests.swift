import Testing

@testable import GestureEngine

@Suite("Frame assembler: protocol B")
struct FrameAssemblerProtocolBTests {
    @Test("one finger goes through began, moved, stationary and ended with mm positions")
    func oneFingerLifecycle() throws {
        var script = EventScript()
        script.down(slot: 0, id: 7, x: 100, y: 200)
        script.syn()
        script.move(slot: 0, x: 150)
        script.syn()
        script.abs(.absMTPressure, 30)  // pressure only: the position is unchanged
        script.syn()
        script.up(slot: 0)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 4)
        #expect(frames.map(\.sequence) == [["1:began"], ["1:moved"], ["1:stationary"], ["1:ended"]])
        let began = frames[0].touches[0]
        #expect(began.position == PhysicalPoint(x: 10, y: 20))
        #expect(began.startPosition == PhysicalPoint(x: 10, y: 20))
        #expect(began.trackingID == 7)
        #expect(began.startTime == Timestamp(microseconds: 1_000_000))
        let moved = frames[1].touches[0]
        #expect(moved.position == PhysicalPoint(x: 15, y: 20))
        #expect(moved.previousPosition == PhysicalPoint(x: 10, y: 20))
        #expect(moved.startPosition == PhysicalPoint(x: 10, y: 20))
        #expect(frames[2].touches[0].pressure == 30)
        #expect(frames[3].touches[0].position == PhysicalPoint(x: 15, y: 20))
        #expect(frames.map(\.timestamp.microseconds) == [1_000_000, 1_010_000, 1_020_000, 1_030_000])
        #expect(frames.allSatisfy { !$0.isSynthetic })
    }

    @Test("a contact whose slot never reported a coordinate waits for it, or 50 ms, instead of appearing at 0")
    func unplacedContact() throws {
        // A recording that starts with a finger down: Y was sent before it began.
        var script = EventScript()
        script.abs(.absMTSlot, 0)
        script.abs(.absMTTrackingID, 7)
        script.abs(.absMTPositionX, 100)
        script.syn()
        script.move(slot: 0, y: 200)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let touches = assembler.frames(script.events).flatMap(\.touches)
        let began = try #require(touches.first)
        #expect(began.phase == .began)
        #expect(began.position == PhysicalPoint(x: 10, y: 20))
        #expect(began.startTime == Timestamp(microseconds: 1_010_000))
        // Never sent (its value is the kernel's initial 0): placed at 0 after 50 ms.
        var still = EventScript()
        still.abs(.absMTSlot, 0)
        still.abs(.absMTTrackingID, 8)
        still.abs(.absMTPositionX, 100)
        still.syn()
        for x: Int32 in [101, 102, 103, 104, 105, 106] {
            still.move(slot: 0, x: x)
            still.syn()
        }
        var second = FrameAssembler(device: TestDevices.touchscreen)
        let late = try #require(second.frames(still.events).flatMap(\.touches).first)
        #expect(late.phase == .began)
        #expect(late.position.y == 0)
        #expect(late.startTime == Timestamp(microseconds: 1_050_000))
        // Once placed, a slot's coordinates are known: a later contact in it begins at once.
        still.up(slot: 0)
        still.syn()
        still.abs(.absMTTrackingID, 9)
        still.syn()
        var third = FrameAssembler(device: TestDevices.touchscreen)
        let all = third.frames(still.events).flatMap(\.touches).filter { $0.phase == .began }
        #expect(all.map(\.startTime.microseconds) == [1_050_000, 1_080_000])
    }

    @Test("events go to the slot last selected, and untouched contacts are stationary")
    func slotSwitching() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 3, id: 2, x: 500, y: 300)
        script.syn()
        script.abs(.absMTPositionY, 350)  // still slot 3
        script.syn()
        script.move(slot: 0, x: 120)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 3)
        #expect(frames[0].sequence == ["1:began", "2:began"])
        #expect(frames[0].touches.map(\.slot) == [0, 3])
        #expect(frames[1].sequence == ["1:stationary", "2:moved"])
        #expect(frames[1].touches[1].position == PhysicalPoint(x: 50, y: 35))
        #expect(frames[2].sequence == ["1:moved", "2:stationary"])
        let diagnostics = assembler.drainDiagnostics()
        #expect(diagnostics.isEmpty)
    }

    @Test("an out-of-range slot is clamped to the last slot and reported as a kernel bug")
    func slotOutOfRange() throws {
        var script = EventScript()
        script.down(slot: 9, id: 4, x: 100, y: 100)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 1)
        #expect(frames[0].touches.map(\.slot) == [3])
        let diagnostics = assembler.drainDiagnostics()
        #expect(diagnostics == [.kernelBug("slot 9 out of range 0…3, using slot 3")])
        let drainedAgain = assembler.drainDiagnostics()
        #expect(drainedAgain.isEmpty)
    }

    @Test("a position outside the device's axis range is kept and noted once per axis")
    func positionOutsideRange() throws {
        let device = TestDevices.touchscreen
        let maximumX = try #require(device.axis(.absMTPositionX)).maximum
        var script = EventScript()
        script.down(slot: 0, id: 1, x: maximumX + 1000, y: 100)
        script.syn()
        script.move(slot: 0, x: maximumX + 2000)
        script.syn()
        script.move(slot: 0, x: 100, y: -5)
        script.syn()
        var assembler = FrameAssembler(device: device)
        let frames = assembler.frames(script.events)
        #expect(frames.count == 3)
        let minimumY = try #require(device.axis(.absMTPositionY)).minimum
        let maximumY = try #require(device.axis(.absMTPositionY)).maximum
        #expect(
            assembler.drainDiagnostics() == [
                .kernelBug("ABS_MT_POSITION_X value \(maximumX + 1000) outside the device's range 0…\(maximumX) (noted once per axis)"),
                .kernelBug("ABS_MT_POSITION_Y value -5 outside the device's range \(minimumY)…\(maximumY) (noted once per axis)"),
            ])
    }

    @Test("a tracking id replaced without -1 ends the old touch and begins a new one in one frame")
    func trackingIDReplaced() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn()
        script.abs(.absMTPositionX, 110)  // the old contact's last movement
        script.abs(.absMTTrackingID, 2)
        script.abs(.absMTPositionX, 400)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 2)
        #expect(frames[1].sequence == ["1:ended", "2:began"])
        #expect(frames[1].touches[0].position.x == 11)
        #expect(frames[1].touches[0].previousPosition.x == 10)
        #expect(frames[1].touches[1].position.x == 40)
        #expect(frames[1].touches[1].trackingID == 2)
    }

    @Test("a reused kernel tracking id gets a new touch id; touch ids are never reused")
    func trackingIDReuse() throws {
        var script = EventScript()
        script.down(slot: 0, id: 5, x: 100, y: 100)
        script.syn()
        script.up(slot: 0)
        script.syn()
        script.down(slot: 1, id: 5, x: 100, y: 100)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        #expect(frames.map(\.sequence) == [["1:began"], ["1:ended"], ["2:began"]])
    }

    @Test("a contact that begins and ends in one frame is listed as began, then ended")
    func beganAndEndedInOneFrame() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.abs(.absMTTrackingID, -1)
        script.abs(.absMTPositionX, 900)  // after -1: ignored until a new id
        script.syn()
        script.abs(.absMTTrackingID, 2)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 2)
        #expect(frames[0].sequence == ["1:began", "1:ended"])
        #expect(frames[0].touches.allSatisfy { $0.position == PhysicalPoint(x: 10, y: 10) })
        // The new contact inherits the slot's last real position, not the ignored one.
        #expect(frames[1].touches.map(\.position) == [PhysicalPoint(x: 10, y: 10)])
    }

    @Test("a palm at touch-down is suppressed for its whole life, even if it turns into a finger")
    func palmAtBegin() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.abs(.absMTToolType, 2)
        script.syn()
        script.abs(.absMTToolType, 0)
        script.abs(.absMTPositionX, 200)
        script.syn()
        script.up(slot: 0)
        script.syn()
        script.down(slot: 0, id: 2, x: 300, y: 100)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 4)
        #expect(frames[0].touches.isEmpty)
        #expect(frames[1].touches.isEmpty)
        #expect(frames[2].touches.isEmpty)
        #expect(frames[3].sequence == ["2:began"])
        #expect(frames[3].touches[0].toolType == .finger)
    }

    @Test("a finger that turns into a palm is cancelled and stays suppressed; other touches go on")
    func palmMidContact() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 1, id: 2, x: 500, y: 100)
        script.syn()
        script.abs(.absMTSlot, 0)
        script.abs(.absMTToolType, 2)
        script.syn()
        script.move(slot: 0, x: 150)
        script.move(slot: 1, x: 550)
        script.syn()
        script.up(slot: 0)
        script.up(slot: 1)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        #expect(
            frames.map(\.sequence) == [
                ["1:began", "2:began"], ["1:cancelled", "2:stationary"], ["2:moved"], ["2:ended"],
            ]
        )
        #expect(frames[1].touches[0].toolType == .palm)
    }

    @Test("contacts beyond maxTouches are suppressed for their whole life")
    func capacity() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 1, id: 2, x: 200, y: 100)
        script.down(slot: 2, id: 3, x: 300, y: 100)
        script.syn()
        script.up(slot: 0)
        script.syn()
        script.move(slot: 2, x: 350)
        script.syn()
        script.down(slot: 0, id: 4, x: 100, y: 100)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen, maxTouches: 2)
        let frames = assembler.frames(script.events)
        #expect(
            frames.map(\.sequence) == [
                ["1:began", "2:began"], ["1:ended", "2:stationary"], ["2:stationary"], ["2:stationary", "4:began"],
            ]
        )
    }

    @Test("SYN_DROPPED in a pinch cancels both touches in one synthetic frame; resynced contacts stay stale")
    func synDroppedMidPinch() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 400, y: 300)
        script.down(slot: 1, id: 2, x: 600, y: 300)
        script.syn()
        script.move(slot: 0, x: 380)
        script.move(slot: 1, x: 620)
        script.syn()
        script.move(slot: 0, x: 360)  // the frame the drop interrupts
        script.event(.synDropped)
        script.move(slot: 1, x: 660)  // the partial frame after the drop: discarded
        script.syn()
        script.move(slot: 0, x: 340)
        script.move(slot: 1, x: 680)
        script.syn()
        script.up(slot: 0)
        script.syn()
        script.down(slot: 2, id: 3, x: 500, y: 500)
        script.syn()
        script.up(slot: 1)
        script.up(slot: 2)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 7)
        let cancel = frames[2]
        #expect(cancel.isSynthetic)
        #expect(cancel.sequence == ["1:cancelled", "2:cancelled"])
        // Positions are the last delivered ones, not the discarded ones.
        #expect(cancel.touches.map(\.position.x) == [38, 62])
        #expect(cancel.timestamp == Timestamp(microseconds: 1_020_000))
        #expect(frames[3].touches.isEmpty)  // stale contacts move: nothing delivered
        #expect(frames[4].touches.isEmpty)  // a stale contact lifts: nothing delivered
        // A later contact is normal, with a fresh id.
        #expect(frames[5].touches.map(\.phase) == [.began])
        #expect(frames[5].touches.map(\.trackingID) == [3])
        #expect(frames[5].touches.allSatisfy { $0.id.rawValue > 2 })
        #expect(frames[6].touches.map(\.phase) == [.ended])
        #expect(frames[6].touches.map(\.id) == frames[5].touches.map(\.id))
        #expect(assembler.activeTouchCount == 0)
    }

    @Test("libevdev's sync events after SYN_DROPPED rebuild the state: ended contacts drop, new ones are stale")
    func libevdevResync() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn()
        // What EvdevDevice.readAvailable returns: SYN_DROPPED, the sync delta, SYN_REPORT.
        script.event(.synDropped)
        script.up(slot: 0)
        script.down(slot: 1, id: 9, x: 700, y: 100)
        script.syn()
        script.move(slot: 1, x: 720)
        script.syn()
        script.up(slot: 1)
        script.syn()
        script.down(slot: 0, id: 10, x: 100, y: 100)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 5)
        #expect(frames[1].isSynthetic)
        #expect(frames[1].sequence == ["1:cancelled"])
        #expect(frames[2].touches.isEmpty)
        #expect(frames[3].touches.isEmpty)
        #expect(frames[4].sequence.count == 1)
        #expect(frames[4].touches[0].phase == .began)
    }

    @Test("beginResync and endResync give the same result as a SYN_DROPPED event")
    func explicitResync() throws {
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn()
        _ = assembler.frames(script.events)
        assembler.beginResync()
        let duringResync = assembler.feed(
            RawEvent(time: Timestamp(microseconds: 1_015_000), usage: .absMTPositionX, value: 300)
        )
        #expect(duringResync == nil)
        let ended = assembler.endResync(at: Timestamp(microseconds: 1_020_000))
        let cancel = try #require(ended)
        #expect(cancel.sequence == ["1:cancelled"])
        #expect(cancel.isSynthetic)
        #expect(assembler.activeTouchCount == 0)
    }

    @Test("cancelAll cancels every active touch once, and returns nil when nothing is active")
    func cancelAllOnRemoval() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 1, id: 2, x: 200, y: 100)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        _ = assembler.frames(script.events)
        let cancelled = assembler.cancelAll(at: Timestamp(microseconds: 2_000_000))
        let frame = try #require(cancelled)
        #expect(frame.sequence == ["1:cancelled", "2:cancelled"])
        #expect(frame.isSynthetic)
        #expect(frame.timestamp == Timestamp(microseconds: 2_000_000))
        let again = assembler.cancelAll(at: Timestamp(microseconds: 2_000_001))
        #expect(again == nil)
    }

    @Test("frame timestamps never go backwards; the kernel bug is reported")
    func monotonicTimestamps() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn(advance: -5)
        script.move(slot: 0, x: 110)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        #expect(frames.map(\.timestamp.microseconds) == [1_000_000, 1_000_000])
        let diagnostics = assembler.drainDiagnostics()
        #expect(diagnostics.count == 1)
    }

    @Test("touch size converts to mm with its own resolution; orientation passes through")
    func touchSize() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.abs(.absMTTouchMajor, 16)
        script.abs(.absMTOrientation, 1)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.touchscreen)
        let frames = assembler.frames(script.events)
        let touch = try #require(frames.first?.touches.first)
        #expect(touch.touchMajorMillimeters == 8)
        #expect(touch.touchMinorMillimeters == nil)
        #expect(touch.orientation == 1)
    }
}

@Suite("Frame assembler: finger count, buttons, protocol A, single touch")
struct FrameAssemblerOtherProtocolsTests {
    @Test("BTN_TOOL_TRIPLETAP counts three fingers on a two-slot clickpad; BTN_LEFT is the button")
    func fingerCountBeyondSlots() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 1, id: 2, x: 300, y: 100)
        script.key(.btnTouch, 1)
        script.key(.btnToolTripleTap, 1)
        script.syn()
        script.key(.btnLeft, 1)
        script.syn()
        script.key(.btnToolTripleTap, 0)
        script.key(.btnToolDoubleTap, 1)
        script.key(.btnLeft, 0)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.clickpad)
        let frames = assembler.frames(script.events)
        #expect(frames.map(\.fingerCount) == [3, 3, 2])
        #expect(frames.map(\.isButtonPressed) == [false, true, false])
        #expect(frames[0].touches.count == 2)
    }

    @Test("a device without finger keys reports no finger count; a touchscreen with BTN_TOUCH counts contacts")
    func fingerCountSources() throws {
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 1, id: 2, x: 300, y: 100)
        script.key(.btnTouch, 1)
        script.syn()
        var withTouch = FrameAssembler(device: TestDevices.touchscreen)
        let touchFrames = withTouch.frames(script.events)
        #expect(touchFrames.map(\.fingerCount) == [2])
        var bare = TestDevices.touchscreen
        bare.codes.remove(.btnTouch)
        var withoutKeys = FrameAssembler(device: bare)
        let withoutEvents = script.events.filter { $0.usage != .btnTouch }
        let bareFrames = withoutKeys.frames(withoutEvents)
        #expect(bareFrames.map(\.fingerCount) == [nil])
    }

    @Test("protocol A contacts keep their touch ids by nearest neighbour even when reported in another order")
    func protocolANearestNeighbour() throws {
        var script = EventScript()
        func contact(_ x: Int32, _ y: Int32) {
            script.abs(.absMTPositionX, x)
            script.abs(.absMTPositionY, y)
            script.event(.synMTReport)
        }
        contact(100, 100)
        contact(800, 500)
        script.key(.btnTouch, 1)
        script.syn()
        contact(810, 505)  // reported first now
        contact(110, 100)
        script.syn()
        contact(820, 510)
        script.syn()
        script.event(.synMTReport)
        script.key(.btnTouch, 0)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.protocolA)
        let frames = assembler.frames(script.events)
        try #require(frames.count == 4)
        #expect(frames[0].sequence == ["1:began", "2:began"])
        #expect(frames[1].sequence == ["1:moved", "2:moved"])
        #expect(frames[1].touches[0].position == PhysicalPoint(x: 11, y: 10))
        #expect(frames[1].touches[1].position == PhysicalPoint(x: 81, y: 50.5))
        #expect(frames[2].sequence == ["1:ended", "2:moved"])
        #expect(frames[3].sequence == ["2:ended"])
    }

    @Test("a single-touch device is one finger driven by BTN_TOUCH and ABS_X/ABS_Y")
    func singleTouch() throws {
        var script = EventScript()
        script.abs(.absX, 100)
        script.abs(.absY, 200)
        script.abs(.absPressure, 40)
        script.key(.btnTouch, 1)
        script.syn()
        script.abs(.absX, 130)
        script.syn()
        script.key(.btnTouch, 0)
        script.syn()
        script.abs(.absX, 500)
        script.key(.btnTouch, 1)
        script.syn()
        var assembler = FrameAssembler(device: TestDevices.singleTouch)
        let frames = assembler.frames(script.events)
        #expect(frames.map(\.sequence) == [["1:began"], ["1:moved"], ["1:ended"], ["2:began"]])
        #expect(frames[1].touches[0].position == PhysicalPoint(x: 13, y: 20))
        #expect(frames[0].touches[0].pressure == 40)
        #expect(frames[3].touches[0].position.x == 50)
    }
}
