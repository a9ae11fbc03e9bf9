import GestureEngine
import GesturedRandom
@testable import GesturedSystem
import Testing

/// The key and button names of `send_keys`, `click` and actions.conf `Keys=`/`Click=`:
/// the kernel's table (through libevdev) and the xkb-style aliases.
@Suite("Key and button names")
struct InputNamesTests {
    static func code(_ name: String) -> UInt16? { try? InputNames.key(name).get().code }

    @Test(
        "xkb-style aliases name the kernel keys shortcuts mean",
        arguments: [
            ("super", "KEY_LEFTMETA", 125), ("Super_R", "KEY_RIGHTMETA", 126), ("ctrl", "KEY_LEFTCTRL", 29),
            ("Control_R", "KEY_RIGHTCTRL", 97), ("alt", "KEY_LEFTALT", 56), ("AltGr", "KEY_RIGHTALT", 100),
            ("shift", "KEY_LEFTSHIFT", 42), ("Return", "KEY_ENTER", 28), ("Escape", "KEY_ESC", 1), ("Prior", "KEY_PAGEUP", 104),
            ("Next", "KEY_PAGEDOWN", 109), ("plus", "KEY_KPPLUS", 78), ("Print", "KEY_SYSRQ", 99), ("Menu", "KEY_COMPOSE", 127),
            ("XF86AudioRaiseVolume", "KEY_VOLUMEUP", 115),
        ]
    )
    func aliases(alias: String, kernelName: String, code: Int) throws {
        let key = try InputNames.key(alias).get()
        #expect(key.name == kernelName)
        #expect(Int(key.code) == code)
    }

    @Test("kernel names match with or without KEY_, in any case, with or without underscores")
    func kernelNames() {
        // linux/input-event-codes.h: KEY_PAGEUP 104, KEY_A 30, KEY_F12 88, KEY_1 2, KEY_LEFT 105
        for spelling in ["Page_Up", "page_up", "PageUp", "pageup", "KEY_PAGEUP", "key_pageup"] {
            #expect(Self.code(spelling) == 104, "\(spelling)")
        }
        #expect(Self.code("a") == 30)
        #expect(Self.code("F12") == 88)
        #expect(Self.code("1") == 2)
        #expect(Self.code("Left") == 105)
        #expect(Self.code("minus") == 12)
    }

    @Test("a kernel name written out wins over an alias of the same spelling")
    func kernelNameWritten() {
        // KEY_NEXT (407) is a media key; xkb's "Next" is Page Down (109).
        #expect(Self.code("KEY_NEXT") == 407)
        #expect(Self.code("Next") == 109)
        #expect(Self.code("KEY_MENU") == 139)
    }

    @Test("unknown names are errors with the closest name, and buttons are not keys")
    func unknownNames() {
        guard case .failure(let typo) = InputNames.key("supr") else {
            Issue.record("'supr' resolved")
            return
        }
        #expect(typo.description == "unknown key 'supr' (did you mean 'super'?)")
        guard case .failure(let button) = InputNames.key("BTN_LEFT") else {
            Issue.record("a button resolved as a key")
            return
        }
        #expect(button.what == "key")
        guard case .failure(let nonsense) = InputNames.key("qqqqqqqqqq") else {
            Issue.record("nonsense resolved")
            return
        }
        #expect(nonsense.suggestion == nil)
        #expect(Self.code("KEY_RESERVED") == nil)
    }

    @Test("buttons by short name or kernel name")
    func buttons() throws {
        // BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112
        #expect(try InputNames.button("left").get().code == 0x110)
        #expect(try InputNames.button("Right").get().code == 0x111)
        #expect(try InputNames.button("BTN_MIDDLE").get().code == 0x112)
        guard case .failure(let error) = InputNames.button("lefft") else {
            Issue.record("'lefft' resolved")
            return
        }
        #expect(error.description == "unknown button 'lefft' (did you mean 'left'?)")
    }

    @Test("a combination splits on '+', keeps its order, and rejects empty parts")
    func combination() throws {
        let keys = try InputNames.combination("super+Page_Up").get()
        #expect(keys.map(\.name) == ["KEY_LEFTMETA", "KEY_PAGEUP"])
        let three = try InputNames.combination("ctrl + alt + Delete").get()
        #expect(three.map(\.code) == [29, 56, 111])
        #expect((try? InputNames.combination("ctrl++").get()) == nil)
        #expect((try? InputNames.combination("ctrl+nope").get()) == nil)
    }

    @Test("the virtual keyboard supports every key name the table accepts, and no button")
    func keyboardCoversTheTable() {
        let keyboard = VirtualInputDevices.description(of: .keyboard)
        let keys = keyboard.codes.filter { $0.type == EventUsage.evKey }
        #expect(keys.count == InputNames.allKeys.count)
        #expect(InputNames.allKeys.count > 400, "the kernel names over 400 keys; \(InputNames.allKeys.count) found")
        for (alias, _) in InputNames.keyAliases {
            let code = Self.code(alias)
            #expect(code.map { keys.contains(EventUsage(type: EventUsage.evKey, code: $0)) } == true, "\(alias)")
        }
        #expect(!keys.contains(EventUsage(type: EventUsage.evKey, code: 0x110)))
        let pointer = VirtualInputDevices.description(of: .pointer)
        #expect(pointer.codes.contains(EventUsage(type: EventUsage.evKey, code: 0x110)))
        #expect(pointer.codes.contains(EventUsage(type: EventUsage.evRel, code: 0)), "libinput needs REL_X to call it a pointer")
    }

    /// The suggestion as a full scan finds it: the first candidate (aliases, then kernel
    /// names) at the least edit distance, when that is at most a third of the word's length.
    static func fullScanSuggestion(_ word: String, candidates: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for i in 0..<a.count {
                var current = [i + 1]
                for j in 0..<b.count {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1)))
                }
                previous = current
            }
            return previous[b.count]
        }
        let target = Array(InputNames.normalize(word))
        var best: (name: String, distance: Int) = ("", Int.max)
        for candidate in candidates {
            let d = distance(target, Array(InputNames.normalize(candidate)))
            if d < best.distance { best = (candidate, d) }
        }
        return best.distance <= max(1, target.count / 3) ? best.name : nil
    }

    @Test("the bounded suggestion search picks what a full scan of every name picks")
    func suggestionMatchesFullScan() {
        let keyCandidates = InputNames.keyAliases.map(\.alias) + InputNames.allKeys.map(\.name)
        let buttonCandidates = InputNames.buttonNames.map(\.name)
        var random = SplitMix64(seed: 16)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz_-0123456789KEY")
        var words = ["", "k", "KEY_", "supr", "qqqqqqqqqq", "lefft", "PageUpp", "KEY_VOLUMEUPP", String(repeating: "x", count: 80)]
        for _ in 0..<60 {
            var word = Array(keyCandidates[Int(random.next() % UInt64(keyCandidates.count))])
            for _ in 0..<Int(random.next() % 4) {
                let position = Int(random.next() % UInt64(word.count + 1))
                let letter = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: word.insert(letter, at: position)
                case 1 where position < word.count: word.remove(at: position)
                default: if position < word.count { word[position] = letter }
                }
            }
            words.append(String(word))
        }
        var suggested = 0
        for word in words {
            let expected = Self.fullScanSuggestion(word, candidates: keyCandidates)
            if case .failure(let error) = InputNames.key(word) {
                #expect(error.suggestion == expected, "key '\(word)'")
                if error.suggestion != nil { suggested += 1 }
            }
            if case .failure(let error) = InputNames.button(word) {
                #expect(error.suggestion == Self.fullScanSuggestion(word, candidates: buttonCandidates), "button '\(word)'")
            }
        }
        // The typos are mostly close to a name: the comparison covers suggestions, not only nil.
        #expect(suggested > 20)
    }
}
