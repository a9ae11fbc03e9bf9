/// Writes `gesture` and `touch` events — the messages sent for every frame — without
/// the generic `Encodable` path, byte for byte as ``MessageEncoder`` would (sorted keys, unescaped slashes,
/// the same number spelling). A test compares both on many generated messages; anything this
/// writer is not sure to reproduce (control characters in strings, numbers that are not
/// finite) returns nil and the caller falls back to the generic path.
enum FastEventWriter {
    static func gesture(_ m: GestureEventMessage) -> [UInt8]? {
        var fields: [(String, String)] = []
        fields.reserveCapacity(37)
        func string(_ key: String, _ value: String?) -> Bool {
            guard let value else { return true }
            guard let quoted = quote(value) else { return false }
            fields.append((key, quoted))
            return true
        }
        func number(_ key: String, _ value: Double?) -> Bool {
            guard let value else { return true }
            guard let text = spell(value) else { return false }
            fields.append((key, text))
            return true
        }
        func integer(_ key: String, _ value: Int64?) {
            if let value { fields.append((key, String(value))) }
        }
        guard string("name", m.name), string("kind", m.kind), string("state", m.state.rawValue), string("device", m.device),
            string("device_name", m.deviceName), string("gesture_id", m.gestureID), string("direction", m.direction),
            string("edge", m.edge), string("type", "gesture"),
            number("x_mm", m.xMM), number("y_mm", m.yMM), number("x_fraction", m.xFraction), number("y_fraction", m.yFraction),
            number("dx_mm", m.dxMM), number("dy_mm", m.dyMM), number("vx_mm_s", m.vxMMPerS), number("vy_mm_s", m.vyMMPerS),
            number("scale", m.scale), number("scale_velocity", m.scaleVelocity), number("rotation", m.rotation),
            number("rotation_velocity", m.rotationVelocity),
            number("dx_delta_mm", m.dxDeltaMM), number("dy_delta_mm", m.dyDeltaMM), number("dx_fraction", m.dxFraction),
            number("dy_fraction", m.dyFraction), number("scale_delta", m.scaleDelta),
            number("rotation_delta", m.rotationDelta), number("rest_x_mm", m.restXMM), number("rest_y_mm", m.restYMM),
            number("rest_dx_fraction", m.restDxFraction), number("rest_dy_fraction", m.restDyFraction),
            number("fling_s", m.flingS)
        else { return nil }
        integer("time_us", m.timeUS)
        integer("fingers", Int64(m.fingers))
        integer("taps", m.taps.map(Int64.init))
        if let approximate = m.approximateUnits { fields.append(("approximate_units", approximate ? "true" : "false")) }
        if let locked = m.locked { fields.append(("locked", locked ? "true" : "false")) }
        if let consumed = m.touchesConsumed { fields.append(("touches_consumed", consumed ? "true" : "false")) }
        if let values = m.values {
            var inner: [String] = []
            for key in values.keys.sorted() {
                guard let k = quote(key), let v = spell(values[key]!) else { return nil }
                inner.append(k + ":" + v)
            }
            fields.append(("values", "{" + inner.joined(separator: ",") + "}"))
        }
        return object(fields)
    }

    static func touch(_ m: TouchEventMessage) -> [UInt8]? {
        guard let device = quote(m.device), let x = spell(m.xMM), let y = spell(m.yMM) else { return nil }
        return object([
            ("device", device), ("phase", "\"" + m.phase.rawValue + "\""), ("time_us", String(m.timeUS)),
            ("touch_id", String(m.touchID)), ("type", "\"touch\""), ("x_mm", x), ("y_mm", y),
        ])
    }

    private static func object(_ fields: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        bytes.append(UInt8(ascii: "{"))
        for (index, field) in fields.sorted(by: { $0.0 < $1.0 }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes += field.0.utf8
            bytes += "\":".utf8
            bytes += field.1.utf8
        }
        bytes += "}\n".utf8
        return bytes
    }

    /// A JSON string literal; nil for text with control characters (left to the generic path).
    static func quote(_ text: String) -> String? {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if scalar.value < 0x20 { return nil }
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A number as the generic path spells it: integral values without ".0", everything else as
    /// Swift's shortest round-trip description ("0.1", "1e-07", "1e+21"); nil when not finite.
    static func spell(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
