import GesturedConfig
import GesturedProtocol

/// Fuzz target: `gesturectl run`'s actions.conf(5) parser, its subscription and its
/// matching of gesture events.
///
/// Properties beyond "no crash, no sanitizer report":
/// * every diagnostic names the file, a line inside it and a column ≥ 1;
/// * the subscription the file asks for encodes to a request line that decodes back to it;
/// * an event an action matches passes that subscription (the daemon-side filter never
///   hides an event some action wants).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzActions(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let contents = String(decoding: bytes, as: UTF8.self)
    // Counted on the input's bytes: decoding replaces invalid UTF-8 but never a `\n`.
    let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
    let file = ActionsFile.parse(file: "actions.conf", contents: contents)
    for diagnostic in file.diagnostics {
        if diagnostic.file != "actions.conf" || diagnostic.line < 1 || diagnostic.line > lines || diagnostic.column < 1 {
            fuzzFailure("diagnostic outside its \(lines)-line file: \(diagnostic)")
        }
    }
    let subscription = file.subscription
    let message = ClientMessage(id: 7, .subscribe(subscription))
    do {
        let line = try MessageEncoder().encode(message)
        let decoded = try MessageDecoder().decodeRequest(line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...])
        if decoded != message { fuzzFailure("subscription changed by encoding: \(message) → \(decoded)") }
    } catch {
        fuzzFailure("subscription does not round-trip: \(error)")
    }
    for event in ActionEvents.samples {
        for action in file.actions where action.matches(event) {
            if !subscription.matches(event) || !subscription.matchesDevice(node: event.device, name: event.deviceName) {
                fuzzFailure("action '\(action.name)' matches an event its subscription filters out")
            }
        }
    }
    return 0
}

enum ActionEvents {
    /// Gesture events of every kind and state, decoded from wire lines as a client gets them.
    static let samples: [GestureEventMessage] = {
        let decoder = MessageDecoder()
        var events: [GestureEventMessage] = []
        let kinds = ["tap", "long_press", "pan", "swipe", "pinch", "rotation", "edge_pan", "tickle"]
        let states = ["recognized", "began", "changed", "ended", "cancelled"]
        for (index, kind) in kinds.enumerated() {
            for state in states {
                let line = """
                    {"device":"/dev/input/event\(index)","device_name":"ELAN Touchscreen","direction":"left","dx_mm":-30,\
                    "dy_mm":1.5,"edge":"right","fingers":\(index % 5 + 1),"gesture_id":"event5:12","kind":"\(kind)",\
                    "name":"three-finger-\(kind)","state":"\(state)","time_us":1234567,"type":"gesture","vx_mm_s":-250,\
                    "vy_mm_s":0,"x_fraction":0.5,"x_mm":40.5,"y_fraction":0.25,"y_mm":20.25,"scale":1.5,"rotation":0.5}
                    """
                guard case .gesture(let event)? = try? decoder.decodeDaemonMessage(Array(line.utf8)) else {
                    fuzzFailure("sample event does not decode: \(line)")
                }
                events.append(event)
            }
        }
        return events
    }()
}
