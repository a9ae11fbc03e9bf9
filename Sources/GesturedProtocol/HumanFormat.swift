

/// One human-readable line per event for `--dry-run`/`--replay` without `--json` and for
/// `gesturectl debug-events`: relative time first, then the values that apply, fixed decimals.
///
///     +1.234s event5 swipe 'swipe-left-3' recognized fingers=3 dir=left dx_mm=-24.10 dy_mm=0.20
public enum HumanFormat {
    /// - Parameter originMicroseconds: the time shown as +0.000s (the first event's time).
    public static func line(_ message: DaemonMessage, originMicroseconds: Int64) -> String? {
        switch message {
        case .gesture(let g):
            return gestureLine(g, originMicroseconds: originMicroseconds)
        case .touch(let t):
            return "\(relative(t.timeUS, originMicroseconds)) \(kernelName(t.device)) touch #\(t.touchID) \(t.phase.rawValue) x_mm=\(fixed(t.xMM)) y_mm=\(fixed(t.yMM))"
        case .deviceAdded(let d):
            return "device added \(d.device) '\(d.name)' \(d.kind) \(fixed(d.widthMM, 1))x\(fixed(d.heightMM, 1))mm slots=\(d.slots)"
        case .deviceRemoved(let d):
            return "device removed \(d.device) '\(d.name)'"
        case .overflow(let o):
            return "overflow: \(o.message)"
        case .shutdown(let s):
            return "daemon shutting down (\(s.reason))"
        case .error(let e):
            return "error \(e.code.rawValue): \(e.message)"
        case .hello, .ok, .devices, .status, .unknown:
            return nil
        }
    }

    public static func gestureLine(_ g: GestureEventMessage, originMicroseconds: Int64) -> String {
        var parts = [relative(g.timeUS, originMicroseconds), kernelName(g.device), g.kind, "'\(g.name)'", g.state.rawValue]
        parts.append("fingers=\(g.fingers)")
        if let taps = g.taps { parts.append("taps=\(taps)") }
        if let direction = g.direction { parts.append("dir=\(direction)") }
        if let edge = g.edge { parts.append("edge=\(edge)") }
        parts.append("x_mm=\(fixed(g.xMM)) y_mm=\(fixed(g.yMM))")
        if let dx = g.dxMM, let dy = g.dyMM { parts.append("dx_mm=\(fixed(dx)) dy_mm=\(fixed(dy))") }
        if let scale = g.scale { parts.append("scale=\(fixed(scale, 3))") }
        if let rotation = g.rotation { parts.append("rotation=\(fixed(rotation, 3))") }
        if let values = g.values {
            for key in values.keys.sorted() { parts.append("\(key)=\(fixed(values[key] ?? 0))") }
        }
        return parts.joined(separator: " ")
    }

    static func kernelName(_ node: String) -> String {
        node.split(separator: "/").last.map(String.init) ?? node
    }

    static func relative(_ time: Int64, _ origin: Int64) -> String {
        let delta = time - origin
        let sign = delta < 0 ? "-" : "+"
        let magnitude = delta.magnitude
        let millis = String(magnitude / 1000 % 1000)
        return "\(sign)\(magnitude / 1_000_000).\(String(repeating: "0", count: 3 - millis.count))\(millis)s"
    }

    /// `value` with exactly `places` decimals (no Foundation formatting).
    public static func fixed(_ value: Double, _ places: Int = 2) -> String {
        guard value.isFinite else { return "nan" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let integer = UInt64(scaled / scale)
        let fraction = UInt64(scaled - Double(integer) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        if places == 0 { return "\(sign)\(integer)" }
        let fractionText = String(fraction)
        return "\(sign)\(integer).\(String(repeating: "0", count: places - fractionText.count))\(fractionText)"
    }
}
