import Testing

@testable import GesturedProtocol

private func json(_ m: DaemonMessage) throws -> String { try MessageEncoder().encodeString(m) }
private func json(_ m: ClientMessage) throws -> String { try MessageEncoder().encodeString(m) }

@Suite("JSON goldens")
struct JSONGoldenTests {
    static let swipe = GestureEventMessage(
        name: "swipe-left-3",
        kind: "swipe",
        state: .recognized,
        device: "/dev/input/event5",
        deviceName: "ELAN Touchscreen",
        timeUS: 1_234_567,
        gestureID: "event5:12",
        fingers: 3,
        centroidMM: WireVector(x: 40.5, y: 20.25),
        centroidFraction: WireVector(x: 0.5, y: 0.25),
        direction: "left",
        translationMM: WireVector(x: -30, y: 1.5),
        velocityMMPerS: WireVector(x: -250, y: 0)
    )

    static let pinch = GestureEventMessage(
        name: "pinch",
        kind: "pinch",
        state: .changed,
        device: "/dev/input/event7",
        deviceName: "Pad",
        timeUS: 99,
        gestureID: "event7:3",
        fingers: 2,
        centroidMM: WireVector(x: 1, y: 2),
        centroidFraction: WireVector(x: 0.1, y: 0.2),
        scale: 1.25,
        scaleVelocity: 0.5,
        approximateUnits: true
    )

    static let device = DeviceInfo(
        device: "/dev/input/event5",
        name: "ELAN Touchscreen",
        kind: "touchscreen",
        vendor: 0x04f3,
        product: 0x2a1c,
        widthMM: 293.5,
        heightMM: 165,
        slots: 10,
        approximateUnits: false,
        gestures: ["tap", "pinch"]
    )

    @Test("gesture events are flat, sorted and end with one newline")
    func gesture() throws {
        #expect(
            try json(.gesture(Self.swipe))
                == #"{"device":"/dev/input/event5","device_name":"ELAN Touchscreen","direction":"left","#
                + #""dx_mm":-30,"dy_mm":1.5,"fingers":3,"gesture_id":"event5:12","kind":"swipe","#
                + #""name":"swipe-left-3","state":"recognized","time_us":1234567,"type":"gesture","#
                + #""vx_mm_s":-250,"vy_mm_s":0,"x_fraction":0.5,"x_mm":40.5,"y_fraction":0.25,"y_mm":20.25}"#
                + "\n"
        )
    }

    @Test("approximate units appear only when true, custom values only when present")
    func optionalKeys() throws {
        #expect(
            try json(.gesture(Self.pinch))
                == #"{"approximate_units":true,"device":"/dev/input/event7","device_name":"Pad","fingers":2,"#
                + #""gesture_id":"event7:3","kind":"pinch","name":"pinch","scale":1.25,"scale_velocity":0.5,"#
                + #""state":"changed","time_us":99,"type":"gesture","x_fraction":0.1,"x_mm":1,"y_fraction":0.2,"#
                + #""y_mm":2}"# + "\n"
        )
        var tickle = Self.pinch
        tickle.approximateUnits = nil
        tickle.scale = nil
        tickle.scaleVelocity = nil
        tickle.kind = "tickle"
        tickle.values = ["strokes": 3]
        #expect(try json(.gesture(tickle)).contains(#""values":{"strokes":3}"#))
        #expect(try !json(.gesture(tickle)).contains("approximate_units"))
    }

    @Test(
        "replies and events",
        arguments: [
            (
                DaemonMessage.hello(HelloReply(id: 1, daemonVersion: "0.1.0", capabilities: ["gestures", "hotplug"])),
                #"{"capabilities":["gestures","hotplug"],"daemon_version":"0.1.0","id":1,"protocol_minor":1,"#
                    + #""protocol_version":1,"type":"hello"}"#
            ),
            (.ok(OkReply(id: 2, request: "subscribe")), #"{"id":2,"request":"subscribe","type":"ok"}"#),
            (.ok(OkReply(request: "ping")), #"{"request":"ping","type":"ok"}"#),
            (
                .devices(DevicesReply(id: 3, devices: [device])),
                #"{"devices":[{"approximate_units":false,"device":"/dev/input/event5","gestures":["tap","pinch"],"#
                    + #""height_mm":165,"kind":"touchscreen","name":"ELAN Touchscreen","product":10780,"slots":10,"#
                    + #""vendor":1267,"width_mm":293.5}],"id":3,"type":"devices"}"#
            ),
            (
                .status(
                    StatusReply(
                        id: 4,
                        daemonVersion: "0.1.0",
                        uptimeUS: 5_000_000,
                        clients: 2,
                        devices: 1,
                        gesturesEmitted: 17,
                        configPath: "/etc/gestured/gestured.conf",
                        gestures: 20
                    )
                ),
                #"{"clients":2,"config_path":"/etc/gestured/gestured.conf","daemon_version":"0.1.0","devices":1,"#
                    + #""gestures":20,"gestures_emitted":17,"id":4,"protocol_minor":1,"protocol_version":1,"type":"status","#
                    + #""uptime_us":5000000}"#
            ),
            (
                .error(ErrorReply(id: 5, code: .unknownRequest, message: "unknown request type 'x'")),
                #"{"code":"unknown_request","id":5,"message":"unknown request type 'x'","type":"error"}"#
            ),
            (
                .touch(
                    TouchEventMessage(
                        device: "/dev/input/event5",
                        timeUS: 10,
                        touchID: 4,
                        phase: .moved,
                        xMM: 1.5,
                        yMM: 2
                    )
                ),
                #"{"device":"/dev/input/event5","phase":"moved","time_us":10,"touch_id":4,"type":"touch","x_mm":1.5,"y_mm":2}"#
            ),
            (
                .deviceAdded(
                    DeviceInfo(
                        device: "/dev/input/event9",
                        name: "Pad",
                        kind: "touchpad",
                        vendor: 1,
                        product: 2,
                        widthMM: 100,
                        heightMM: 60,
                        slots: 5,
                        approximateUnits: true
                    )
                ),
                #"{"approximate_units":true,"device":"/dev/input/event9","gestures":[],"height_mm":60,"kind":"touchpad","#
                    + #""name":"Pad","product":2,"slots":5,"type":"device_added","vendor":1,"width_mm":100}"#
            ),
            (
                .deviceRemoved(DeviceRemovedEvent(device: "/dev/input/event9", name: "Pad")),
                #"{"device":"/dev/input/event9","name":"Pad","type":"device_removed"}"#
            ),
            (
                .overflow(OverflowEvent(queued: 4096, message: "client too slow")),
                #"{"message":"client too slow","queued":4096,"type":"overflow"}"#
            ),
            (.shutdown(ShutdownEvent(reason: "SIGTERM")), #"{"reason":"SIGTERM","type":"shutdown"}"#),
        ]
    )
    func replies(message: DaemonMessage, expected: String) throws {
        #expect(try json(message) == expected + "\n")
    }

    @Test("client requests encode as documented")
    func requests() throws {
        #expect(
            try json(ClientMessage(id: 1, .hello(HelloRequest(clientName: "gesturectl"))))
                == #"{"client_name":"gesturectl","id":1,"protocol_version":1,"type":"hello"}"# + "\n"
        )
        #expect(try json(ClientMessage(.listDevices)) == #"{"type":"list_devices"}"# + "\n")
        #expect(try json(ClientMessage(id: 8, .ping)) == #"{"id":8,"type":"ping"}"# + "\n")
        #expect(
            try json(ClientMessage(.subscribe(SubscribeRequest(kinds: ["swipe"], states: [.began], rawTouches: false))))
                == #"{"kinds":["swipe"],"raw_touches":false,"states":["began"],"type":"subscribe"}"# + "\n"
        )
    }

    @Test("a NaN cannot be written and says so instead of emitting invalid JSON")
    func nan() {
        var event = Self.pinch
        event.scale = .nan
        #expect(throws: ProtocolError.self) { try json(.gesture(event)) }
    }
}

@Suite("Round trips")
struct RoundTripTests {
    @Test(
        "every daemon message decodes back to itself",
        arguments: [
            DaemonMessage.gesture(JSONGoldenTests.swipe), .gesture(JSONGoldenTests.pinch),
            .hello(HelloReply(id: 1, daemonVersion: "0.1.0", capabilities: ["gestures"])),
            .ok(OkReply(id: nil, request: "reload")), .devices(DevicesReply(id: 3, devices: [JSONGoldenTests.device])),
            .status(
                StatusReply(
                    daemonVersion: "1",
                    uptimeUS: 1,
                    clients: 1,
                    devices: 0,
                    gesturesEmitted: 0,
                    configPath: nil,
                    gestures: 0
                )
            ),
            .error(ErrorReply(code: .lineTooLong, message: "line longer than 65536 bytes")),
            .touch(TouchEventMessage(device: "d", timeUS: 1, touchID: 1, phase: .began, xMM: 0.125, yMM: 3)),
            .deviceAdded(JSONGoldenTests.device), .deviceRemoved(DeviceRemovedEvent(device: "d", name: "n")),
            .overflow(OverflowEvent(queued: 1, message: "m")), .shutdown(ShutdownEvent(reason: "SIGINT")),
        ]
    )
    func daemon(message: DaemonMessage) throws {
        let line = try MessageEncoder().encode(message)
        #expect(line.last == 10)
        #expect(line.dropLast().contains(10) == false)
        #expect(try MessageDecoder().decodeDaemonMessage(line.dropLast()) == message)
    }

    @Test(
        "every client request decodes back to itself",
        arguments: [
            ClientMessage(id: 1, .hello(HelloRequest(clientName: "x"))),
            ClientMessage(id: -3, .subscribe(SubscribeRequest(gestures: ["a"], devices: ["event1"], rawTouches: true))),
            ClientMessage(.unsubscribe), ClientMessage(id: 0, .listDevices), ClientMessage(.status),
            ClientMessage(.reload), ClientMessage(id: Int.max, .ping),
        ]
    )
    func client(message: ClientMessage) throws {
        let line = try MessageEncoder().encode(message)
        #expect(try MessageDecoder().decodeRequest(line.dropLast()) == message)
    }

    @Test("clients skip message types they do not know")
    func unknownType() throws {
        let m = try MessageDecoder().decodeDaemonMessage(Array(#"{"type":"battery","level":3}"#.utf8))
        #expect(m == .unknown(type: "battery"))
    }

    @Test("a protocol error turns into the error reply carrying its id")
    func errorReply() throws {
        let e = ProtocolError(code: .notPermitted, message: "raw touches are not allowed for uid 1000", requestID: 6)
        #expect(
            try MessageEncoder().encodeString(e.reply)
                == #"{"code":"not_permitted","id":6,"message":"raw touches are not allowed for uid 1000","type":"error"}"#
                + "\n"
        )
    }
}
