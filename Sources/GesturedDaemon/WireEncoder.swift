public import GestureEngine
public import GesturedProtocol


/// What a device contributes to each of its lines, taken from values the device session
/// already holds (no string is built per event). A class, made once per session: a step
/// hands it on with one reference count, where the struct it was took seven (its strings
/// and literals) on every publish.
public final class WireDevice {
    /// Device node ("/dev/input/event5", "replay:demo.evemu").
    public let node: String
    /// The node's last path component ("event5"), the prefix of `gesture_id`.
    public let kernelName: Substring
    /// The kernel's device name.
    public let name: String
    /// The device reports no resolution: its millimetres are estimated.
    public let approximateUnits: Bool
    /// ``node`` and ``name`` as JSON string literals (quoted, escaped where needed), and
    /// `gesture_id`'s start (`"` + the escaped ``kernelName`` + `:`), spelled once when the
    /// device's session opens: a line copies them instead of checking and quoting them.
    let nodeLiteral: [UInt8]
    let nameLiteral: [UInt8]
    let gestureIDPrefix: [UInt8]

    public init(node: String, device: DeviceDescription) {
        self.node = node
        self.kernelName = SubscribeRequest.kernelName(of: node)
        self.name = device.name
        self.approximateUnits = !device.hasResolution
        var literal: [UInt8] = []
        WireWriter.string(node, &literal)
        nodeLiteral = literal
        literal = []
        WireWriter.string(device.name, &literal)
        nameLiteral = literal
        literal = []
        WireWriter.string(kernelName, &literal)
        literal.removeLast()  // the closing quote: the sequence goes inside
        literal.append(UInt8(ascii: ":"))
        gestureIDPrefix = literal
    }
}

extension WireMapping {
    /// Encodes the engine's gesture event once, straight into `batch`: every key in
    /// ``GestureEventMessage/wireOrder`` (the table the decoder reads by), each value rounded
    /// as ``gestureMessage(_:node:device:)`` rounds it, so the bytes equal that message's line.
    /// - Parameters:
    ///   - locked: the seat's lock state (every event carries it).
    ///   - consumed: the grab took the gesture's touches from applications.
    ///   - audience: nil for every client, else the part of them the lock policy allows.
    ///   - state: the state written, when it differs from the event's (the `cancelled` the
    ///     others get of a gesture a lock cut).
    /// - Returns: false when a value is not finite (an engine bug; nothing is appended).
    @discardableResult
    public static func appendGesture(
        _ e: GestureEvent, device: WireDevice, locked: Bool, consumed: Bool, audience: GestureAudience? = nil,
        state: WireGestureState? = nil, to batch: EncodedBatch
    ) -> Bool {
        let wireState = state ?? wireState(e.state)
        let facts = PublishedEvent(
            kind: .gesture, device: device.node, deviceName: device.name, name: e.name, gestureKind: e.kind.name, state: wireState,
            audience: audience, coalesceKey: wireState == .changed ? .attempt(device: device.node, sequence: e.sequence) : nil)
        return batch.append(facts) { bytes in
            writeGesture(e, device: device, locked: locked, consumed: consumed, state: wireState, into: &bytes)
        }
    }

    /// Encodes a raw touch straight into `batch` (keys in ``TouchEventMessage/wireOrder``).
    @discardableResult
    public static func appendTouch(_ t: SinkTouchEvent, device: WireDevice, to batch: EncodedBatch) -> Bool {
        batch.append(PublishedEvent(kind: .touch, device: device.node, deviceName: "")) { bytes in
            TouchEventMessage.writeLine(
                device: device.node, timeUS: t.timestamp.microseconds, touchID: t.touch.rawValue, phase: wirePhase(t.phase),
                xMM: rounded(t.position.x), yMM: rounded(t.position.y), into: &bytes)
        }
    }

    /// One gesture line: the mapping of ``gestureMessage(_:node:device:)`` and the writing of
    /// ``GestureEventMessage/wireLine(into:)`` in one pass, with no message in between.
    ///
    /// Written through a ``WireCursor`` into room reserved at the end of `bytes` for the whole
    /// line (``WireCursor/bound(strings:)``), keys from ``GestureEventMessage/wireKeys``; a
    /// line with a string that needs an escape, or with a custom recognizer's values, takes
    /// the array path (``writeGestureThroughArray(_:device:locked:consumed:state:into:)``),
    /// which spells every line the same (WireEncoderTests compare both to the generic encoder).
    static func writeGesture(
        _ e: GestureEvent, device: WireDevice, locked: Bool, consumed: Bool, state: WireGestureState, into bytes: inout [UInt8]
    ) -> Bool {
        guard e.reported.values.isEmpty else {
            return writeGestureThroughArray(e, device: device, locked: locked, consumed: consumed, state: state, into: &bytes)
        }
        let kind = e.kind.name
        // name, kind, state, the device's three literals; direction, edge and "gesture" are
        // under 16 bytes together.
        let strings =
            e.name.utf8.count + kind.utf8.count + state.rawValue.utf8.count + device.nodeLiteral.count + device.nameLiteral.count
            + device.gestureIDPrefix.count + 16
        var written: Bool?
        bytes.append(addingCapacity: WireCursor.bound(strings: strings)) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                var cursor = WireCursor(buffer.baseAddress!)
                written = writeGesture(e, kind: kind, device: device, locked: locked, consumed: consumed, state: state, to: &cursor)
                initialized = written == true ? cursor.count : 0
            }
        }
        if let written { return written }
        return writeGestureThroughArray(e, device: device, locked: locked, consumed: consumed, state: state, into: &bytes)
    }

    /// ``writeGesture(_:device:locked:consumed:state:into:)`` through a cursor: nil when a
    /// string needs an escape (the caller takes the array path), false when a value is not finite.
    private static func writeGesture(
        _ e: GestureEvent, kind: String, device: WireDevice, locked: Bool, consumed: Bool, state: WireGestureState,
        to c: inout WireCursor
    ) -> Bool? {
        let table = GestureEventMessage.wireKeys
        return table.bytes.withUnsafeBufferPointer { keys -> Bool? in
            var first = true
            c.byte(UInt8(ascii: "{"))
            func key(_ entry: WireKeyTable.Entry) {
                // `,"key":`, without the comma before the first key.
                let skip = first ? 1 : 0
                first = false
                c.bytes(UnsafeBufferPointer(rebasing: keys[(entry.offset + skip)..<(entry.offset + entry.count)]))
            }
            /// The value rounded to `places` as ``WireMapping/rounded(_:places:)`` rounds it.
            func put(_ entry: WireKeyTable.Entry, _ value: Double?, _ places: Int = 2) {
                guard let value else { return }
                key(entry)
                c.fixed(value, places: places)
            }
            func literal(_ entry: WireKeyTable.Entry, _ bytes: [UInt8]) {
                key(entry)
                bytes.withUnsafeBufferPointer { c.bytes($0) }
            }
            func string(_ entry: WireKeyTable.Entry, _ value: String?) -> Bool {
                guard let value else { return true }
                key(entry)
                return c.string(value)
            }
            let scaleVelocity = e.reported.scale != nil ? e.reported.scalarVelocity : nil
            let rotationVelocity = e.reported.scale == nil && e.reported.rotation != nil ? e.reported.scalarVelocity : nil
            for entry in table.entries {
                switch entry.slot {
                case .type:
                    guard string(entry, "gesture") else { return nil }
                case .key(let name):
                    switch name {
                    case .name: guard string(entry, e.name) else { return nil }
                    case .kind: guard string(entry, kind) else { return nil }
                    case .state: guard string(entry, state.rawValue) else { return nil }
                    case .device: literal(entry, device.nodeLiteral)
                    case .deviceName: literal(entry, device.nameLiteral)
                    case .timeUS:
                        key(entry)
                        c.integer(e.timestamp.microseconds)
                    case .gestureID:
                        // "<kernel name>:<sequence>", written in place.
                        literal(entry, device.gestureIDPrefix)
                        c.unsigned(e.sequence)
                        c.byte(UInt8(ascii: "\""))
                    case .fingers:
                        key(entry)
                        c.integer(Int64(e.reported.fingers))
                    case .xMM: put(entry, e.reported.location.x)
                    case .yMM: put(entry, e.reported.location.y)
                    case .xFraction: put(entry, e.locationFraction.x, 4)
                    case .yFraction: put(entry, e.locationFraction.y, 4)
                    case .taps:
                        if let taps = e.reported.taps {
                            key(entry)
                            c.integer(Int64(taps))
                        }
                    case .direction: guard string(entry, e.reported.direction?.rawValue) else { return nil }
                    case .edge: guard string(entry, e.reported.edge?.rawValue) else { return nil }
                    case .dxMM: put(entry, e.reported.translation?.x)
                    case .dyMM: put(entry, e.reported.translation?.y)
                    case .vxMMPerS: put(entry, e.reported.velocity?.x)
                    case .vyMMPerS: put(entry, e.reported.velocity?.y)
                    case .scale: put(entry, e.reported.scale, 4)
                    case .scaleVelocity: put(entry, scaleVelocity)
                    case .rotation: put(entry, e.reported.rotation, 4)
                    case .rotationVelocity: put(entry, rotationVelocity)
                    case .approximateUnits:
                        if device.approximateUnits {
                            key(entry)
                            c.bool(true)
                        }
                    case .values:
                        // Only without values (the caller's guard): nothing to write.
                        break
                    case .locked:
                        key(entry)
                        c.bool(locked)
                    case .touchesConsumed:
                        if consumed {
                            key(entry)
                            c.bool(true)
                        }
                    case .dxDeltaMM: put(entry, change(e.reported.translation?.x, e.translationDelta?.x, places: 2), 2)
                    case .dyDeltaMM: put(entry, change(e.reported.translation?.y, e.translationDelta?.y, places: 2), 2)
                    case .dxFraction: put(entry, e.translationFraction?.x, 4)
                    case .dyFraction: put(entry, e.translationFraction?.y, 4)
                    case .scaleDelta: put(entry, change(e.reported.scale, e.scaleDelta, places: 4), 4)
                    case .rotationDelta: put(entry, change(e.reported.rotation, e.rotationDelta, places: 4), 4)
                    case .restXMM: put(entry, e.fling?.restLocation.x)
                    case .restYMM: put(entry, e.fling?.restLocation.y)
                    case .restDxFraction: put(entry, e.fling?.restTranslationFraction.x, 4)
                    case .restDyFraction: put(entry, e.fling?.restTranslationFraction.y, 4)
                    case .flingS: put(entry, e.fling?.duration, 3)
                    }
                }
            }
            c.byte(UInt8(ascii: "}"))
            c.byte(UInt8(ascii: "\n"))
            return true
        }
    }

    /// The array path of ``writeGesture(_:device:locked:consumed:state:into:)``: every line,
    /// escapes and custom values included.
    static func writeGestureThroughArray(
        _ e: GestureEvent, device: WireDevice, locked: Bool, consumed: Bool, state: WireGestureState, into bytes: inout [UInt8]
    ) -> Bool {
        var w = WireWriter()
        w.begin(&bytes)
        func put(_ name: [UInt8], _ value: Double?) -> Bool {
            guard let value else { return true }
            w.key(name, &bytes)
            return WireWriter.number(value, &bytes)
        }
        func string(_ name: [UInt8], _ value: String?) {
            guard let value else { return }
            w.key(name, &bytes)
            WireWriter.string(value, &bytes)
        }
        // The recognizer's values are read where the engine embedded them (`reported`).
        // scalarVelocity is the scale's or else the rotation's.
        let scaleVelocity = e.reported.scale != nil ? e.reported.scalarVelocity : nil
        let rotationVelocity = e.reported.scale == nil && e.reported.rotation != nil ? e.reported.scalarVelocity : nil
        for (slot, _, name) in GestureEventMessage.wireOrder {
            let ok: Bool
            switch slot {
            case .type:
                string(name, "gesture")
                ok = true
            case .key(let key):
                switch key {
                case .name: string(name, e.name); ok = true
                case .kind: string(name, e.kind.name); ok = true
                case .state: string(name, state.rawValue); ok = true
                case .device: w.key(name, &bytes); bytes += device.nodeLiteral; ok = true
                case .deviceName: w.key(name, &bytes); bytes += device.nameLiteral; ok = true
                case .timeUS:
                    w.key(name, &bytes)
                    WireWriter.integer(e.timestamp.microseconds, &bytes)
                    ok = true
                case .gestureID:
                    // "<kernel name>:<sequence>", written in place.
                    w.key(name, &bytes)
                    bytes += device.gestureIDPrefix
                    WireWriter.unsigned(e.sequence, &bytes)
                    bytes.append(UInt8(ascii: "\""))
                    ok = true
                case .fingers:
                    w.key(name, &bytes)
                    WireWriter.integer(Int64(e.reported.fingers), &bytes)
                    ok = true
                case .xMM: ok = put(name, rounded(e.reported.location.x))
                case .yMM: ok = put(name, rounded(e.reported.location.y))
                case .xFraction: ok = put(name, rounded(e.locationFraction.x, places: 4))
                case .yFraction: ok = put(name, rounded(e.locationFraction.y, places: 4))
                case .taps:
                    if let taps = e.reported.taps {
                        w.key(name, &bytes)
                        WireWriter.integer(Int64(taps), &bytes)
                    }
                    ok = true
                case .direction: string(name, e.reported.direction?.rawValue); ok = true
                case .edge: string(name, e.reported.edge?.rawValue); ok = true
                case .dxMM: ok = put(name, e.reported.translation.map { rounded($0.x) })
                case .dyMM: ok = put(name, e.reported.translation.map { rounded($0.y) })
                case .vxMMPerS: ok = put(name, e.reported.velocity.map { rounded($0.x) })
                case .vyMMPerS: ok = put(name, e.reported.velocity.map { rounded($0.y) })
                case .scale: ok = put(name, e.reported.scale.map { rounded($0, places: 4) })
                case .scaleVelocity: ok = put(name, scaleVelocity.map { rounded($0) })
                case .rotation: ok = put(name, e.reported.rotation.map { rounded($0, places: 4) })
                case .rotationVelocity: ok = put(name, rotationVelocity.map { rounded($0) })
                case .approximateUnits:
                    if device.approximateUnits {
                        w.key(name, &bytes)
                        WireWriter.bool(true, &bytes)
                    }
                    ok = true
                case .values:
                    if e.reported.values.isEmpty {
                        ok = true
                    } else {
                        w.key(name, &bytes)
                        ok = WireWriter.numbers(e.reported.values, &bytes)
                    }
                case .locked:
                    w.key(name, &bytes)
                    WireWriter.bool(locked, &bytes)
                    ok = true
                case .touchesConsumed:
                    if consumed {
                        w.key(name, &bytes)
                        WireWriter.bool(true, &bytes)
                    }
                    ok = true
                case .dxDeltaMM: ok = put(name, delta(e.reported.translation?.x, e.translationDelta?.x, places: 2))
                case .dyDeltaMM: ok = put(name, delta(e.reported.translation?.y, e.translationDelta?.y, places: 2))
                case .dxFraction: ok = put(name, e.translationFraction.map { rounded($0.x, places: 4) })
                case .dyFraction: ok = put(name, e.translationFraction.map { rounded($0.y, places: 4) })
                case .scaleDelta: ok = put(name, delta(e.reported.scale, e.scaleDelta, places: 4))
                case .rotationDelta: ok = put(name, delta(e.reported.rotation, e.rotationDelta, places: 4))
                case .restXMM: ok = put(name, e.fling.map { rounded($0.restLocation.x) })
                case .restYMM: ok = put(name, e.fling.map { rounded($0.restLocation.y) })
                case .restDxFraction: ok = put(name, e.fling.map { rounded($0.restTranslationFraction.x, places: 4) })
                case .restDyFraction: ok = put(name, e.fling.map { rounded($0.restTranslationFraction.y, places: 4) })
                case .flingS: ok = put(name, e.fling.map { rounded($0.duration, places: 3) })
                }
            }
            guard ok else { return false }
        }
        w.endLine(&bytes)
        return true
    }

    /// A delta before its last rounding (``delta(_:_:places:)`` rounds this once more): the
    /// difference of the value and the previous one, each rounded to `places`.
    private static func change(_ value: Double?, _ change: Double?, places: Int) -> Double? {
        guard let value, let change else { return nil }
        return rounded(value, places: places) - rounded(value - change, places: places)
    }

    /// A delta as ``addMotion(of:to:)`` sends it (``roundedDifference(_:_:places:)``): present
    /// when both the value and its change are.
    private static func delta(_ value: Double?, _ change: Double?, places: Int) -> Double? {
        Self.change(value, change, places: places).map { rounded($0, places: places) }
    }
}
