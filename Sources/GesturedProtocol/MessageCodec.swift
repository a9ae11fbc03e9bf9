/// Encodes messages as one JSON object per line, keys sorted, so output is byte-stable.
/// The JSON reader and writer are the protocol's own (`JSON/`), so nothing here links
/// FoundationEssentials: sorted keys make transcripts and goldens byte-stable; slashes are
/// not escaped, so device nodes stay readable ("/dev/input/event5").
public struct MessageEncoder: Sendable {
    public init() {}

    /// One daemon message as UTF-8 JSON followed by exactly one `\n`.
    /// - Throws: ``ProtocolError`` with code `bad_request` when a value cannot be written
    ///   (a NaN or infinite number, which would be an engine bug).
    public func encode(_ message: DaemonMessage) throws(ProtocolError) -> [UInt8] {
        switch message {
        case .hello(let m): try line(message.type, m)
        case .ok(let m): try line(message.type, m)
        case .devices(let m): try line(message.type, m)
        case .status(let m): try line(message.type, m)
        case .error(let m): try line(message.type, m)
        case .gesture(let m): try eventLine(message.type) { m.wireLine(into: &$0) }
        case .touch(let m): try eventLine(message.type) { m.wireLine(into: &$0) }
        case .deviceAdded(let m): try line(message.type, m)
        case .deviceRemoved(let m): try line(message.type, m)
        case .overflow(let m): try line(message.type, m)
        case .shutdown(let m): try line(message.type, m)
        case .unknown(let type): try line(type, Empty())
        }
    }

    /// One client request as UTF-8 JSON followed by exactly one `\n`.
    public func encode(_ message: ClientMessage) throws(ProtocolError) -> [UInt8] {
        let id = IDOnly(id: message.id)
        switch message.request {
        case .hello(let m): return try line(message.request.type, WithID(id: message.id, payload: m))
        case .subscribe(let m): return try line(message.request.type, WithID(id: message.id, payload: m))
        case .sendKeys(let m): return try line(message.request.type, WithID(id: message.id, payload: m))
        case .click(let m): return try line(message.request.type, WithID(id: message.id, payload: m))
        case .unsubscribe, .listDevices, .status, .reload, .ping: return try line(message.request.type, id)
        }
    }

    /// Convenience: ``encode(_:)-(DaemonMessage)`` as a `String` (ends with `\n`).
    public func encodeString(_ message: DaemonMessage) throws(ProtocolError) -> String {
        String(decoding: try encode(message), as: UTF8.self)
    }

    /// Convenience: ``encode(_:)-(ClientMessage)`` as a `String` (ends with `\n`).
    public func encodeString(_ message: ClientMessage) throws(ProtocolError) -> String {
        String(decoding: try encode(message), as: UTF8.self)
    }

    /// An event line written by its table-driven writer (``WireWriter``).
    private func eventLine(_ type: String, _ write: (inout [UInt8]) -> Bool) throws(ProtocolError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        guard write(&bytes) else {
            throw ProtocolError(code: .badRequest, message: "cannot encode \(type) message: a number is not finite")
        }
        return bytes
    }

    /// The generic path through `Encodable` (also the reference the fast writer is tested
    /// against).
    func line(_ type: String, _ payload: some Encodable) throws(ProtocolError) -> [UInt8] {
        do {
            var bytes: [UInt8] = []
            JSONWriter.write(try JSONValueEncoder.encode(Tagged(type: type, payload: payload)), into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
            return bytes
        } catch {
            throw ProtocolError(code: .badRequest, message: "cannot encode \(type) message: \(error)")
        }
    }
}

/// Writes `payload`'s keys and a `type` key into one JSON object.
private struct Tagged<Payload: Encodable>: Encodable {
    var type: String
    var payload: Payload

    enum CodingKeys: String, CodingKey { case type }

    func encode(to encoder: any Encoder) throws {
        try payload.encode(to: encoder)
        // The encoder hands out the same object for a second keyed container, so the tag
        // lands beside the payload's keys (checked by the golden tests).
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
    }
}

private struct Empty: Encodable {}

private struct IDOnly: Codable {
    var id: Int?
}

private struct WithID<Payload: Encodable>: Encodable {
    var id: Int?
    var payload: Payload

    enum CodingKeys: String, CodingKey { case id }

    func encode(to encoder: any Encoder) throws {
        try payload.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
    }
}

/// Parses single lines (without terminator) into messages, with precise errors.
///
/// Errors, in the order they are checked: not JSON → `malformed_json`; not an object, `type`
/// missing or not a string, `id` not an integer → `bad_request`; an unknown `type` →
/// `unknown_request`; a missing or mistyped field of a known request → `bad_request` naming
/// the field. Unknown keys are ignored.
public struct MessageDecoder: Sendable {
    public init() {}

    /// Decodes one client request line.
    public func decodeRequest(_ line: some Collection<UInt8>) throws(ProtocolError) -> ClientMessage {
        let data = try parse(line)
        let envelope = try decodeEnvelope(data)
        let id = envelope.id
        guard let type = envelope.type else {
            throw ProtocolError(code: .badRequest, message: "missing field 'type'", requestID: id)
        }
        let request: ClientRequest
        switch type {
        case "hello": request = .hello(try decodePayload(HelloRequest.self, type: type, from: data, id: id))
        case "subscribe": request = .subscribe(try decodePayload(SubscribeRequest.self, type: type, from: data, id: id))
        case "unsubscribe": request = .unsubscribe
        case "list_devices": request = .listDevices
        case "status": request = .status
        case "reload": request = .reload
        case "ping": request = .ping
        case "send_keys": request = .sendKeys(try decodePayload(SendKeysRequest.self, type: type, from: data, id: id))
        case "click": request = .click(try decodePayload(ClickRequest.self, type: type, from: data, id: id))
        default:
            throw ProtocolError(
                code: .unknownRequest,
                message: "unknown request type '\(type)' (known: \(ClientRequest.allTypes.joined(separator: ", ")))",
                requestID: id
            )
        }
        return ClientMessage(id: id, request)
    }

    /// Decodes one daemon message line (for clients). Unknown `type`s become
    /// ``DaemonMessage/unknown(type:)`` rather than errors.
    public func decodeDaemonMessage(_ line: some Collection<UInt8>) throws(ProtocolError) -> DaemonMessage {
        let data = try parse(line)
        let envelope = try decodeEnvelope(data)
        guard let type = envelope.type else {
            throw ProtocolError(code: .badRequest, message: "missing field 'type'")
        }
        switch type {
        case "hello": return .hello(try decodePayload(HelloReply.self, type: type, from: data, id: nil))
        case "ok": return .ok(try decodePayload(OkReply.self, type: type, from: data, id: nil))
        case "devices": return .devices(try decodePayload(DevicesReply.self, type: type, from: data, id: nil))
        case "status": return .status(try decodePayload(StatusReply.self, type: type, from: data, id: nil))
        case "error": return .error(try decodePayload(ErrorReply.self, type: type, from: data, id: nil))
        case "gesture": return .gesture(try decodePayload(GestureEventMessage.self, type: type, from: data, id: nil))
        case "touch":
            if let fast = fastTouch(data) { return .touch(fast) }
            return .touch(try decodePayload(TouchEventMessage.self, type: type, from: data, id: nil))
        case "device_added": return .deviceAdded(try decodePayload(DeviceInfo.self, type: type, from: data, id: nil))
        case "device_removed":
            return .deviceRemoved(try decodePayload(DeviceRemovedEvent.self, type: type, from: data, id: nil))
        case "overflow": return .overflow(try decodePayload(OverflowEvent.self, type: type, from: data, id: nil))
        case "shutdown": return .shutdown(try decodePayload(ShutdownEvent.self, type: type, from: data, id: nil))
        default: return .unknown(type: type)
        }
    }

    private func parse(_ line: some Collection<UInt8>) throws(ProtocolError) -> JSONValue {
        do {
            return try JSONParser.parse(line)
        } catch {
            throw ProtocolError(code: .malformedJSON, message: "the line is not valid JSON")
        }
    }

    /// The `type` and `id` of any object, read straight from the parsed object: a message
    /// that is not an object, a `type` that is not a string and an `id` that is not an
    /// integer are each reported as that problem.
    private struct Envelope {
        var type: String?
        var id: Int?
    }

    private func decodeEnvelope(_ data: JSONValue) throws(ProtocolError) -> Envelope {
        guard case .object(let members) = data else {
            throw ProtocolError(code: .badRequest, message: "a message must be a JSON object")
        }
        var envelope = Envelope()
        if let id = members["id"] {
            guard case .number(let text) = id, let value = Int(text) ?? Double(text).flatMap({ Int(exactly: $0) }) else {
                throw ProtocolError(code: .badRequest, message: "field 'id' must be an integer")
            }
            envelope.id = value
        }
        if let type = members["type"] {
            guard case .string(let text) = type else {
                throw ProtocolError(code: .badRequest, message: "field 'type' must be a string", requestID: envelope.id)
            }
            envelope.type = text
        }
        return envelope
    }

    /// `touch`, the most frequent message a raw subscriber reads, without the `Decodable`
    /// machinery; nil when anything is missing or odd (the generic path then names it).
    private func fastTouch(_ data: JSONValue) -> TouchEventMessage? {
        guard case .object(let m) = data,
            case .string(let device) = m["device"], case .string(let phaseText) = m["phase"],
            let phase = WireTouchPhase(rawValue: phaseText),
            case .number(let time) = m["time_us"], let timeUS = Int64(time),
            case .number(let touch) = m["touch_id"], let touchID = UInt64(touch),
            case .number(let x) = m["x_mm"], let xMM = Double(x),
            case .number(let y) = m["y_mm"], let yMM = Double(y)
        else { return nil }
        return TouchEventMessage(device: device, timeUS: timeUS, touchID: touchID, phase: phase, xMM: xMM, yMM: yMM)
    }

    private func decodePayload<T: Decodable>(
        _: T.Type,
        type: String,
        from data: JSONValue,
        id: Int?
    ) throws(ProtocolError) -> T {
        do {
            return try JSONValueDecoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw ProtocolError(code: .badRequest, message: Self.describe(error, in: type), requestID: id)
        } catch {
            throw ProtocolError(code: .badRequest, message: "\(type): \(error)", requestID: id)
        }
    }

    private static func path(of error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        @unknown default: path = []
        }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    private static func describe(_ error: DecodingError, in type: String) -> String {
        let field = path(of: error)
        switch error {
        case .keyNotFound:
            return "\(type): missing field '\(field)'"
        case .typeMismatch(let expected, _), .valueNotFound(let expected, _):
            return "\(type): field '\(field)' must be \(typeName(expected))"
        case .dataCorrupted:
            // Raised for enum fields (states) holding an unknown string. The decoder's own text
            // names Swift types ("Cannot initialize WireGestureState from …"): say what is valid.
            if field.hasPrefix("states") {
                let states = WireGestureState.allCases.map(\.rawValue).joined(separator: ", ")
                return "\(type): field '\(field)' has an invalid value (a state is one of \(states))"
            }
            return "\(type): field '\(field)' has an invalid value"
        @unknown default:
            return "\(type): invalid message"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is UInt64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        case is [String].Type, is [Any].Type: "an array"
        default: "of type \(type)"
        }
    }
}
