import GestureEngine

/// Draws a ``ReplayTrace`` as one SVG a person reads at a glance, for bug reports
/// (`gestured --replay bug.evemu --svg bug.svg`):
///
/// * the surface to scale in millimetres (grid every 10 mm), each touch's reported path in a
///   colour of its own — thin and dashed where the filter held it back, thick where it was
///   passed on — with its start (filled dot), end (ring for a lift, cross for a cancel) and
///   the filter's decision written at its end;
/// * a legend: each touch's times, path length and decisions;
/// * a timeline below: one row per touch (its lifetime; solid while passed on) and one per
///   gesture attempt (name and kind; a bar from began to ended or cancelled, a diamond for a
///   discrete recognition), on one time axis in seconds from the first event.
///
/// Elements carry ids and classes (`touch-3`, `gesture-row`, `decision no-tap`) so tests and
/// people's tools can find them. Pure: text in, text out.
public enum TraceSVG {
    static let width = 960.0
    static let margin = 40.0
    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]
    static let stateColours: [GestureState: String] = [.recognized: "#2e7d32", .ended: "#2e7d32", .cancelled: "#c62828"]

    public static func colour(ofTouchAt index: Int) -> String { palette[index % palette.count] }

    public static func render(_ trace: ReplayTrace) -> String {
        var out = SVGText()
        let plotWidth = width - 2 * margin
        let scale = min(plotWidth / max(trace.widthMM, 1), 440 / max(trace.heightMM, 1))
        let surfaceW = trace.widthMM * scale
        let surfaceH = trace.heightMM * scale
        let surfaceX = margin + (plotWidth - surfaceW) / 2
        let surfaceY = 78.0

        let legendY = surfaceY + surfaceH + 40
        let legendRows = max(trace.touches.count, 1)
        let timelineY = legendY + Double(legendRows) * 18 + 40
        let rows = trace.touches.count + trace.gestures.count
        let axisY = timelineY + 24 + Double(rows) * 18 + 12
        let height = axisY + 70

        out.line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        out.line(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">"
        )
        out.line("<title>gestured trace of \(escape(trace.file))</title>")
        out.line("<desc>gestured --replay \(escape(trace.file)) --svg: the surface to scale in mm with each touch's path, and a timeline of touches and gestures.</desc>")
        out.line("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")

        // Header.
        let duration = trace.end - trace.start
        out.line("<g id=\"header\">")
        out.line("<text x=\"\(n(margin))\" y=\"26\" font-size=\"16\" font-weight=\"bold\">\(escape(trace.file))</text>")
        let approx = trace.approximateUnits ? " (approximate: no resolution)" : ""
        out.line(
            "<text x=\"\(n(margin))\" y=\"46\" fill=\"#444\">\(escape(trace.deviceName)) · \(trace.deviceKind.rawValue) · \(n(trace.widthMM)) × \(n(trace.heightMM)) mm\(approx) · \(n(duration, places: 2)) s · \(trace.touches.count) touches · \(trace.gestures.count) gestures · \(escape(trace.configuration))</text>"
        )
        out.line("</g>")

        // The surface.
        out.line("<g id=\"surface\" transform=\"translate(\(n(surfaceX)) \(n(surfaceY)))\">")
        out.line("<clipPath id=\"surface-clip\"><rect width=\"\(n(surfaceW))\" height=\"\(n(surfaceH))\"/></clipPath>")
        out.line("<rect class=\"surface\" width=\"\(n(surfaceW))\" height=\"\(n(surfaceH))\" fill=\"#f7f7f7\" stroke=\"#333\" stroke-width=\"1\"/>")
        let labelStep = 10.0 * max(1, (30 / (10 * scale)).rounded(.up))
        var mm = 10.0
        out.line("<g class=\"grid\" stroke=\"#e0e0e0\" stroke-width=\"0.5\">")
        while mm < trace.widthMM {
            out.line("<line x1=\"\(n(mm * scale))\" y1=\"0\" x2=\"\(n(mm * scale))\" y2=\"\(n(surfaceH))\"/>")
            mm += 10
        }
        mm = 10
        while mm < trace.heightMM {
            out.line("<line x1=\"0\" y1=\"\(n(mm * scale))\" x2=\"\(n(surfaceW))\" y2=\"\(n(mm * scale))\"/>")
            mm += 10
        }
        out.line("</g>")
        out.line("<g class=\"axis-labels\" fill=\"#777\" font-size=\"10\">")
        mm = 0
        while mm <= trace.widthMM {
            out.line("<text x=\"\(n(mm * scale))\" y=\"-4\" text-anchor=\"middle\">\(Int(mm))</text>")
            mm += labelStep
        }
        mm = labelStep
        while mm <= trace.heightMM {
            out.line("<text x=\"-4\" y=\"\(n(mm * scale + 3))\" text-anchor=\"end\">\(Int(mm))</text>")
            mm += labelStep
        }
        out.line("<text x=\"\(n(surfaceW))\" y=\"-16\" text-anchor=\"end\">mm</text>")
        out.line("</g>")
        func point(_ p: PhysicalPoint) -> String { "\(n(p.x * scale)),\(n(p.y * scale))" }
        for (index, touch) in trace.touches.enumerated() {
            let colour = colour(ofTouchAt: index)
            let kinds = touch.decisions.map(\.kind.rawValue).joined(separator: " ")
            out.line("<g class=\"touch\(kinds.isEmpty ? "" : " " + kinds)\" id=\"touch-\(touch.id.rawValue)\">")
            out.line("<title>\(escape(summary(touch, origin: trace.start)))</title>")
            let raw = touch.samples.map { point($0.position) }.joined(separator: " ")
            if !raw.isEmpty {
                out.line(
                    "<polyline class=\"path-reported\" points=\"\(raw)\" clip-path=\"url(#surface-clip)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
                )
            }
            let delivered = touch.delivered.map { point($0.position) }.joined(separator: " ")
            if !delivered.isEmpty {
                out.line(
                    "<polyline class=\"path-delivered\" points=\"\(delivered)\" clip-path=\"url(#surface-clip)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"3.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
                )
            }
            out.line("</g>")
        }
        // Markers and words over every path, so a later path never hides an earlier touch's
        // start, end or decision (a pinch out and in along one line, a tap under a swipe).
        for (index, touch) in trace.touches.enumerated() {
            let colour = colour(ofTouchAt: index)
            out.line("<g class=\"touch-marks\" id=\"touch-marks-\(touch.id.rawValue)\">")
            let path = touch.samples.isEmpty ? touch.delivered : touch.samples
            if let first = path.first, let last = path.last {
                let s = (x: first.position.x * scale, y: first.position.y * scale)
                let e = (x: last.position.x * scale, y: last.position.y * scale)
                let cancelled = (touch.deliveredEndPhase ?? touch.endPhase) == .cancelled
                if cancelled {
                    out.line(
                        "<path class=\"end cancelled\" d=\"M\(n(e.x - 5)),\(n(e.y - 5)) L\(n(e.x + 5)),\(n(e.y + 5)) M\(n(e.x - 5)),\(n(e.y + 5)) L\(n(e.x + 5)),\(n(e.y - 5))\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>"
                    )
                } else {
                    out.line("<circle class=\"end\" cx=\"\(n(e.x))\" cy=\"\(n(e.y))\" r=\"6\" fill=\"#ffffff\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>")
                }
                out.line("<circle class=\"start\" cx=\"\(n(s.x))\" cy=\"\(n(s.y))\" r=\"4\" fill=\"\(colour)\"/>")
                out.line("<text class=\"label\" x=\"\(n(s.x + 7))\" y=\"\(n(s.y - 7))\" fill=\"\(colour)\" font-weight=\"bold\">#\(touch.id.rawValue)</text>")
                // Words go toward the middle of the surface, so they stay on it.
                let leftward = e.x > surfaceW * 0.6
                let anchor = leftward ? " text-anchor=\"end\"" : ""
                let tx = leftward ? e.x - 8 : e.x + 8
                for (k, decision) in touch.decisions.enumerated() {
                    out.line(
                        "<text class=\"decision \(decision.kind.rawValue)\"\(anchor) x=\"\(n(tx))\" y=\"\(n(e.y + 14 + Double(k) * 13))\" fill=\"\(colour)\" font-style=\"italic\" font-size=\"11\">\(escape(words(decision)))</text>"
                    )
                }
            }
            out.line("</g>")
        }
        out.line("</g>")

        // Legend.
        out.line("<g id=\"legend\" transform=\"translate(\(n(margin)) \(n(legendY)))\">")
        out.line("<text x=\"0\" y=\"-8\" font-weight=\"bold\">Touches</text>")
        if trace.touches.isEmpty { out.line("<text x=\"0\" y=\"12\" fill=\"#777\">no touch in this recording</text>") }
        for (index, touch) in trace.touches.enumerated() {
            let y = Double(index) * 18 + 12
            out.line("<g class=\"legend-touch\" id=\"legend-touch-\(touch.id.rawValue)\">")
            out.line("<rect x=\"0\" y=\"\(n(y - 9))\" width=\"22\" height=\"10\" fill=\"\(colour(ofTouchAt: index))\"/>")
            out.line("<text x=\"30\" y=\"\(n(y))\">\(escape(summary(touch, origin: trace.start)))</text>")
            out.line("</g>")
        }
        out.line("</g>")

        // Timeline.
        let labelWidth = 230.0
        let plotX = margin + labelWidth
        let plotW = width - margin - plotX
        let span = max(duration, 0.001)
        func x(_ t: Timestamp) -> Double { plotX + (t - trace.start) / span * plotW }
        out.line("<g id=\"timeline\">")
        out.line("<text x=\"\(n(margin))\" y=\"\(n(timelineY))\" font-weight=\"bold\">Timeline</text>")
        let step = tickStep(span)
        var tick = 0.0
        out.line("<g class=\"time-axis\" font-size=\"10\" fill=\"#555\">")
        while tick <= span + step / 1000 {
            let tx = plotX + tick / span * plotW
            out.line("<line x1=\"\(n(tx))\" y1=\"\(n(timelineY + 14))\" x2=\"\(n(tx))\" y2=\"\(n(axisY))\" stroke=\"#e6e6e6\"/>")
            out.line("<text x=\"\(n(tx))\" y=\"\(n(axisY + 14))\" text-anchor=\"middle\">\(n(tick, places: step < 0.1 ? 2 : 1))</text>")
            tick += step
        }
        out.line("<text x=\"\(n(plotX + plotW))\" y=\"\(n(axisY + 28))\" text-anchor=\"end\">seconds from the first event</text>")
        out.line("</g>")
        var row = 0
        func rowY() -> Double { timelineY + 24 + Double(row) * 18 + 9 }
        for (index, touch) in trace.touches.enumerated() {
            let y = rowY()
            let colour = colour(ofTouchAt: index)
            out.line("<g class=\"touch-row\" id=\"touch-row-\(touch.id.rawValue)\">")
            out.line("<text x=\"\(n(margin))\" y=\"\(n(y + 4))\" fill=\"\(colour)\" font-weight=\"bold\">touch #\(touch.id.rawValue)</text>")
            let x0 = x(touch.start)
            let x1 = max(x(touch.end), x0 + 2)
            out.line("<rect class=\"lifetime\" x=\"\(n(x0))\" y=\"\(n(y - 5))\" width=\"\(n(x1 - x0))\" height=\"10\" fill=\"\(colour)\" fill-opacity=\"0.3\"/>")
            if let d0 = touch.delivered.first?.time, let d1 = touch.delivered.last?.time {
                out.line("<rect class=\"delivered\" x=\"\(n(x(d0)))\" y=\"\(n(y - 5))\" width=\"\(n(max(x(d1) - x(d0), 2)))\" height=\"10\" fill=\"\(colour)\"/>")
            }
            out.line("</g>")
            row += 1
        }
        for gesture in trace.gestures {
            let y = rowY()
            let outcome = gesture.outcome
            let colour = outcome.flatMap { stateColours[$0] } ?? "#555555"
            let states = gesture.steps.map(\.state.rawValue)
            var seen: Set<String> = []
            let distinct = states.filter { seen.insert($0).inserted }.joined(separator: " ")
            out.line("<g class=\"gesture-row \(distinct)\" id=\"gesture-\(escape(gesture.name))-\(gesture.sequence)\">")
            out.line("<title>\(escape(gestureSummary(gesture, origin: trace.start)))</title>")
            let detail = gesture.detail.map { ", " + $0 } ?? ""
            out.line("<text x=\"\(n(margin))\" y=\"\(n(y + 4))\">\(escape(gesture.name)) (\(gesture.kind.name)\(escape(detail)))</text>")
            if gesture.isDiscrete {
                let gx = x(gesture.start)
                out.line("<path class=\"marker recognized\" d=\"M\(n(gx)),\(n(y - 6)) L\(n(gx + 6)),\(n(y)) L\(n(gx)),\(n(y + 6)) L\(n(gx - 6)),\(n(y)) Z\" fill=\"\(colour)\"/>")
            } else {
                let x0 = x(gesture.start)
                let x1 = max(x(gesture.end), x0 + 2)
                out.line("<rect class=\"span\" x=\"\(n(x0))\" y=\"\(n(y - 4))\" width=\"\(n(x1 - x0))\" height=\"8\" fill=\"\(colour)\" fill-opacity=\"0.45\"/>")
                for step in gesture.steps where step.state != .changed {
                    let sx = x(step.time)
                    switch step.state {
                    case .began:
                        out.line("<path class=\"marker began\" d=\"M\(n(sx)),\(n(y - 6)) L\(n(sx + 8)),\(n(y)) L\(n(sx)),\(n(y + 6)) Z\" fill=\"\(colour)\"/>")
                    case .ended, .recognized:
                        out.line("<rect class=\"marker \(step.state.rawValue)\" x=\"\(n(sx - 5))\" y=\"\(n(y - 5))\" width=\"10\" height=\"10\" fill=\"\(colour)\"/>")
                    case .cancelled:
                        out.line(
                            "<path class=\"marker cancelled\" d=\"M\(n(sx - 5)),\(n(y - 5)) L\(n(sx + 5)),\(n(y + 5)) M\(n(sx - 5)),\(n(y + 5)) L\(n(sx + 5)),\(n(y - 5))\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>"
                        )
                    default:
                        break
                    }
                }
            }
            out.line("</g>")
            row += 1
        }
        if rows == 0 { out.line("<text x=\"\(n(plotX))\" y=\"\(n(timelineY + 30))\" fill=\"#777\">nothing happened</text>") }
        out.line("</g>")

        // Key.
        let keyY = axisY + 48
        out.line("<g id=\"key\" font-size=\"11\" fill=\"#444\" transform=\"translate(\(n(margin)) \(n(keyY)))\">")
        out.line("<circle cx=\"5\" cy=\"-4\" r=\"5\" fill=\"#444\"/><text x=\"14\" y=\"0\">start</text>")
        out.line("<circle cx=\"60\" cy=\"-4\" r=\"5\" fill=\"#fff\" stroke=\"#444\" stroke-width=\"2\"/><text x=\"69\" y=\"0\">lift</text>")
        out.line("<path d=\"M105,-9 L115,1 M105,1 L115,-9\" stroke=\"#444\" stroke-width=\"2\"/><text x=\"120\" y=\"0\">cancel</text>")
        out.line("<line x1=\"170\" y1=\"-4\" x2=\"200\" y2=\"-4\" stroke=\"#444\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/><text x=\"205\" y=\"0\">reported</text>")
        out.line("<line x1=\"265\" y1=\"-4\" x2=\"295\" y2=\"-4\" stroke=\"#444\" stroke-width=\"3.5\"/><text x=\"300\" y=\"0\">passed on by the filter</text>")
        out.line("<path d=\"M452,-10 L460,-4 L452,2 Z\" fill=\"#2e7d32\"/><text x=\"464\" y=\"0\">began</text>")
        out.line("<rect x=\"505\" y=\"-9\" width=\"10\" height=\"10\" fill=\"#2e7d32\"/><text x=\"519\" y=\"0\">ended</text>")
        out.line("<path d=\"M566,-10 L572,-4 L566,2 L560,-4 Z\" fill=\"#2e7d32\"/><text x=\"577\" y=\"0\">recognized</text>")
        out.line("<path d=\"M645,-9 L655,1 M645,1 L655,-9\" stroke=\"#c62828\" stroke-width=\"2\"/><text x=\"660\" y=\"0\">cancelled</text>")
        out.line("</g>")
        out.line("</svg>")
        return out.text
    }

    static func words(_ decision: TouchDecision) -> String {
        decision.reason.map { "\(decision.label) (\($0))" } ?? decision.label
    }

    static func summary(_ touch: TraceTouch, origin: Timestamp) -> String {
        var parts = ["#\(touch.id.rawValue)", "\(n(touch.start - origin, places: 3))–\(n(touch.end - origin, places: 3)) s", "path \(n(touch.pathLength)) mm"]
        if touch.isSynthetic { parts.append("made by the filter for a finger the pad counts without a slot") }
        if touch.toolType == .palm { parts.append("tool: palm") }
        if touch.decisions.isEmpty && !touch.isSynthetic { parts.append("passed on") }
        parts += touch.decisions.map(words)
        return parts.joined(separator: "  ·  ")
    }

    static func gestureSummary(_ gesture: TraceGesture, origin: Timestamp) -> String {
        let steps = gesture.steps.filter { $0.state != .changed }.map { "\($0.state.rawValue) at \(n($0.time - origin, places: 3)) s (\($0.fingers) fingers)" }
        let changes = gesture.steps.count { $0.state == .changed }
        return "\(gesture.name) (\(gesture.kind.name)): " + steps.joined(separator: ", ") + (changes > 0 ? ", \(changes) changes" : "")
    }

    /// A readable tick step for a span of seconds: 1, 2 or 5 times a power of ten, about ten ticks.
    static func tickStep(_ span: Double) -> Double {
        var step = 0.001
        while span / step > 12 {
            if span / (step * 2) <= 12 { return step * 2 }
            if span / (step * 5) <= 12 { return step * 5 }
            step *= 10
        }
        return step
    }

    static func n(_ value: Double, places: Int = 1) -> String { number(value, places: places) }

    /// `value` with `places` decimals (no Foundation: the daemon's modules do not import it).
    public static func number(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "0" }
        var factor = 1.0
        for _ in 0..<places { factor *= 10 }
        let scaled = Int64((abs(value) * factor).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = scaled / Int64(factor)
        guard places > 0 else { return sign + String(whole) }
        var fraction = String(scaled % Int64(factor))
        while fraction.count < places { fraction = "0" + fraction }
        return sign + String(whole) + "." + fraction
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}

/// Lines of SVG text.
struct SVGText {
    var text = ""
    mutating func line(_ s: String) {
        text += s
        text += "\n"
    }
}
