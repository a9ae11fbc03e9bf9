import Testing

@testable import GesturedProtocol

private func decode(_ s: String) throws(ProtocolError) -> ClientMessage {
    try MessageDecoder().decodeRequest(Array(s.utf8))
}

private func decodeError(_ s: String) -> ProtocolError? {
    do {
        _ = try decode(s)
        return nil
    } catch {
        return error
    }
}

@Suite("Request decoding")
struct ClientRequestDecodingTests {
    @Test("hello with id decodes, unknown keys are ignored")
    func hello() throws {
        let m = try decode(#"{"type":"hello","id":1,"protocol_version":1,"client_name":"bar","future":[1,2]}"#)
        #expect(m == ClientMessage(id: 1, .hello(HelloRequest(protocolVersion: 1, clientName: "bar"))))
    }

    @Test(
        "every argument-free request decodes without id",
        arguments: [
            ("unsubscribe", ClientRequest.unsubscribe), ("list_devices", .listDevices), ("status", .status),
            ("reload", .reload), ("ping", .ping),
        ]
    )
    func simple(type: String, expected: ClientRequest) throws {
        let m = try decode(#"{"type":"\#(type)"}"#)
        #expect(m.id == nil)
        #expect(m.request == expected)
        #expect(m.request.type == type)
    }

    @Test("subscribe decodes every filter")
    func subscribe() throws {
        let m = try decode(
            #"{"type":"subscribe","id":7,"gestures":["pinch"],"kinds":["swipe","tickle"],"#
                + #""states":["began","ended"],"devices":["event5"],"raw_touches":true}"#
        )
        let expected = SubscribeRequest(
            gestures: ["pinch"],
            kinds: ["swipe", "tickle"],
            states: [.began, .ended],
            devices: ["event5"],
            rawTouches: true
        )
        #expect(m == ClientMessage(id: 7, .subscribe(expected)))
    }

    @Test("an empty subscribe means everything but raw touches")
    func emptySubscribe() throws {
        let m = try decode(#"{"type":"subscribe"}"#)
        guard case .subscribe(let s) = m.request else {
            Issue.record("expected subscribe, got \(m.request)")
            return
        }
        #expect(s == SubscribeRequest())
        #expect(!s.wantsRawTouches)
    }

    @Test(
        "errors are precise",
        arguments: [
            (#"{"type":"ping""#, ErrorCode.malformedJSON, "the line is not valid JSON", nil as Int?),
            ("\u{FF}", .malformedJSON, "the line is not valid JSON", nil),
            (#"["ping"]"#, .badRequest, "a message must be a JSON object", nil),
            (#""ping""#, .badRequest, "a message must be a JSON object", nil),
            (#"{"id":4}"#, .badRequest, "missing field 'type'", 4),
            (#"{"type":5}"#, .badRequest, "field 'type' must be a string", nil),
            (#"{"type":"ping","id":"x"}"#, .badRequest, "field 'id' must be an integer", nil),
            (#"{"type":"ping","id":1.5}"#, .badRequest, "field 'id' must be an integer", nil),
            (
                #"{"type":"frobnicate","id":3}"#, .unknownRequest,
                "unknown request type 'frobnicate' (known: hello, subscribe, unsubscribe, list_devices, status, reload, ping, send_keys, click)",
                3
            ),
            (#"{"type":"hello","id":9,"client_name":"x"}"#, .badRequest, "hello: missing field 'protocol_version'", 9),
            (
                #"{"type":"hello","protocol_version":"1","client_name":"x"}"#, .badRequest,
                "hello: field 'protocol_version' must be an integer", nil
            ),
            (
                #"{"type":"subscribe","gestures":"pinch"}"#, .badRequest,
                "subscribe: field 'gestures' must be an array", nil
            ),
            (
                #"{"type":"subscribe","gestures":["a",2]}"#, .badRequest,
                "subscribe: field 'gestures[1]' must be a string", nil
            ),
            (
                #"{"type":"subscribe","raw_touches":1}"#, .badRequest,
                "subscribe: field 'raw_touches' must be a boolean", nil
            ),
            (#"{"type":"send_keys","id":6}"#, .badRequest, "send_keys: missing field 'keys'", 6),
            (#"{"type":"send_keys","keys":"super+Page_Up"}"#, .badRequest, "send_keys: field 'keys' must be an array", nil),
            (#"{"type":"click","id":7,"button":1}"#, .badRequest, "click: field 'button' must be a string", 7),
        ]
    )
    func errors(line: String, code: ErrorCode, message: String, id: Int?) {
        let error = decodeError(line)
        #expect(error == ProtocolError(code: code, message: message, requestID: id))
    }

    @Test("send_keys and click decode with their optional device, and encode back to the same line")
    func inputRequests() throws {
        let keysLine = #"{"device":"/dev/input/event5","id":4,"keys":["super","Page_Up"],"type":"send_keys"}"#
        let keys = try MessageDecoder().decodeRequest(Array(keysLine.utf8))
        #expect(keys == ClientMessage(id: 4, .sendKeys(SendKeysRequest(keys: ["super", "Page_Up"], device: "/dev/input/event5"))))
        #expect(try MessageEncoder().encodeString(keys) == keysLine + "\n")
        let clickLine = #"{"button":"left","type":"click"}"#
        let click = try MessageDecoder().decodeRequest(Array(clickLine.utf8))
        #expect(click == ClientMessage(.click(ClickRequest(button: "left"))))
        #expect(try MessageEncoder().encodeString(click) == clickLine + "\n")
    }

    @Test("an unknown state is a bad request naming the field")
    func unknownState() throws {
        let error = try #require(decodeError(#"{"type":"subscribe","id":2,"states":["began","wiggled"]}"#))
        #expect(error.code == .badRequest)
        #expect(error.requestID == 2)
        #expect(error.message == "subscribe: field 'states[1]' has an invalid value (a state is one of began, changed, ended, cancelled, recognized)")
    }
}

@Suite("Version negotiation")
struct VersionNegotiationTests {
    @Test("the same major is accepted")
    func sameMajor() {
        #expect(ProtocolVersion.negotiate(clientMajor: ProtocolVersion.major) == nil)
    }

    @Test("any other major is refused with version_mismatch", arguments: [0, 2, -1, 99])
    func otherMajor(major: Int) throws {
        let error = try #require(ProtocolVersion.negotiate(clientMajor: major, requestID: 5))
        #expect(error.code == .versionMismatch)
        #expect(error.requestID == 5)
        #expect(error.message == "client speaks protocol \(major), daemon speaks protocol 1")
    }
}

@Suite("Subscription filters")
struct SubscriptionFilterTests {
    let event = GestureEventMessage(
        name: "three-finger-swipe",
        kind: "swipe",
        state: .recognized,
        device: "/dev/input/event5",
        deviceName: "ELAN Touchscreen",
        timeUS: 1,
        gestureID: "event5:1",
        fingers: 3,
        centroidMM: WireVector(x: 0, y: 0),
        centroidFraction: WireVector(x: 0, y: 0)
    )

    @Test("absent and empty filters pass everything")
    func passAll() {
        #expect(SubscribeRequest().matches(event))
        #expect(SubscribeRequest(gestures: [], kinds: [], states: [], devices: []).matches(event))
    }

    @Test("each filter excludes on its own")
    func each() {
        #expect(!SubscribeRequest(gestures: ["pinch"]).matches(event))
        #expect(!SubscribeRequest(kinds: ["tap"]).matches(event))
        #expect(!SubscribeRequest(states: [.began]).matches(event))
        #expect(!SubscribeRequest(devices: ["event6"]).matches(event))
        #expect(
            SubscribeRequest(gestures: ["three-finger-swipe"], kinds: ["swipe"], states: [.recognized]).matches(event)
        )
    }

    @Test(
        "a device matches by node, kernel name or device name",
        arguments: [
            "/dev/input/event5", "event5", "ELAN Touchscreen",
        ]
    )
    func device(spec: String) {
        #expect(SubscribeRequest(devices: [spec]).matches(event))
    }

    @Test("gesture ids are kernel name and sequence")
    func gestureID() {
        #expect(GestureEventMessage.gestureID(device: "/dev/input/event5", sequence: 12) == "event5:12")
        #expect(GestureEventMessage.gestureID(device: "/dev/input/event5/", sequence: 1) == "event5:1")
        #expect(GestureEventMessage.gestureID(device: "replay:demo.evemu", sequence: 3) == "replay:demo.evemu:3")
        #expect(GestureEventMessage.gestureID(device: "/", sequence: 4) == "/:4")
    }
}
