public import GestureEngine

extension Configuration {
    /// The whole configuration as gestured.conf text: `[Daemon]`, every `[Device]` rule and
    /// every `[Gesture]` with all of its keys, defaults included. Parsing the text gives this
    /// configuration back exactly; `gestured --check-config` prints it as the effective
    /// configuration (like `systemd-analyze cat-config`).
    public func rendered() -> String {
        var sections = [ConfigRenderer.render(daemon), ConfigRenderer.render(touchFilter)]
        sections += deviceRules.map(ConfigRenderer.render)
        sections += gestures.map { ConfigRenderer.render($0, whenLocked: gesturesWhenLocked.contains($0.name)) }
        return sections.joined(separator: "\n")
    }

    /// What one device gets: the matched rules and resulting facts as comments, then the
    /// gestures that run on it, in engine configuration form.
    /// - Parameters:
    ///   - device: The device as read from the kernel or a recording.
    ///   - node: The device node, for the heading ("/dev/input/event5").
    ///   - udevProperties: The device's udev properties.
    public func renderedEffective(
        for device: DeviceDescription,
        node: String,
        udevProperties: [String: String] = [:]
    ) -> String {
        let settings = deviceSettings(for: device, udevProperties: udevProperties)
        let engine = engineConfiguration(for: device, udevProperties: udevProperties)
        var lines = [
            "# \(node): \"\(device.name)\" \(device.kind?.rawValue ?? "not a touch device")",
            "# matched rules: \(settings.matchedRules.isEmpty ? "none" : settings.matchedRules.joined(separator: ", "))",
        ]
        if settings.isDisabled {
            lines.append("# disabled (Disable=yes): no gestures")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("# Sloppiness=\(ConfigRenderer.number(engine.sloppiness)) MaxTouches=\(engine.maxTouches)")
        if let width = settings.widthMM, let height = settings.heightMM {
            lines.append(
                "# size from configuration: \(ConfigRenderer.number(width))x\(ConfigRenderer.number(height))mm"
            )
        }
        var text = lines.joined(separator: "\n") + "\n"
        for gesture in engine.recognizers {
            text += "\n" + ConfigRenderer.render(gesture)
        }
        return text
    }
}

/// Writes configuration values back in gestured.conf syntax. Each value is written in the
/// friendliest unit that parses back to exactly the same `Double` (ms before s, deg before
/// rad), so rendering and parsing round-trip.
enum ConfigRenderer {
    static func render(_ daemon: DaemonSettings) -> String {
        var lines = ["[Daemon]"]
        lines.append("SocketPath=\(daemon.socketPath)")
        lines.append("SocketGroup=\(daemon.socketGroup)")
        let mode = String(daemon.socketMode, radix: 8)
        lines.append("SocketMode=\(String(repeating: "0", count: max(0, 4 - mode.count)))\(mode)")
        lines.append("AllowRawTouchesForGroup=\(daemon.allowRawTouchesForGroup ?? "")")
        lines.append("AllowInputForActiveSession=\(daemon.allowInputForActiveSession ? "yes" : "no")")
        lines.append("MaxClients=\(daemon.maxClients)")
        lines.append("ClientQueueSoft=\(daemon.clientQueueSoft)")
        lines.append("ClientQueueHard=\(daemon.clientQueueHard)")
        return lines.joined(separator: "\n") + "\n"
    }

    static func render(_ rule: DeviceRule) -> String {
        var lines = ["[Device \(rule.name)]"]
        if let kind = rule.match.kind { lines.append("MatchKind=\(kind.rawValue)") }
        if let name = rule.match.namePattern { lines.append("MatchName=\(name)") }
        if let vendor = rule.match.vendor { lines.append("MatchVendor=\(hex(vendor))") }
        if let product = rule.match.product { lines.append("MatchProduct=\(hex(product))") }
        if !rule.match.udevProperties.isEmpty {
            let pairs = rule.match.udevProperties.keys.sorted().map { "\($0)=\(rule.match.udevProperties[$0] ?? "")" }
            lines.append("MatchUdevProperty=\(pairs.joined(separator: " "))")
        }
        if let v = rule.sloppiness { lines.append("Sloppiness=\(number(v))") }
        if let v = rule.maxTouches { lines.append("MaxTouches=\(v)") }
        if let v = rule.widthMM { lines.append("WidthMM=\(number(v))") }
        if let v = rule.heightMM { lines.append("HeightMM=\(number(v))") }
        if let v = rule.gestures { lines.append("Gestures=\(v.joined(separator: ","))") }
        if let v = rule.disabled { lines.append("Disable=\(yesNo(v))") }
        if let v = rule.grab { lines.append("Grab=\(yesNo(v))") }
        if let c = rule.calibration { lines.append("Calibration=\([c.a, c.b, c.c, c.d, c.e, c.f].map(number).joined(separator: " "))") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func render(_ g: RecognizerConfiguration, whenLocked: Bool) -> String {
        var text = render(g)
        if whenLocked, text.hasSuffix("\n") { text += "WhenLocked=yes\n" }
        return text
    }

    static func render(_ g: RecognizerConfiguration) -> String {
        // Custom recognizers are added in code, not in gestured.conf: render them as a comment.
        guard let kindName = KindName(g.kind) else {
            return "# [Gesture \(g.name)] is a custom recognizer ('\(g.kind.gestureKind.name)') added in code\n"
        }
        var lines = ["[Gesture \(g.name)]", "Kind=\(kindName.rawValue)"]
        lines.append("Region=\(region(g.region))")
        lines.append("Priority=\(g.priority)")
        lines.append("Enabled=\(yesNo(g.isEnabled))")
        lines.append(
            "DeviceKinds=\(DeviceKind.allCases.filter { g.policy.deviceKinds.contains($0) }.map(\.rawValue).joined(separator: ","))"
        )
        let tools: [ToolType] = [.finger, .pen, .palm]
        lines.append("Tools=\(tools.filter { g.policy.toolTypes.contains($0) }.map(\.rawValue).joined(separator: ","))")
        lines.append("MinFingers=\(g.policy.minimumFingers)")
        lines.append("MaxFingers=\(count(g.policy.maximumFingers))")
        lines.append("FailsOnButtonPress=\(yesNo(g.policy.failsOnButtonPress))")
        lines.append("RequireFailureOf=\(g.requiresFailureOf.joined(separator: ","))")
        lines.append("RecognizeSimultaneouslyWith=\(g.recognizesSimultaneouslyWith.joined(separator: ","))")
        lines.append("CancelsTouches=\(yesNo(g.cancelsTouchesInView))")
        lines.append("DelaysTouchesBegan=\(yesNo(g.delaysTouchesBegan))")
        lines.append("DelaysTouchesEnded=\(yesNo(g.delaysTouchesEnded))")
        switch g.kind {
        case .tap(let p):
            lines += [
                "Taps=\(p.numberOfTapsRequired)", "Fingers=\(p.numberOfTouchesRequired)",
                "AllowableMovement=\(length(p.allowableMovement))",
                "MaximumTapDuration=\(duration(p.maximumTapDuration))",
                "MaximumIntervalBetweenTaps=\(duration(p.maximumIntervalBetweenTaps))",
                "AllowableSeparation=\(length(p.allowableSeparation))",
                "AllowableTouchTimeSeparation=\(p.allowableTouchTimeSeparation.map(duration) ?? "off")",
                "MinimumTapDuration=\(duration(p.minimumTapDuration))",
            ]
        case .longPress(let p):
            lines += [
                "MinimumPressDuration=\(duration(p.minimumPressDuration))",
                "AllowableMovement=\(length(p.allowableMovement))", "Fingers=\(p.numberOfTouchesRequired)",
                "Taps=\(p.numberOfTapsRequired)",
            ]
        case .pan(let p):
            lines += [
                "MinimumNumberOfTouches=\(p.minimumNumberOfTouches)",
                "MaximumNumberOfTouches=\(count(p.maximumNumberOfTouches))", "Hysteresis=\(length(p.hysteresis))",
                "FailsPastMaxTouches=\(yesNo(p.failsPastMaxTouches))", "AllowsHorizontal=\(yesNo(p.allowsHorizontal))",
                "AllowsVertical=\(yesNo(p.allowsVertical))",
                "VelocityStaleInterval=\(duration(p.velocityStaleInterval))",
            ]
        case .edgePan(let p):
            if !p.edges.isEmpty {
                lines.append(
                    "Edges=\(Edge.allCases.filter { p.edges.contains($0) }.map(\.rawValue).joined(separator: ","))"
                )
            }
            lines += [
                "MaximumNumberOfTouches=\(count(p.maximumNumberOfTouches))", "Hysteresis=\(length(p.hysteresis))",
                "EdgeRegion=\(length(p.edgeRegion))", "StartBand=\(length(p.startBand))",
                "AngleWindow=\(angle(p.angleWindow))",
            ]
        case .swipe(let p):
            lines += [
                "Directions=\(Direction.allCases.filter { p.directions.contains($0) }.map(\.rawValue).joined(separator: ","))",
                "Fingers=\(p.numberOfTouchesRequired)", "MaximumDuration=\(duration(p.maximumDuration))",
                "MinimumPrimaryMovement=\(length(p.minimumPrimaryMovement))",
                "MaximumPrimaryMovement=\(length(p.maximumPrimaryMovement))",
                "MinimumSecondaryMovement=\(length(p.minimumSecondaryMovement))",
                "MaximumSecondaryMovement=\(length(p.maximumSecondaryMovement))",
                "RateOfMinimumMovementDecay=\(number(p.rateOfMinimumMovementDecay))",
                "RateOfMaximumMovementDecay=\(number(p.rateOfMaximumMovementDecay))",
                "WrongDirectionTolerance=\(length(p.wrongDirectionTolerance))",
                "MinimumPrimarySpeed=\(number(p.minimumPrimarySpeed))mm/s",
            ]
        case .pinch(let p):
            lines += [
                "Hysteresis=\(length(p.hysteresis))", "EndsOnSingleTouch=\(yesNo(p.endsOnSingleTouch))",
                "Fingers=\(p.numberOfTouchesRequired)",
            ]
        case .rotation(let p):
            lines += ["AngleHysteresis=\(angle(p.angleHysteresis))", "Fingers=\(p.numberOfTouchesRequired)"]
        case .tickle(let p):
            lines += ["MinimumTravel=\(length(p.minimumTravel))", "RequiredStrokes=\(p.requiredStrokes)"]
        case .custom:
            break
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The shortest decimal that reads back as `value`, without a trailing ".0".
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

    static func count(_ value: Int) -> String { value == Int.max ? "infinity" : String(value) }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func length(_ mm: Double) -> String { mm == .infinity ? "infinity" : "\(number(mm))mm" }

    static func duration(_ seconds: Double) -> String {
        let ms = (seconds * 1000 * 1e6).rounded() / 1e6
        if let parsed = try? ValueParsing.duration("\(number(ms))ms"), parsed == seconds { return "\(number(ms))ms" }
        return "\(number(seconds))s"
    }

    static func angle(_ radians: Double) -> String {
        let degrees = (radians * 180 / Double.pi * 1e9).rounded() / 1e9
        if let parsed = try? ValueParsing.angle("\(number(degrees))deg"), parsed == radians {
            return "\(number(degrees))deg"
        }
        return "\(number(radians))rad"
    }

    static func region(_ region: Region) -> String {
        switch region {
        case .surface:
            return "surface"
        case .edge(let edge, let width):
            return "edge:\(edge.rawValue):\(length(width))"
        case .rectangle(let r):
            return "rect:\([r.origin.x, r.origin.y, r.width, r.height].map(length).joined(separator: ","))"
        case .fraction(let x, let y, let w, let h):
            return "rect:\([x, y, w, h].map { number(($0 * 100 * 1e9).rounded() / 1e9) + "%" }.joined(separator: ","))"
        }
    }
}
