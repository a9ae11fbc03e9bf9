import GestureEngine

/// Label → expected outcome: reads what a recording's path says was done and states what
/// gestured must report under `config/evaluation.conf`. docs/evaluation.md gives the
/// reasoning per label kind; keep the two in step.
public enum LabelMapping {
    /// Pointer travel (mm) above which a finger "moved the pointer": the ChromeOS criteria ask
    /// for ≥ 20 px of cursor motion; 10 mm of finger travel is well above any resting jitter
    /// and well below the instructed motions.
    public static let pointerMoved = 10.0
    /// Pointer travel (mm) at most allowed where nothing must move: the criteria allow 5 px;
    /// 3 mm of finger travel stays below the pan hysteresis of a two-finger scroll (2 × 1.56).
    public static let pointerStill = 3.0

    /// Holds tolerated where fingers rest (only touchscreens have a one-finger hold; the
    /// three-finger hold of touchpads never fires where fewer fingers rest).
    static let holds: Set<String> = ["hold", "three-finger-hold"]
    static let taps: Set<String> = ["tap", "double-tap"]

    /// The expectation for a corpus file, by its path relative to the corpus `real/` folder;
    /// nil for recordings without a usable label.
    public static func expectation(for path: String) -> Expectation? {
        let parts = path.split(separator: "/").map(String.init)
        guard let top = parts.first, let file = parts.last else { return nil }
        switch top {
        case "chromiumos-autotest":
            guard parts.count > 1 else { return nil }
            switch parts[1] {
            case "hardware_Trackpad": return hardwareTrackpad(file: file, board: parts.count > 2 ? parts[2] : "?")
            case "firmware_TouchMTB": return firmwareTouchMTB(file: file, path: path)
            case "touch_ScrollDirection", "touch_TabSwitch", "touch_TapSettings", "touch_TouchscreenScroll",
                "touch_TouchscreenTaps":
                return touchPlayback(folder: parts[1], file: file)
            default: return nil
            }
        case "evemu-devices", "xorg-integration-tests":
            return namedRecording(file: file)
        default:
            return nil
        }
    }

    // MARK: - ChromiumOS hardware_Trackpad (expected_outcomes.json)

    /// `<area>-<functionality>[.<sub>…]-<board>-<user>-<date>.dat`.
    static func hardwareTrackpad(file: String, board: String) -> Expectation? {
        let fields = file.split(separator: "-", maxSplits: 2).map(String.init)
        guard fields.count == 3 else { return nil }
        let area = fields[0]
        let dotted = fields[1].split(separator: ".").map(String.init)
        guard let functionality = dotted.first else { return nil }
        let subs = Array(dotted.dropFirst())
        let label = "\(area)-\(fields[1])"
        // The 2012 "link" prototype of these recordings is not the Atmel pad of link.touchpad:
        // its positions span 0…1279 × 0…678, exactly lumpy's (Cypress) ranges, and its resting
        // thumbs sit at y ≈ 660, the bottom of that range. It gets lumpy's description.
        let description = board == "link" ? "lumpy" : board
        func make(_ category: String, _ checks: [Check]) -> Expectation {
            Expectation(
                category: category, device: board, label: label, checks: checks,
                descriptionPath: "chromiumos-autotest/\(description).touchpad", kind: .touchpad)
        }
        let direction = subs.reversed().lazy.compactMap(Direction.init(rawValue:)).first
        switch area {
        case "click":
            if functionality == "drum_roll" {
                if subs.contains("tap") {
                    return make("drum roll taps", [.count("tap", .atLeast, 2), .nothingBut(taps), .pointerMotion(.atMost, pointerStill)])
                }
                return make("physical click", [.nothingBut(holds)])
            }
            if functionality == "2fscroll_1fclick" {
                return make(
                    "two-finger scroll", [.panAxis("scroll", horizontal: subs.contains("horiz")), .nothingBut(holds.union(["scroll"]))])
            }
            let count: Int? =
                switch functionality {
                case "any_finger_click", "any_angle_click": 10
                case "any_location_click": 9
                case "no_min_width_click", "no_cursor_wobble": 5
                default: nil
                }
            guard let count else { return nil }
            if subs.contains("tap") {
                return make("one-finger taps", [.count("tap", .equal, count), .nothingBut(taps)])
            }
            return make("physical click", [.nothingBut(holds)])
        case "right_click":
            if functionality == "basic_right_click" && subs.contains("tap") {
                return make("two-finger taps", [.count("two-finger-tap", .equal, 5), .nothingBut(["two-finger-tap"])])
            }
            if functionality == "one_finger_tracking_2d" {
                return make("pointer then click", [.pointerMotion(.atLeast, pointerMoved), .nothingBut(holds)])
            }
            return make("physical click", [.nothingBut(holds)])
        case "select":
            let tapAndHalf = subs.contains("tap_and_half") || functionality == "single_finger_lifted_2d"
            let twoFingers = functionality.hasPrefix("two_fingers")
            if tapAndHalf {
                // Tap, then press again and drag: gestured reports the tap; the drag is pointer
                // motion, or a two-finger pan when a second finger drags beside the held one.
                if twoFingers {
                    return make("tap-and-drag", [.count("tap", .atLeast, 1), .nothingBut(taps.union(holds).union(["scroll"]))])
                }
                return make(
                    "tap-and-drag", [.count("tap", .atLeast, 1), .pointerMotion(.atLeast, pointerMoved), .nothingBut(taps.union(holds))])
            }
            return make("click-and-drag", [.pointerMotion(.atLeast, pointerMoved), .nothingBut(holds)])
        case "scroll":
            var allowed: Set<String> = holds.union(["scroll"])
            if subs.contains("right_click") { allowed.insert("two-finger-tap") }
            if subs.contains("click_and_drag") { allowed.formUnion(taps) }
            guard let direction else { return nil }
            if subs.contains("three_finger_contact") {
                // "Use two fingers to scroll in any direction. Have a 3rd finger in contact.
                // Then go back to two fingers. Use the two fingers to scroll up/down.": only
                // the motion after the third finger lifted has a named direction.
                allowed.formUnion(["three-finger-tap", "three-finger-swipe"])
                return make("two-finger scroll", [.panDirectionAfter("scroll", direction, fingers: 3), .nothingBut(allowed)])
            }
            return make("two-finger scroll", [.panDirection("scroll", direction), .nothingBut(allowed)])
        case "palm":
            switch functionality {
            case "palm_presence", "hovering_thumb":
                return make("palm/thumb alone", [.nothingBut([]), .pointerMotion(.atMost, pointerStill)])
            case "palm_pointing", "thumb_pointing":
                return make("pointer beside palm/thumb", [.pointerMotion(.atLeast, pointerMoved), .nothingBut(holds)])
            case "palm_scroll", "thumb_scroll":
                guard let direction else { return nil }
                return make("scroll beside palm/thumb", [.panDirection("scroll", direction), .nothingBut(holds.union(["scroll"]))])
            case "palm_click", "thumb_click":
                return make("click beside palm/thumb", [.nothingBut(holds)])
            default:
                return nil
            }
        default:
            return nil
        }
    }

    // MARK: - ChromiumOS firmware_TouchMTB (gesture_definitions.json)

    /// `<gesture>.<variation…>-<board>-fw_<version>-…dat`, or a bare test sample name.
    static func firmwareTouchMTB(file: String, path: String) -> Expectation? {
        let stem = file.hasSuffix(".dat") ? String(file.dropLast(4)) : file
        let label = String(stem.split(separator: "-").first ?? Substring(stem))
        let dotted = label.split(separator: ".").map(String.init)
        guard let gesture = dotted.first else { return nil }
        let board: String
        var descriptionPath: String?
        if path.contains("/link/") {
            board = "link"
            descriptionPath = stem.contains("manual") ? "chromiumos-autotest/link-fw_1.0.AA-manual.touchpad" : "chromiumos-autotest/link.touchpad"
        } else if path.contains("/lumpy/") || stem.contains("lumpy") {
            board = "lumpy"
            descriptionPath = "chromiumos-autotest/lumpy.touchpad"
        } else {
            board = "TouchMTB sample"
        }
        func make(_ category: String, _ checks: [Check]) -> Expectation {
            Expectation(category: category, device: board, label: label, checks: checks, descriptionPath: descriptionPath, kind: .touchpad)
        }
        let variation = dotted.dropFirst().joined(separator: ".")
        let direction: Direction? =
            if variation.hasPrefix("top_to_bottom") { .down } else if variation.hasPrefix("bottom_to_top") { .up } else if variation
                .hasPrefix("left_to_right")
            { .right } else if variation.hasPrefix("right_to_left") { .left } else { nil }
        switch gesture {
        case "one_finger_tap":
            return make("one-finger taps", [.count("tap", .equal, 1), .nothingBut(["tap"])])
        case "rapid_taps_20":
            return make("one-finger taps", [.count("tap", .equal, 20), .nothingBut(taps)])
        case "two_finger_tap":
            return make("two-finger taps", [.count("two-finger-tap", .equal, 1), .nothingBut(["two-finger-tap"])])
        case "one_finger_tracking", "one_finger_swipe", "one_finger_to_edge", "drag_edge_thumb":
            return make("pointer motion", [.pointerMotion(.atLeast, pointerMoved), .nothingBut(holds)])
        case "two_finger_tracking", "two_finger_swipe":
            guard let direction else { return nil }
            return make("two-finger scroll", [.panDirection("scroll", direction), .nothingBut(holds.union(["scroll"]))])
        case "jagged_two_finger_scroll_horizontal":
            return make("two-finger scroll", [.panAxis("scroll", horizontal: true), .nothingBut(holds.union(["scroll"]))])
        case "2f_scroll_diagonal":
            return make("two-finger scroll", [.count("scroll", .atLeast, 1), .nothingBut(holds.union(["scroll"]))])
        case "pinch_to_zoom":
            return make("pinch", [.pinchScale(spread: variation.hasPrefix("zoom_in")), .nothingBut(holds.union(["pinch"]))])
        case "one_finger_physical_click", "two_fingers_physical_click", "1f_click", "2f_clicks":
            return make("physical click", [.nothingBut(holds)])
        case "drumroll", "drumroll_lumpy":
            // The firmware drum rolls overlap: the next finger lands before the last one
            // lifts (13 of 14, 14 of 53 and 3 of 6 successive contacts), and two fingers down
            // together tap as two (libinput and the ChromiumOS library alike). The
            // hardware_Trackpad drum rolls, which never overlap, keep one-finger taps only.
            return make(
                "drum roll taps",
                [.countOfAny(["tap", "two-finger-tap"], .atLeast, 2), .nothingBut(taps.union(["two-finger-tap"]))])
        case "one_finger_long_hold", "two_finger_long_hold":
            // Touchpads hold with three fingers (config/evaluation.conf): one or two fingers
            // resting still must produce nothing — no tap, no scroll, no pointer motion.
            return make("resting fingers", [.nothingBut([]), .pointerMotion(.atMost, pointerStill)])
        case "thumb_edge_wobble":
            return make("palm/thumb alone", [.nothingBut(holds), .pointerMotion(.atMost, pointerStill)])
        case "noise_stationary_extended":
            return make("stationary finger in noise", [.nothingBut(holds), .pointerMotion(.atMost, pointerStill)])
        case "fat_finger_move_with_resting_finger":
            return make("move beside a resting finger", [.nothingBut(holds.union(["scroll"]))])
        default:
            // one_finger_fast_swipe_id_split, two_finger_fast_flick_id_split,
            // two_close_fingers_merging_changed_ids_gaps, finger_crossing,
            // stationary_finger_shift_with_2nd_finger_tap, two_finger_tap_one_finger_hold:
            // firmware tracking tests whose definitions judge tracking ids, not an outcome.
            return nil
        }
    }

    // MARK: - ChromiumOS touch_* playback files (<board>[_touchpad_<fw>]_<gesture>)

    static func touchPlayback(folder: String, file: String) -> Expectation? {
        let lower = file.lowercased()
        let board = boardName(file)
        let isTouchscreen = folder.hasPrefix("touch_Touchscreen")
        func make(_ category: String, _ checks: [Check]) -> Expectation {
            var description: String?
            if ["x86-alex", "alex", "link", "lumpy"].contains(board) {
                description = "chromiumos-autotest/\(board == "x86-alex" ? "alex" : board).touchpad"
            }
            return Expectation(
                category: category, device: board, label: "\(folder)/\(file)", checks: checks,
                descriptionPath: isTouchscreen ? nil : description, kind: isTouchscreen ? .touchscreen : .touchpad)
        }
        let direction = trailingDirection(lower)
        switch folder {
        case "touch_ScrollDirection":
            guard let direction else { return nil }
            return make("two-finger scroll", [.panDirection("scroll", direction), .nothingBut(holds.union(["scroll"]))])
        case "touch_TabSwitch":
            guard let direction else { return nil }
            return make("three-finger swipe", [.swipeDirection("three-finger-swipe", direction), .nothingBut(["three-finger-swipe"])])
        case "touch_TapSettings":
            if lower.contains("drag") {
                return make("tap-and-drag", [.count("tap", .atLeast, 1), .pointerMotion(.atLeast, pointerMoved), .nothingBut(taps.union(holds))])
            }
            return make("one-finger taps", [.count("tap", .equal, 1), .nothingBut(["tap"])])
        case "touch_TouchscreenScroll":
            guard let direction else { return nil }
            return make("touchscreen drag", [.panDirection("drag", direction), .nothingBut(holds.union(["drag", "scroll"]))])
        case "touch_TouchscreenTaps":
            return make("touchscreen taps", [.count("tap", .atLeast, 1), .nothingBut(taps)])
        default:
            return nil
        }
    }

    /// The board is what precedes `_touchpad_`, `_touchscreen`, `_scroll`, `_tap`, `_three`,
    /// `_left`/`_right` in a playback file name.
    static func boardName(_ file: String) -> String {
        for marker in ["_touchpad_", "_touchscreen", "_scroll", "_tap", "_three", "_left", "_right"] {
            if let index = firstIndex(of: marker, in: file) { return String(file[..<index]) }
        }
        return file
    }

    static func trailingDirection(_ name: String) -> Direction? {
        for direction in Direction.allCases where name.hasSuffix(direction.rawValue) { return direction }
        return nil
    }

    // MARK: - evemu-devices and xorg-integration-tests (gesture in the file name)

    static func namedRecording(file: String) -> Expectation? {
        let lower = file.lowercased()
        // "<device name>.<gesture>.events" (or "<device name> <gesture>.events" for Wacom).
        let device = deviceName(file)
        func make(_ category: String, _ checks: [Check]) -> Expectation {
            Expectation(category: category, device: device, label: file, checks: checks)
        }
        let isWacom = lower.hasPrefix("wacom")
        // Wacom's "double" means two fingers (SOURCES.md: the Bamboo and Intuos5 "double-tap"
        // files hold two simultaneous contacts); "2fg-double-tap" is two two-finger taps.
        if isWacom && (lower.hasSuffix(" double-tap.events") || lower.contains("2fg-double-tap")) {
            return make("two-finger taps", [.count("two-finger-tap", .atLeast, 1), .nothingBut(["two-finger-tap"])])
        }
        if lower.contains("2-finger-tap") || lower.contains("two_finger_tap") || lower.contains("2fg-tap") {
            return make("two-finger taps", [.count("two-finger-tap", .equal, 1), .nothingBut(["two-finger-tap"])])
        }
        if lower.contains("three_finger_tap") {
            return make("three-finger tap", [.count("three-finger-tap", .equal, 1), .nothingBut(["three-finger-tap"])])
        }
        if !isWacom && (lower.contains("double-tap") || lower.contains("doubletap")) {
            return make("double tap", [.count("double-tap", .equal, 1), .nothingBut(taps)])
        }
        if lower.contains("single-tap") || lower.hasSuffix(".tap.events") || lower.hasSuffix("-tap.events") {
            return make("one-finger taps", [.count("tap", .atLeast, 1), .nothingBut(taps)])
        }
        if lower.contains("fast-taps") {
            return make("one-finger taps", [.count("tap", .equal, 9), .nothingBut(taps)])
        }
        if lower.contains("press.events") || lower.contains("phys-click") || lower.contains("finger-click") {
            return make("physical click", [.nothingBut(holds)])
        }
        if lower.contains("2-fingers-touch-release") {
            return make(
                "two-finger tap or hold",
                [.countOfAny(["two-finger-tap", "two-finger-hold"], .equal, 1), .nothingBut(holds.union(["two-finger-tap", "two-finger-hold"]))])
        }
        if lower.contains("4-finger-drag-down") {
            return make("four-finger swipe", [.swipeDirection("four-finger-swipe", .down), .nothingBut(holds.union(["four-finger-swipe"]))])
        }
        if lower.contains("two-finger-scroll") || lower.contains("2-finger-scroll") || lower.contains("two-finger-vert-scroll") {
            let allowed: Set<String> = holds.union(["scroll"])
            if lower.contains("-up.") { return make("two-finger scroll", [.panDirection("scroll", .up), .nothingBut(allowed)]) }
            if lower.contains("-down.") { return make("two-finger scroll", [.panDirection("scroll", .down), .nothingBut(allowed)]) }
            if lower.contains("horizontal") {
                return make("two-finger scroll", [.panAxis("scroll", horizontal: true), .nothingBut(allowed)])
            }
            return make("two-finger scroll", [.panAxis("scroll", horizontal: false), .nothingBut(allowed)])
        }
        if lower.contains("double-top-swipe") {
            return make("two-finger scroll", [.panAxis("scroll", horizontal: true), .nothingBut(holds.union(["scroll"]))])
        }
        if lower.contains("double-center-scroll") {
            return make("two-finger scroll", [.panAxis("scroll", horizontal: false), .nothingBut(holds.union(["scroll"]))])
        }
        if lower.contains("edge-scroll") {
            return make("one-finger edge scroll", [.pointerMotion(.atLeast, pointerMoved), .nothingBut(holds)])
        }
        if lower.contains("1-finger-drag") {
            return make("touchscreen drag", [.count("drag", .atLeast, 1), .nothingBut(holds.union(["drag"]))])
        }
        return nil
    }

    static func deviceName(_ file: String) -> String {
        var name = file
        if name.hasSuffix(".events") { name = String(name.dropLast(7)) }
        if let index = firstIndex(of: " Finger", in: name) { return String(name[..<name.index(index, offsetBy: 7)]) }
        for suffix in ["-tap", "-two-finger-scroll-down", "-two-finger-scroll-up", "-move", "-tap-and-move"] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        if let dot = name.firstIndex(of: ".") { return String(name[..<dot]) }
        return name
    }

    /// Where `needle` first occurs in `haystack` (the standard library has no substring search
    /// without Foundation).
    static func firstIndex(of needle: String, in haystack: String) -> String.Index? {
        var index = haystack.startIndex
        while index < haystack.endIndex {
            if haystack[index...].hasPrefix(needle) { return index }
            index = haystack.index(after: index)
        }
        return nil
    }
}
