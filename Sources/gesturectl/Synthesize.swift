import GestureEngine
import GesturedCLISupport
import GesturedSystem

/// `gesturectl synthesize SCRIPT --device DESC`: scripted finger paths to an evemu recording
/// (the project's fixtures, the bundled demo, and the gestures the kernel tier plays onto
/// uinput devices with `evemu-play`).
///
/// A script has one gesture per line (`#` starts a comment); values are `key=value`:
///
///     tap fingers=2 x=0.3 y=0.4          double-tap x=0.5 y=0.5 interval=0.15
///     long-press fingers=1 duration=0.8  swipe fingers=3 direction=left distance=60 duration=0.25
///     drag fingers=2 x=0.5 y=0.3 to-x=0.5 to-y=0.7 duration=0.5 hold=0
///     pinch scale=2 span=40 fingers=2    rotation angle=90 span=40 duration=0.6
///     edge-swipe from=left distance=30   wait seconds=1
///
/// Every gesture also takes `stagger=S` (its fingers land S seconds apart, one after another),
/// `lift-stagger=S` (they lift S seconds apart), `pressure=F` (the pressure each finger holds,
/// a fraction 0…1 of the device's range; default 0.5), `pressure-from=F` and `pressure-rise=S`
/// (the pressure at touch-down, rising to `pressure` over S seconds). `pressure=firm` is a firm
/// finger on the device's pressure scale (``PressureProfile/firm(on:)``: 111 units where the
/// axis reaches the palm threshold of 130, else 0.65 of the range); `pressure=palm` a palm
/// (the whole range, 35 mm across).
///
/// x/y are fractions of the surface (0…1); distances and spans mm; times seconds; angles
/// degrees (clockwise positive). Gestures follow each other with a 0.6 s gap unless `wait`
/// says otherwise. The special script `demo` is the bundled demo recording.
enum Synthesize {
    struct ScriptError: Error, CustomStringConvertible {
        var description: String
    }

    static func run(scriptPath: String?, devicePath: String?) -> ExitCode {
        guard let scriptPath else {
            writeStandardError("gesturectl: synthesize needs a script file (or 'demo'), see gesturectl(1)\n")
            return .usage
        }
        if scriptPath == "demo" {
            writeStandardOutput(GestureSynthesizer.demoTouchscreenRecording())
            return .success
        }
        do {
            let device: DeviceDescription
            if let devicePath {
                device = try RecordingParser.parseDescription(try Files.readText(path: devicePath), fileName: devicePath)
            } else {
                device = GestureSynthesizer.demoTouchscreen
            }
            let text = try Files.readText(path: scriptPath)
            var synthesizer = GestureSynthesizer(device: device)
            let script = try parse(text, fileName: scriptPath, synthesizer: synthesizer)
            let events = synthesizer.events(for: script)
            writeStandardOutput(
                EvemuWriter.recording(device: device, events: events, comments: ["synthesized by gesturectl synthesize from \(scriptPath)"])
            )
            return .success
        } catch let error as SystemError {
            writeStandardError("gesturectl: \(error.userFacingDescription)\n")
            return .noInput
        } catch {
            writeStandardError("gesturectl: \(error)\n")
            return .dataError
        }
    }

    /// The keys each gesture of a script takes (besides ``commonKeys``): any other is refused,
    /// not ignored.
    static let keys: [String: [String]] = [
        "wait": ["seconds"],
        "tap": ["fingers", "x", "y", "duration"],
        "double-tap": ["fingers", "x", "y", "interval"],
        "long-press": ["fingers", "x", "y", "duration"],
        "swipe": ["fingers", "direction", "distance", "duration", "x", "y"],
        "drag": ["fingers", "x", "y", "to-x", "to-y", "duration", "hold"],
        "pinch": ["scale", "fingers", "x", "y", "span", "duration"],
        "rotation": ["angle", "fingers", "x", "y", "span", "duration"],
        "edge-swipe": ["from", "fingers", "distance", "duration"],
    ]
    static let commonKeys = ["stagger", "lift-stagger", "pressure", "pressure-from", "pressure-rise"]

    static func parse(_ text: String, fileName: String, synthesizer s: GestureSynthesizer) throws(ScriptError) -> GestureScript {
        var script = GestureScript()
        var gap = 0.6
        var first = true
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = line.split(separator: " ").map(String.init)
            guard let verb = words.first else { continue }
            let location = "\(fileName):\(index + 1)"
            var values: [String: Double] = [:]
            var names: [String: String] = [:]
            for word in words.dropFirst() {
                let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw ScriptError(description: "\(location): expected key=value, found '\(word)'") }
                if let number = Double(parts[1]) { values[parts[0]] = number } else { names[parts[0]] = parts[1] }
            }
            if let allowed = keys[verb] {
                let accepted = verb == "wait" ? allowed : allowed + commonKeys
                for key in (Array(values.keys) + Array(names.keys)).sorted() where !accepted.contains(key) {
                    throw ScriptError(
                        description: "\(location): \(verb) takes no key '\(key)'\(didYouMean(key, among: accepted)) (its keys: \(accepted.joined(separator: ", ")))")
                }
            }
            func number(_ key: String, _ fallback: Double) -> Double { values[key] ?? fallback }
            func count(_ key: String, _ fallback: Int) -> Int { Int(values[key] ?? Double(fallback)) }
            let at = SurfacePoint.fraction(x: number("x", 0.5), y: number("y", 0.5))
            let gesture: GestureScript
            switch verb {
            case "wait":
                gap += number("seconds", 1)
                continue
            case "tap":
                gesture = s.tap(fingers: count("fingers", 1), at: at, duration: number("duration", 0.05))
            case "double-tap":
                gesture = s.doubleTap(fingers: count("fingers", 1), at: at, interval: number("interval", 0.15))
            case "long-press":
                gesture = s.longPress(fingers: count("fingers", 1), at: at, duration: number("duration", 0.8))
            case "swipe":
                guard let d = names["direction"].flatMap(Direction.init(rawValue:)) else {
                    throw ScriptError(description: "\(location): swipe needs direction=left|right|up|down")
                }
                gesture = s.swipe(
                    fingers: count("fingers", 1), direction: d, distance: number("distance", 40), duration: number("duration", 0.25),
                    from: values["x"] != nil ? at : nil)
            case "drag":
                gesture = s.drag(
                    fingers: count("fingers", 1), from: at, to: .fraction(x: number("to-x", 0.5), y: number("to-y", 0.5)),
                    duration: number("duration", 0.5), hold: number("hold", 0))
            case "pinch":
                gesture = s.pinch(
                    scale: number("scale", 2), fingers: count("fingers", 2), at: at, span: number("span", 40), duration: number("duration", 0.5))
            case "rotation":
                gesture = s.rotation(
                    angle: number("angle", 90) * Double.pi / 180, fingers: count("fingers", 2), at: at, span: number("span", 40),
                    duration: number("duration", 0.6))
            case "edge-swipe":
                guard let edge = names["from"].flatMap(Edge.init(rawValue:)) else {
                    throw ScriptError(description: "\(location): edge-swipe needs from=left|right|top|bottom")
                }
                gesture = s.edgeSwipe(from: edge, fingers: count("fingers", 1), distance: number("distance", 30), duration: number("duration", 0.25))
            default:
                throw ScriptError(
                    description: "\(location): unknown gesture '\(verb)' (expected tap, double-tap, long-press, swipe, drag, pinch, rotation, edge-swipe or wait)")
            }
            var shaped = gesture
            if values["stagger"] != nil || values["lift-stagger"] != nil {
                shaped = shaped.staggered(landing: number("stagger", 0), lifting: number("lift-stagger", 0))
            }
            if let name = names["pressure"] {
                // Named profiles, resolved for the device: a firm finger on its pressure scale,
                // or a palm (full pressure, 35 mm across).
                let axis = s.device.axis(.absMTPressure) ?? s.device.axis(.absPressure)
                switch name {
                case "firm": shaped = shaped.pressing(.firm(on: axis))
                case "palm": shaped = shaped.pressing(.palm).touching(millimeters: 35)
                default:
                    throw ScriptError(description: "\(location): pressure is a fraction 0…1 of the pressure range, 'firm' or 'palm', not '\(name)'")
                }
            } else if let level = values["pressure"] {
                guard (0...1).contains(level), (0...1).contains(number("pressure-from", level)) else {
                    throw ScriptError(description: "\(location): pressure and pressure-from are fractions of the pressure range, 0…1")
                }
                shaped = shaped.pressing(PressureProfile(level: level, landing: values["pressure-from"], rise: number("pressure-rise", 0)))
            }
            script = first ? shaped : script.followed(by: shaped, after: gap)
            first = false
            gap = 0.6
        }
        guard !script.strokes.isEmpty else { throw ScriptError(description: "\(fileName): the script has no gestures") }
        return script
    }
}
