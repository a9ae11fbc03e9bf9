internal import CLinuxInput

/// One key or button of the kernel's `EV_KEY` space, by its code and kernel name.
public struct InputKey: Hashable, Sendable, CustomStringConvertible {
    /// The kernel's code (`KEY_PAGEUP` is 104).
    public var code: UInt16
    /// The kernel's name, e.g. `KEY_PAGEUP`, `BTN_LEFT`.
    public var name: String

    public init(code: UInt16, name: String) {
        self.code = code
        self.name = name
    }

    public var description: String { name }
}

/// A key or button name that does not name one, with the closest name that does.
public struct InputNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name as it was written.
    public var name: String
    /// "key" or "button".
    public var what: String
    /// The closest accepted name, when one is close.
    public var suggestion: String?

    public var description: String {
        "unknown \(what) '\(name)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    }
}

/// The kernel's key and button names (linux/input-event-codes.h, through libevdev's copy of
/// that table: `libevdev_event_code_get_name`) plus the xkb-style aliases people write in
/// shortcuts (`super`, `ctrl`, `Page_Up`, `Return`), so `super+Page_Up` and
/// `KEY_LEFTMETA+KEY_PAGEUP` mean the same. Matching ignores case, `_`, `-` and a `KEY_`
/// prefix: `Page_Up`, `pageup` and `KEY_PAGEUP` are one key.
///
/// Keys are the codes the kernel names `KEY_*` (no buttons: `send_keys` is a keyboard);
/// buttons are the mouse buttons `BTN_LEFT`…`BTN_TASK`.
public enum InputNames {
    /// xkb-style names that are not the kernel's, as (alias, kernel name), in documentation
    /// order (gestured-ipc(7) lists them).
    public static let keyAliases: [(alias: String, kernelName: String)] = [
        ("super", "KEY_LEFTMETA"), ("Super_L", "KEY_LEFTMETA"), ("Super_R", "KEY_RIGHTMETA"),
        ("meta", "KEY_LEFTMETA"), ("logo", "KEY_LEFTMETA"), ("win", "KEY_LEFTMETA"), ("mod4", "KEY_LEFTMETA"),
        ("ctrl", "KEY_LEFTCTRL"), ("control", "KEY_LEFTCTRL"), ("Control_L", "KEY_LEFTCTRL"),
        ("Control_R", "KEY_RIGHTCTRL"), ("Ctrl_R", "KEY_RIGHTCTRL"),
        ("alt", "KEY_LEFTALT"), ("Alt_L", "KEY_LEFTALT"), ("mod1", "KEY_LEFTALT"), ("Alt_R", "KEY_RIGHTALT"),
        ("AltGr", "KEY_RIGHTALT"), ("ISO_Level3_Shift", "KEY_RIGHTALT"),
        ("shift", "KEY_LEFTSHIFT"), ("Shift_L", "KEY_LEFTSHIFT"), ("Shift_R", "KEY_RIGHTSHIFT"),
        ("Return", "KEY_ENTER"), ("Escape", "KEY_ESC"), ("Del", "KEY_DELETE"), ("Ins", "KEY_INSERT"),
        ("Prior", "KEY_PAGEUP"), ("Next", "KEY_PAGEDOWN"), ("PgUp", "KEY_PAGEUP"), ("PgDn", "KEY_PAGEDOWN"),
        ("Print", "KEY_SYSRQ"), ("Menu", "KEY_COMPOSE"),
        ("plus", "KEY_KPPLUS"), ("KP_Add", "KEY_KPPLUS"), ("KP_Subtract", "KEY_KPMINUS"),
        ("KP_Multiply", "KEY_KPASTERISK"), ("KP_Divide", "KEY_KPSLASH"),
        ("period", "KEY_DOT"), ("bracketleft", "KEY_LEFTBRACE"), ("bracketright", "KEY_RIGHTBRACE"),
        ("XF86AudioRaiseVolume", "KEY_VOLUMEUP"), ("XF86AudioLowerVolume", "KEY_VOLUMEDOWN"),
        ("XF86AudioMute", "KEY_MUTE"), ("XF86AudioPlay", "KEY_PLAYPAUSE"), ("XF86AudioNext", "KEY_NEXTSONG"),
        ("XF86AudioPrev", "KEY_PREVIOUSSONG"), ("XF86MonBrightnessUp", "KEY_BRIGHTNESSUP"),
        ("XF86MonBrightnessDown", "KEY_BRIGHTNESSDOWN"),
    ]

    /// Button names of `click`, as (name, kernel name).
    public static let buttonNames: [(name: String, kernelName: String)] = [
        ("left", "BTN_LEFT"), ("right", "BTN_RIGHT"), ("middle", "BTN_MIDDLE"), ("side", "BTN_SIDE"),
        ("extra", "BTN_EXTRA"), ("forward", "BTN_FORWARD"), ("back", "BTN_BACK"), ("task", "BTN_TASK"),
    ]

    /// Every keyboard key the kernel names (`KEY_ESC`…), in code order: what the virtual
    /// keyboard supports.
    public static let allKeys: [InputKey] = {
        var keys: [InputKey] = []
        for code in 1...UInt16(KEY_MAX) {
            guard let cName = libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code)) else { continue }
            let name = String(cString: cName)
            if name.hasPrefix("KEY_") { keys.append(InputKey(code: code, name: name)) }
        }
        return keys
    }()

    /// The mouse buttons of the virtual pointer.
    public static let allButtons: [InputKey] = buttonNames.compactMap { kernelKey($0.kernelName) }

    /// Normalized spelling (lowercased, no `_`/`-`, no `key` prefix) → key.
    private static let keyIndex: [String: InputKey] = {
        var index: [String: InputKey] = [:]
        for key in allKeys { index[normalize(key.name)] = index[normalize(key.name)] ?? key }
        // Aliases win over kernel names that normalize the same way ("Menu" is xkb's
        // KEY_COMPOSE, not KEY_MENU; "plus" has no kernel key).
        for (alias, kernelName) in keyAliases {
            if let key = kernelKey(kernelName) { index[normalize(alias)] = key }
        }
        return index
    }()

    private static let buttonIndex: [String: InputKey] = {
        var index: [String: InputKey] = [:]
        for (name, kernelName) in buttonNames {
            guard let key = kernelKey(kernelName) else { continue }
            index[normalize(name)] = key
            index[normalize(kernelName)] = key
        }
        return index
    }()

    /// The keyboard key `name` names.
    public static func key(_ name: String) -> Result<InputKey, InputNameError> {
        // A kernel name written out is that key, even where an alias shares its spelling
        // (`KEY_NEXT` is not `Next`, which xkb means as Page Down).
        if name.uppercased().hasPrefix("KEY_"), let key = kernelKey(name.uppercased()), key.code > 0 {
            return .success(key)
        }
        if let key = keyIndex[normalize(name)] { return .success(key) }
        return .failure(InputNameError(name: name, what: "key", suggestion: closest(name, in: keyCandidates)))
    }

    /// The pointer button `name` names.
    public static func button(_ name: String) -> Result<InputKey, InputNameError> {
        if let key = buttonIndex[normalize(name)] { return .success(key) }
        return .failure(InputNameError(name: name, what: "button", suggestion: closest(name, in: buttonCandidates)))
    }

    /// Splits `super+Page_Up` into its names (`+` separates; the plus key is `plus`) and
    /// resolves each. Empty parts (`ctrl++`) are reported as such.
    public static func combination(_ text: String) -> Result<[InputKey], InputNameError> {
        var keys: [InputKey] = []
        for part in text.split(separator: "+", omittingEmptySubsequences: false) {
            let name = String(part).trimmingCharacters(in: " \t")
            guard !name.isEmpty else { return .failure(InputNameError(name: text, what: "key combination", suggestion: nil)) }
            switch key(name) {
            case .success(let key): keys.append(key)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(keys)
    }

    private static func kernelKey(_ kernelName: String) -> InputKey? {
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), kernelName)
        guard code >= 0 else { return nil }
        return InputKey(code: UInt16(code), name: kernelName)
    }

    static func normalize(_ name: String) -> String {
        var text = String(name.lowercased().filter { $0 != "_" && $0 != "-" })
        if text.hasPrefix("key"), text.count > 3, name.uppercased().hasPrefix("KEY_") { text.removeFirst(3) }
        return text
    }

    /// A name a suggestion may offer, with its normalized spelling's characters, made once
    /// (a file of typos, or a fuzzer, asks for hundreds of suggestions).
    private struct Candidate: Sendable {
        var name: String
        var normalized: [Character]
    }

    /// The aliases, then the kernel names, in that order (the first of equally close names wins).
    private static let keyCandidates: [Candidate] =
        (keyAliases.map(\.alias) + allKeys.map(\.name)).map { Candidate(name: $0, normalized: Array(normalize($0))) }

    private static let buttonCandidates: [Candidate] =
        buttonNames.map { Candidate(name: $0.name, normalized: Array(normalize($0.name))) }

    /// The first candidate at the least edit distance from `word`, when that distance is at
    /// most a third of its length (at least 1). Distances beyond that bound, or beyond the
    /// best found so far, are never needed exactly, so each candidate's computation stops as
    /// soon as it must exceed them (and is skipped when the lengths alone differ by more).
    private static func closest(_ word: String, in candidates: [Candidate]) -> String? {
        let target = Array(normalize(word))
        let bound = max(1, target.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            // Only a strictly smaller distance replaces the best, and none above the bound counts.
            let limit = min(bound, (best?.distance ?? bound + 1) - 1)
            guard limit >= 0, let distance = editDistance(target, candidate.normalized, atMost: limit) else { continue }
            best = (candidate.name, distance)
            if distance == 0 { break }
        }
        return best?.name
    }

    /// The Levenshtein distance of `a` and `b`, or nil when it is more than `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j])
            }
            // Every later row's entries are at least this row's least entry.
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let first = s.first, set.contains(first) { s = s.dropFirst() }
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return String(s)
    }
}
