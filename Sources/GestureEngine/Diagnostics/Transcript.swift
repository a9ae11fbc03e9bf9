/// Renders engine outputs as a transcript: one line per output, relative time first, fixed
/// decimals and a fixed key order (STYLE.md B13), for golden tests and `debug-events`.
///
/// `+0.412s swipe 'three' recognized fingers=3 dir=left dx_mm=-4.10 dy_mm=0.20 x_mm=… seq=7`
public enum Transcript {
    /// The transcript of `outputs`, times relative to `origin`, one line each (newline-ended).
    public static func render(_ outputs: [EngineOutput], origin: Timestamp) -> String {
        var text = ""
        for output in outputs {
            text += line(output, origin: origin)
            text += "\n"
        }
        return text
    }

    /// One output as a line (no newline).
    public static func line(_ output: EngineOutput, origin: Timestamp) -> String {
        switch output {
        case .gesture(let e):
            var parts = [
                time(e.timestamp, origin), e.kind.name, "'\(e.name)'", e.state.rawValue, "fingers=\(e.fingers)",
            ]
            if let taps = e.taps { parts.append("taps=\(taps)") }
            if let direction = e.direction { parts.append("dir=\(direction.rawValue)") }
            if let edge = e.edge { parts.append("edge=\(edge.rawValue)") }
            if let t = e.translation {
                parts.append("dx_mm=\(fixed(t.x, 2))")
                parts.append("dy_mm=\(fixed(t.y, 2))")
            }
            if let s = e.scale { parts.append("scale=\(fixed(s, 4))") }
            if let r = e.rotation { parts.append("rot_rad=\(fixed(r, 4))") }
            if let v = e.velocity {
                parts.append("vx_mm_s=\(fixed(v.x, 1))")
                parts.append("vy_mm_s=\(fixed(v.y, 1))")
            }
            if let v = e.scalarVelocity { parts.append("v=\(fixed(v, 3))") }
            parts.append("x_mm=\(fixed(e.location.x, 2))")
            parts.append("y_mm=\(fixed(e.location.y, 2))")
            for (key, value) in e.values.sorted(by: { $0.key < $1.key }) { parts.append("\(key)=\(fixed(value, 2))") }
            parts.append("seq=\(e.sequence)")
            return parts.joined(separator: " ")
        case .touch(let t):
            return [
                time(t.timestamp, origin), "touch", t.touch.description, t.phase.rawValue,
                "x_mm=\(fixed(t.position.x, 2))", "y_mm=\(fixed(t.position.y, 2))",
            ].joined(separator: " ")
        }
    }

    static func time(_ t: Timestamp, _ origin: Timestamp) -> String {
        let us = t.microseconds - origin.microseconds
        let sign = us < 0 ? "-" : "+"
        let magnitude = us.magnitude
        let ms = (magnitude + 500) / 1000
        let fraction = String(ms % 1000)
        return "\(sign)\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }

    /// `value` with `decimals` digits after the point, rounded half away from zero, no
    /// exponent; "nan"/"inf" for non-finite values.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) }
        let n = UInt64(scaled)
        let whole = n / UInt64(scale)
        let frac = n % UInt64(scale)
        let negative = value < 0 && n != 0
        var text = (negative ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(frac)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }
}
