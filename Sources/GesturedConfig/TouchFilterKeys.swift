public import GestureEngine

/// A percentage of the surface (`8%`), as a fraction.
private func percent(_ text: String) throws(ValueError) -> Double {
    guard text.hasSuffix("%"), let value = Double(text.dropLast()), value >= 0, value <= 100 else {
        throw ValueError("'\(text)' is not a percentage", hint: "write e.g. 8%")
    }
    return value / 100
}

/// A pressure in device units, or `none` (no test).
private func pressure(_ text: String) throws(ValueError) -> Double? {
    if text == "none" { return nil }
    return try ValueParsing.plainNumber(text)
}

/// One `[TouchFilter]` key: its name, how it reads a value, how it writes one back.
struct TouchFilterKey: Sendable {
    var name: String
    var apply: @Sendable (inout TouchFilterSettings, String) throws(ValueError) -> Void
    var render: @Sendable (TouchFilterSettings) -> String
}

/// Keys of the `[TouchFilter]` section (gestured.conf(5)): the touch filter's thresholds, in
/// mm, ms and device pressure units; quirks (`config/quirks`) change them per device.
let touchFilterKeys: [TouchFilterKey] = {
    typealias S = TouchFilterSettings
    func length(_ name: String, _ path: any WritableKeyPath<S, Double> & Sendable) -> TouchFilterKey {
        TouchFilterKey(name: name, apply: { s, v throws(ValueError) in s[keyPath: path] = try ValueParsing.lengthOrInfinity(v) },
            render: { ConfigRenderer.length($0[keyPath: path]) })
    }
    func duration(_ name: String, _ path: any WritableKeyPath<S, Double> & Sendable) -> TouchFilterKey {
        TouchFilterKey(name: name, apply: { s, v throws(ValueError) in s[keyPath: path] = try ValueParsing.duration(v) },
            render: { ConfigRenderer.duration($0[keyPath: path]) })
    }
    func fraction(_ name: String, _ path: any WritableKeyPath<S, Double> & Sendable) -> TouchFilterKey {
        TouchFilterKey(name: name, apply: { s, v throws(ValueError) in s[keyPath: path] = try percent(v) },
            render: { "\(ConfigRenderer.number(($0[keyPath: path] * 100 * 1e9).rounded() / 1e9))%" })
    }
    func flag(_ name: String, _ path: any WritableKeyPath<S, Bool> & Sendable) -> TouchFilterKey {
        TouchFilterKey(name: name, apply: { s, v throws(ValueError) in s[keyPath: path] = try ValueParsing.boolean(v) },
            render: { $0[keyPath: path] ? "yes" : "no" })
    }
    func count(_ name: String, _ path: any WritableKeyPath<S, Int> & Sendable) -> TouchFilterKey {
        TouchFilterKey(name: name, apply: { s, v throws(ValueError) in s[keyPath: path] = try ValueParsing.integer(v, in: 0...1000) },
            render: { String($0[keyPath: path]) })
    }
    func units(_ name: String, _ path: any WritableKeyPath<S, Double?> & Sendable) -> TouchFilterKey {
        TouchFilterKey(name: name, apply: { s, v throws(ValueError) in s[keyPath: path] = try pressure(v) },
            render: { $0[keyPath: path].map(ConfigRenderer.number) ?? "none" })
    }
    return [
        flag("Enabled", \S.isEnabled),
        units("PalmPressure", \S.palmPressure),
        units("TapMinimumPressure", \S.tapMinimumPressure),
        length("PalmTouchMajor", \S.palmTouchMajor),
        fraction("EdgeBand", \S.edgeBandFraction),
        fraction("TopEdgeBand", \S.topEdgeBandFraction),
        length("TopEdgeMinimumHeight", \S.topEdgeMinimumHeight),
        length("EdgeFingerMajor", \S.edgeFingerMajor),
        duration("EdgeReleaseTime", \S.edgeReleaseTime),
        length("EdgePairDistance", \S.edgePairDistance),
        fraction("ThumbBand", \S.thumbBandFraction),
        fraction("ThumbExit", \S.thumbExitFraction),
        length("ThumbReleaseDistance", \S.thumbReleaseDistance),
        length("ThumbDiagonalWidth", \S.thumbDiagonalWidth),
        length("ThumbDiagonalHeight", \S.thumbDiagonalHeight),
        duration("HeldTapDuration", \S.heldTapDuration),
        length("HeldTapMovement", \S.heldTapMovement),
        length("Hysteresis", \S.hysteresis),
        duration("LiftDelay", \S.liftDelay),
        length("ReappearDistance", \S.reappearDistance),
        count("FlickerLimit", \S.flickerLimit),
        duration("PalmMemoryTime", \S.palmMemoryTime),
        length("PalmMemoryDistance", \S.palmMemoryDistance),
        duration("PalmConfirmTime", \S.palmConfirmTime),
        length("ClickingFingerDistance", \S.clickingFingerDistance),
        flag("ClicksCancelTaps", \S.clicksCancelTouches),
        flag("FakeFingers", \S.synthesizesUntrackedFingers),
        flag("HoldUnknownPressure", \S.holdsUnknownPressure),
        duration("ScrollTapWindow", \S.scrollTapWindow),
        length("ScrollTapTravel", \S.scrollTapTravel),
        duration("ScrollTapMaximumDuration", \S.scrollTapMaximumDuration),
        duration("MinimumLoneTapDuration", \S.minimumLoneTapDuration),
        fraction("SplitPressureDrop", \S.splitPressureDrop),
        length("SplitDistance", \S.splitDistance),
        count("PalmReversalCount", \S.palmReversalCount),
        length("PalmReversalStep", \S.palmReversalStep),
    ]
}()

extension ConfigRenderer {
    /// `[TouchFilter]` with every key, defaults included.
    static func render(_ filter: TouchFilterSettings) -> String {
        (["[TouchFilter]"] + touchFilterKeys.map { "\($0.name)=\($0.render(filter))" }).joined(separator: "\n") + "\n"
    }
}

extension TouchFilterSettings {
    /// `[TouchFilter]` with every key as it runs (defaults included), for `--check-config`.
    public var rendered: String { ConfigRenderer.render(self) }
}

extension RecognizerConfiguration {
    /// This gesture as a `[Gesture]` section with every key.
    public var rendered: String { ConfigRenderer.render(self) }
}
