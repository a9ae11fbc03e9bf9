/// Made-up devices and the bundled demo recording.
extension GestureSynthesizer {
    /// A 10-finger touchscreen of 256 × 144 mm (0…4095 × 0…2303 at 16 units/mm), with
    /// pressure and touch size, `INPUT_PROP_DIRECT`. Not a real product: its numbers are
    /// chosen to be round.
    public static let demoTouchscreen: DeviceDescription = {
        var axes: [UInt16: AxisInfo] = [
            EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 4095, resolution: 16),
            EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 2303, resolution: 16),
            EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 9),
            EventUsage.absMTTouchMajor.code: AxisInfo(minimum: 0, maximum: 255, resolution: 16),
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 4095, resolution: 16),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 2303, resolution: 16),
            EventUsage.absMTToolType.code: AxisInfo(minimum: 0, maximum: 2),
            EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
            EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
        ]
        axes[EventUsage.absPressure.code] = AxisInfo(minimum: 0, maximum: 255)
        var codes: Set<EventUsage> = [.synReport, .synConfig, .synDropped, .btnTouch]
        for code in axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        return DeviceDescription(
            name: "gestured demo touchscreen",
            bustype: 0x18,
            vendor: 0x1209,
            product: 0x0001,
            version: 1,
            properties: [.direct],
            codes: codes,
            axes: axes
        )
    }()

    /// A 5-slot clickpad of 100 × 65 mm (0…4000 × 0…2600 at 40 units/mm) reporting up to five
    /// fingers through `BTN_TOOL_*`, `INPUT_PROP_POINTER | INPUT_PROP_BUTTONPAD`.
    public static let demoClickpad: DeviceDescription = {
        let axes: [UInt16: AxisInfo] = [
            EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 4000, resolution: 40),
            EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 2600, resolution: 40),
            EventUsage.absPressure.code: AxisInfo(minimum: 0, maximum: 255),
            EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 4),
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 4000, resolution: 40),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 2600, resolution: 40),
            EventUsage.absMTToolType.code: AxisInfo(minimum: 0, maximum: 2),
            EventUsage.absMTTrackingID.code: AxisInfo(minimum: 0, maximum: 65535),
            EventUsage.absMTPressure.code: AxisInfo(minimum: 0, maximum: 255),
        ]
        var codes: Set<EventUsage> = [
            .synReport, .synConfig, .synDropped, .btnLeft, .btnTouch, .btnToolFinger, .btnToolDoubleTap,
            .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap,
        ]
        for code in axes.keys { codes.insert(EventUsage(type: EventUsage.evAbs, code: code)) }
        return DeviceDescription(
            name: "gestured demo clickpad",
            bustype: 0x18,
            vendor: 0x1209,
            product: 0x0002,
            version: 1,
            properties: [.pointer, .buttonpad],
            codes: codes,
            axes: axes
        )
    }()

    /// The script of the demo recording: tap, double tap, long press, two-finger pan,
    /// three-finger swipe left, pinch out, pinch in, rotation, and a swipe in from the left
    /// edge, one second apart.
    public func demoScript() -> GestureScript {
        GestureScript.sequence(
            [
                tap(at: .fraction(x: 0.3, y: 0.4)),
                doubleTap(at: .fraction(x: 0.6, y: 0.4)),
                longPress(at: .fraction(x: 0.5, y: 0.6), duration: 0.8),
                drag(fingers: 2, from: .fraction(x: 0.5, y: 0.3), to: .fraction(x: 0.5, y: 0.7), duration: 0.5),
                swipe(fingers: 3, direction: .left, distance: 80, duration: 0.25),
                pinch(scale: 2.5, span: 30, duration: 0.5),
                pinch(scale: 0.4, span: 80, duration: 0.5),
                rotation(angle: Double.pi / 2, span: 50, duration: 0.6),
                edgeSwipe(from: .left, distance: 40, duration: 0.25),
            ],
            gap: 1.0
        )
    }

    /// The evemu text of the bundled demo recording (`demo-touchscreen.evemu`): the
    /// ``demoScript()`` on ``demoTouchscreen`` at 100 frames/s, without jitter, starting at
    /// 1.000000 s.
    public static func demoTouchscreenRecording() -> String {
        var synthesizer = GestureSynthesizer(device: demoTouchscreen)
        let events = synthesizer.events(for: synthesizer.demoScript(), startingAt: Timestamp(seconds: 1))
        return EvemuWriter.recording(
            device: demoTouchscreen,
            events: events,
            comments: [
                "gestured demo recording, synthesized (not recorded from hardware) by",
                "GestureSynthesizer.demoTouchscreenRecording(): tap, double tap, long press,",
                "two-finger pan, three-finger swipe left, pinch out, pinch in, rotation by 90°,",
                "swipe in from the left edge; one second between gestures, 10 ms frames.",
            ]
        )
    }
}
