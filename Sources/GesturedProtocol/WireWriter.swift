/// The bytes of the event lines (`gesture`, `touch`), written straight into a caller's buffer
/// with the keys in the order of one table (``GestureEventMessage/wireOrder``,
/// ``TouchEventMessage/wireOrder``) that the decoder reads them by, so a line is written once
/// and nothing is built to be converted again (DESIGN.md "Daemon, event loop and socket protocol" › "The wire").
///
/// The spelling is the generic writer's (``JSONWriter``): strings escaped the same way,
/// slashes unescaped, integral numbers without ".0", other numbers as Swift's shortest
/// round-trip description. Nothing here allocates for the values a frame carries (numbers
/// spell into small strings, which live inline), so a steady frame costs no heap allocation.
public struct WireWriter {
    /// No key written yet in the current object.
    private var first = true

    public init() {}

    /// `{` (starts an object).
    public mutating func begin(_ bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    /// `}\n` (ends the object and the line).
    public func endLine(_ bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `,"key":` (the comma only after the first key), from the key's bytes `"key":`
    /// (``quotedKey(_:)``, made once per table).
    public mutating func key(_ quoted: [UInt8], _ bytes: inout [UInt8]) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(contentsOf: quoted)
    }

    /// `"name":` as bytes.
    public static func quotedKey(_ name: String) -> [UInt8] {
        [UInt8(ascii: "\"")] + Array(name.utf8) + [UInt8(ascii: "\""), UInt8(ascii: ":")]
    }

    /// A JSON string literal, escaped as ``JSONWriter/writeString(_:into:)`` does. Text with
    /// nothing to escape (every name and node in practice) is copied in one append.
    public static func string(_ text: String, _ bytes: inout [UInt8]) {
        var text = text
        let clean = text.withUTF8 { utf8 in appendIfClean(utf8, &bytes) }
        if !clean { JSONWriter.writeString(text, into: &bytes) }
    }

    /// ``string(_:_:)-(String,_)`` of a substring (a node's last path component).
    public static func string(_ text: Substring, _ bytes: inout [UInt8]) {
        var text = text
        let clean = text.withUTF8 { utf8 in appendIfClean(utf8, &bytes) }
        if !clean { JSONWriter.writeString(String(text), into: &bytes) }
    }

    /// Appends `"utf8"` when no byte of it needs an escape; false (nothing appended) otherwise.
    private static func appendIfClean(_ utf8: UnsafeBufferPointer<UInt8>, _ bytes: inout [UInt8]) -> Bool {
        for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
        return true
    }

    /// A finite number as the protocol spells it; false (nothing written) when not finite.
    public static func number(_ value: Double, _ bytes: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        if shortDecimal(value, &bytes) { return true }
        let text = value.description
        let utf8 = text.utf8
        // "3.0" is written "3".
        if utf8.count > 2, utf8.last == UInt8(ascii: "0"), utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".") {
            bytes.append(contentsOf: utf8.dropLast(2))
        } else {
            bytes.append(contentsOf: utf8)
        }
        return true
    }

    /// The daemon's values are rounded to at most 4 decimals (``WireMapping``): such a value
    /// is written from its integer digits, which is what Swift's shortest round-trip
    /// description gives for it, at a tenth of the cost. Applies when |value| is 0 or in
    /// [0.0001, 1e11) and, for the least p ≤ 4 that works, `n = round(value · 10^p)` gives
    /// `n / 10^p` the same double, with `n` not ending in 0 (when p > 0). In that range a double's ulp is
    /// under 0.00003, so no other decimal of at most 4 places maps to the same double and
    /// this one is the shortest; Swift writes such magnitudes without an exponent. Anything
    /// else (false) takes the description path. A test compares both on random values.
    static func shortDecimal(_ value: Double, _ bytes: inout [UInt8]) -> Bool {
        if value == 0 {
            if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            bytes.append(UInt8(ascii: "0"))
            return true
        }
        guard let (n, places) = shortDecimalDigits(value.magnitude) else { return false }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var divisor: UInt64 = 1
        for _ in 0..<places { divisor *= 10 }
        unsigned(n / divisor, &bytes)
        if places > 0 {
            bytes.append(UInt8(ascii: "."))
            var fraction = n % divisor
            var digit = divisor / 10
            while digit > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / digit))
                fraction %= digit
                digit /= 10
            }
        }
        return true
    }

    /// A decimal integer.
    public static func integer(_ value: Int64, _ bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(value.magnitude, &bytes)
    }

    /// A decimal unsigned integer, written without building a string.
    public static func unsigned(_ value: UInt64, _ bytes: inout [UInt8]) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `true` or `false`.
    public static func bool(_ value: Bool, _ bytes: inout [UInt8]) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// An object of numbers keyed by strings, keys in ascending order (custom recognizers'
    /// `values`), found by repeated minimum so that no sorted copy is made; false when a
    /// value is not finite.
    public static func numbers(_ values: [String: Double], _ bytes: inout [UInt8]) -> Bool {
        bytes.append(UInt8(ascii: "{"))
        var previous: String?
        for index in 0..<values.count {
            var next: (key: String, value: Double)?
            for entry in values where previous.map({ entry.key > $0 }) ?? true {
                if next == nil || entry.key < next!.key { next = entry }
            }
            guard let next else { break }
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(next.key, &bytes)
            bytes.append(UInt8(ascii: ":"))
            guard number(next.value, &bytes) else { return false }
            previous = next.key
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }
}

/// One place in a gesture line: a key of ``GestureEventMessage/CodingKeys`` (the table the
/// decoder reads by) or the `type` tag, which the envelope adds.
public enum GestureSlot: Sendable {
    case key(GestureEventMessage.CodingKeys)
    case type
}

/// One place in a touch line (as ``GestureSlot``).
public enum TouchSlot: Sendable {
    case key(TouchEventMessage.CodingKeys)
    case type
}

extension GestureEventMessage {
    /// Every key of a gesture line in wire order (sorted, gestured-ipc(7)): the decoder's
    /// table plus `type`, sorted once.
    public static let wireOrder: [(slot: GestureSlot, name: String, key: [UInt8])] = {
        var slots = CodingKeys.allCases.map { (slot: GestureSlot.key($0), name: $0.stringValue) }
        slots.append((.type, "type"))
        return slots.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            .map { ($0.slot, $0.name, WireWriter.quotedKey($0.name)) }
    }()

    /// This message's line, keys in ``wireOrder``; nil when a number is not finite.
    public func wireLine(into bytes: inout [UInt8]) -> Bool {
        var w = WireWriter()
        w.begin(&bytes)
        func put(_ name: [UInt8], _ value: Double?) -> Bool {
            guard let value else { return true }
            w.key(name, &bytes)
            return WireWriter.number(value, &bytes)
        }
        for (slot, _, name) in Self.wireOrder {
            let ok: Bool
            switch slot {
            case .type:
                w.key(name, &bytes)
                WireWriter.string("gesture", &bytes)
                ok = true
            case .key(let key):
                switch key {
                case .name: w.key(name, &bytes); WireWriter.string(self.name, &bytes); ok = true
                case .kind: w.key(name, &bytes); WireWriter.string(kind, &bytes); ok = true
                case .state: w.key(name, &bytes); WireWriter.string(state.rawValue, &bytes); ok = true
                case .device: w.key(name, &bytes); WireWriter.string(device, &bytes); ok = true
                case .deviceName: w.key(name, &bytes); WireWriter.string(deviceName, &bytes); ok = true
                case .timeUS: w.key(name, &bytes); WireWriter.integer(timeUS, &bytes); ok = true
                case .gestureID: w.key(name, &bytes); WireWriter.string(gestureID, &bytes); ok = true
                case .fingers: w.key(name, &bytes); WireWriter.integer(Int64(fingers), &bytes); ok = true
                case .xMM: ok = put(name, xMM)
                case .yMM: ok = put(name, yMM)
                case .xFraction: ok = put(name, xFraction)
                case .yFraction: ok = put(name, yFraction)
                case .taps:
                    if let taps { w.key(name, &bytes); WireWriter.integer(Int64(taps), &bytes) }
                    ok = true
                case .direction:
                    if let direction { w.key(name, &bytes); WireWriter.string(direction, &bytes) }
                    ok = true
                case .edge:
                    if let edge { w.key(name, &bytes); WireWriter.string(edge, &bytes) }
                    ok = true
                case .dxMM: ok = put(name, dxMM)
                case .dyMM: ok = put(name, dyMM)
                case .vxMMPerS: ok = put(name, vxMMPerS)
                case .vyMMPerS: ok = put(name, vyMMPerS)
                case .scale: ok = put(name, scale)
                case .scaleVelocity: ok = put(name, scaleVelocity)
                case .rotation: ok = put(name, rotation)
                case .rotationVelocity: ok = put(name, rotationVelocity)
                case .approximateUnits:
                    if let approximateUnits { w.key(name, &bytes); WireWriter.bool(approximateUnits, &bytes) }
                    ok = true
                case .values:
                    if let values {
                        w.key(name, &bytes)
                        ok = WireWriter.numbers(values, &bytes)
                    } else {
                        ok = true
                    }
                case .locked:
                    if let locked { w.key(name, &bytes); WireWriter.bool(locked, &bytes) }
                    ok = true
                case .touchesConsumed:
                    if let touchesConsumed { w.key(name, &bytes); WireWriter.bool(touchesConsumed, &bytes) }
                    ok = true
                case .dxDeltaMM: ok = put(name, dxDeltaMM)
                case .dyDeltaMM: ok = put(name, dyDeltaMM)
                case .dxFraction: ok = put(name, dxFraction)
                case .dyFraction: ok = put(name, dyFraction)
                case .scaleDelta: ok = put(name, scaleDelta)
                case .rotationDelta: ok = put(name, rotationDelta)
                case .restXMM: ok = put(name, restXMM)
                case .restYMM: ok = put(name, restYMM)
                case .restDxFraction: ok = put(name, restDxFraction)
                case .restDyFraction: ok = put(name, restDyFraction)
                case .flingS: ok = put(name, flingS)
                }
            }
            guard ok else { return false }
        }
        w.endLine(&bytes)
        return true
    }
}

extension TouchEventMessage {
    /// Every key of a touch line in wire order (as ``GestureEventMessage/wireOrder``).
    public static let wireOrder: [(slot: TouchSlot, name: String, key: [UInt8])] = {
        var slots = CodingKeys.allCases.map { (slot: TouchSlot.key($0), name: $0.stringValue) }
        slots.append((.type, "type"))
        return slots.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            .map { ($0.slot, $0.name, WireWriter.quotedKey($0.name)) }
    }()

    /// This message's line, keys in ``wireOrder``; false when a number is not finite.
    public func wireLine(into bytes: inout [UInt8]) -> Bool {
        TouchEventMessage.writeLine(device: device, timeUS: timeUS, touchID: touchID, phase: phase, xMM: xMM, yMM: yMM, into: &bytes)
    }

    /// A touch line from its values (the daemon writes it straight from the engine's touch).
    public static func writeLine(
        device: String, timeUS: Int64, touchID: UInt64, phase: WireTouchPhase, xMM: Double, yMM: Double, into bytes: inout [UInt8]
    ) -> Bool {
        var w = WireWriter()
        w.begin(&bytes)
        for (slot, _, name) in wireOrder {
            w.key(name, &bytes)
            switch slot {
            case .type: WireWriter.string("touch", &bytes)
            case .key(.device): WireWriter.string(device, &bytes)
            case .key(.phase): WireWriter.string(phase.rawValue, &bytes)
            case .key(.timeUS): WireWriter.integer(timeUS, &bytes)
            case .key(.touchID): WireWriter.unsigned(touchID, &bytes)
            case .key(.xMM): guard WireWriter.number(xMM, &bytes) else { return false }
            case .key(.yMM): guard WireWriter.number(yMM, &bytes) else { return false }
            }
        }
        w.endLine(&bytes)
        return true
    }
}

/// ``WireWriter``'s spellings written through a pointer into memory the caller reserved for
/// the whole line (the daemon's per-frame encoder: `Array.append(addingCapacity:)`), so a byte
/// costs a store instead of an array append's uniqueness and capacity checks (callgrind: the
/// array path spent about 13 000 instructions on a 370-byte gesture line). The caller bounds
/// the line first (``bound(strings:)``) and takes the array path when a string needs an
/// escape (``string(_:)`` returns false) or a custom recognizer's values are present.
public struct WireCursor {
    @usableFromInline var position: UnsafeMutablePointer<UInt8>
    @usableFromInline let start: UnsafeMutablePointer<UInt8>

    @inlinable
    public init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        self.position = start
    }

    /// Bytes written so far.
    @inlinable public var count: Int { position - start }

    /// An upper bound of a gesture line's bytes whose strings (name, kind, state, node,
    /// device name, kernel name, direction or edge) hold `strings` bytes in all, unescaped:
    /// every key with its comma, at most 26 bytes for each number or integer, the quotes.
    public static func bound(strings: Int) -> Int {
        GestureEventMessage.wireKeys.bytes.count + GestureEventMessage.wireKeys.entries.count * 26 + 2 * 12 + strings + 64
    }

    @inlinable
    public mutating func byte(_ b: UInt8) {
        position.initialize(to: b)
        position += 1
    }

    /// Copies `source`. Up to 32 bytes (a key with its punctuation, most names and values)
    /// take two overlapping loads and stores of the widest size that fits instead of a
    /// `memcpy` call: a line has some twenty such copies, and the guest's emulator charges
    /// each distinct call site about a thousand hot instructions a wake-up (DESIGN.md "Performance principles"). Not a byte loop: the compiler turns that back into `memcpy`.
    /// Always inlined: a call to it would cost what the `memcpy` call did.
    @inlinable @inline(__always)
    public mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        let n = source.count
        let from = UnsafeRawPointer(base)
        let to = UnsafeMutableRawPointer(position)
        switch n {
        case 0:
            break
        case 1...3:
            // first, middle and last byte (the same byte twice when n < 3)
            to.storeBytes(of: from.load(as: UInt8.self), as: UInt8.self)
            to.storeBytes(of: from.load(fromByteOffset: n / 2, as: UInt8.self), toByteOffset: n / 2, as: UInt8.self)
            to.storeBytes(of: from.load(fromByteOffset: n - 1, as: UInt8.self), toByteOffset: n - 1, as: UInt8.self)
        case 4...7:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
        case 17...32:
            let a = from.loadUnaligned(as: UInt64.self)
            let b = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = from.loadUnaligned(fromByteOffset: n - 16, as: UInt64.self)
            let d = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: a, as: UInt64.self)
            to.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: c, toByteOffset: n - 16, as: UInt64.self)
            to.storeBytes(of: d, toByteOffset: n - 8, as: UInt64.self)
        default:
            position.initialize(from: base, count: n)
        }
        position += n
    }

    /// `"text"` when nothing in it needs an escape; false (nothing written) otherwise.
    @inlinable
    public mutating func string(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { clean($0) }
    }

    @inlinable
    mutating func clean(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
        byte(UInt8(ascii: "\""))
        bytes(utf8)
        byte(UInt8(ascii: "\""))
        return true
    }

    /// A decimal unsigned integer: its digits counted, then written from the last one back.
    @inlinable
    public mutating func unsigned(_ value: UInt64) {
        var digits = 1
        var t = value
        while t >= 10 {
            t /= 10
            digits += 1
        }
        var p = position + digits
        var rest = value
        repeat {
            p -= 1
            p.initialize(to: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        position += digits
    }

    @inlinable
    public mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    @inlinable
    public mutating func bool(_ value: Bool) {
        if value {
            byte(UInt8(ascii: "t")); byte(UInt8(ascii: "r")); byte(UInt8(ascii: "u")); byte(UInt8(ascii: "e"))
        } else {
            byte(UInt8(ascii: "f")); byte(UInt8(ascii: "a")); byte(UInt8(ascii: "l")); byte(UInt8(ascii: "s")); byte(UInt8(ascii: "e"))
        }
    }

    /// `value` rounded to `places` decimals (0…4) as the daemon rounds its values (`(value ·
    /// 10^places).rounded() / 10^places`, 0 when not finite), written as ``number(_:)``
    /// writes that rounded value, in one pass: the rounded integer `n` is spelled with its
    /// decimal point put in and its trailing zeros dropped, which is the shortest description
    /// of `n / 10^places` while that is under 1e11 (``WireWriter/shortDecimalDigits(_:)``
    /// says why). Larger values take ``number(_:)``. The separate rounding, the second
    /// rounding at 4 places and the check by division that ``number(_:)`` needs to find the
    /// digits of an arbitrary double are not needed here (WireWriterTests compare both).
    public mutating func fixed(_ value: Double, places: Int) {
        precondition((0...4).contains(places))
        guard value.isFinite else {
            byte(UInt8(ascii: "0"))
            return
        }
        var scale = 1.0
        var divisor: UInt64 = 1
        for _ in 0..<places {
            scale *= 10
            divisor *= 10
        }
        let scaled = (value * scale).rounded()
        guard scaled != 0, scaled.magnitude < 1e11 * scale else {
            _ = number(scaled / scale)
            return
        }
        if scaled < 0 { byte(UInt8(ascii: "-")) }
        let n = UInt64(scaled.magnitude)
        unsigned(n / divisor)
        var fraction = n % divisor
        guard fraction != 0 else { return }
        var digits = places
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        byte(UInt8(ascii: "."))
        // `digits` digits, leading zeros kept, written from the last one back.
        var p = position + digits
        repeat {
            p -= 1
            p.initialize(to: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: fraction % 10))
            fraction /= 10
        } while p > position
        position += digits
    }

    /// A finite number as ``WireWriter/number(_:_:)`` spells it; false (nothing written)
    /// when not finite.
    public mutating func number(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        if value == 0 {
            if value.sign == .minus { byte(UInt8(ascii: "-")) }
            byte(UInt8(ascii: "0"))
            return true
        }
        if let (n, places) = WireWriter.shortDecimalDigits(value.magnitude) {
            if value < 0 { byte(UInt8(ascii: "-")) }
            var divisor: UInt64 = 1
            for _ in 0..<places { divisor *= 10 }
            unsigned(n / divisor)
            if places > 0 {
                byte(UInt8(ascii: "."))
                var fraction = n % divisor
                var digit = divisor / 10
                while digit > 0 {
                    byte(UInt8(ascii: "0") + UInt8(fraction / digit))
                    fraction %= digit
                    digit /= 10
                }
            }
            return true
        }
        var text = value.description
        text.withUTF8 { utf8 in
            // "3.0" is written "3".
            if utf8.count > 2, utf8[utf8.count - 1] == UInt8(ascii: "0"), utf8[utf8.count - 2] == UInt8(ascii: ".") {
                bytes(UnsafeBufferPointer(rebasing: utf8[..<(utf8.count - 2)]))
            } else {
                bytes(utf8)
            }
        }
        return true
    }
}

extension WireWriter {
    /// The digits ``shortDecimal(_:_:)`` writes for a magnitude (> 0): `n` and the number of
    /// decimal places, or nil when it does not apply.
    @usableFromInline
    ///
    /// One rounding at 4 places, then the trailing zeros dropped: the least p ≤ 4 for which
    /// `round(m·10^p) / 10^p == m` is the same p. If some p works, `m·10^4` is within 0.15 of
    /// the integer `n_p·10^(4-p)` (m < 1e11: its ulp is under 2^-16), so the rounding at 4
    /// places gives that integer, and `n / 10^4` is the same rational correctly rounded, m;
    /// so the check at 4 places passes exactly when some p does, and the least such p is
    /// where n's trailing zeros end (the tests compare every value with Swift's description).
    static func shortDecimalDigits(_ magnitude: Double) -> (n: UInt64, places: Int)? {
        guard magnitude >= 0.0001, magnitude < 1e11 else { return nil }
        var n = UInt64((magnitude * 10_000).rounded())
        guard Double(n) / 10_000 == magnitude else { return nil }
        var places = 4
        while places > 0, n % 10 == 0 {
            n /= 10
            places -= 1
        }
        return (n, places)
    }
}

/// The keys of a gesture line in ``GestureEventMessage/wireOrder``, each spelled `,"key":`
/// back to back in one array, with plain values per entry: iterating it retains nothing per
/// key (the tuple table's strings and arrays cost a retain and a release each).
public struct WireKeyTable: Sendable {
    public struct Entry: Sendable {
        public var slot: GestureSlot
        /// Where `,"key":` starts in ``bytes``, and its length with the comma.
        public var offset: Int
        public var count: Int
    }

    public let bytes: [UInt8]
    public let entries: [Entry]

    init(_ order: [(slot: GestureSlot, name: String, key: [UInt8])]) {
        var bytes: [UInt8] = []
        var entries: [Entry] = []
        for (slot, _, key) in order {
            entries.append(Entry(slot: slot, offset: bytes.count, count: key.count + 1))
            bytes.append(UInt8(ascii: ","))
            bytes += key
        }
        self.bytes = bytes
        self.entries = entries
    }
}

extension GestureEventMessage {
    /// ``wireOrder`` as one byte table (``WireKeyTable``), for the daemon's encoder.
    public static let wireKeys = WireKeyTable(wireOrder)
}
