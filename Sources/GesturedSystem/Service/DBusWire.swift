/// The D-Bus wire format, the project's own (the D-Bus specification, "Message Protocol"):
/// what ``SystemBus`` needs to talk to the system bus without sd-bus. Pure: bytes in, bytes
/// out; the connection, authentication and dispatch are ``SystemBus``'s.
///
/// Written: method calls and error replies, little-endian, with arguments of the basic types.
/// Read: any message of either byte order, every type but Unix file descriptors' contents
/// (`h` is read as its index; none are negotiated, so none arrive).
enum DBusWire {
    enum MessageType: UInt8 {
        case methodCall = 1
        case methodReturn = 2
        case error = 3
        case signal = 4
    }

    /// `NO_REPLY_EXPECTED`.
    static let noReplyExpected: UInt8 = 0x1

    /// A message's header: its fixed part and the header fields the specification defines.
    struct Header: Equatable {
        var type: MessageType
        var flags: UInt8 = 0
        var serial: UInt32
        var path: String?
        var interface: String?
        var member: String?
        var errorName: String?
        var replySerial: UInt32?
        var destination: String?
        var sender: String?
        var signature = ""
    }

    /// A malformed message, address or match rule: what was wrong, and where.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The specification's limit on a whole message.
    static let maximumMessageLength = 128 * 1024 * 1024
    /// Containers nested deeper than this are refused (the specification allows 32 arrays and
    /// 32 structs).
    static let maximumDepth = 64

    // MARK: Writing

    /// A message in the little-endian byte order.
    static func encode(_ header: Header, body: [BusValue]) throws(Failure) -> [UInt8] {
        var signature = ""
        var bodyWriter = Writer()
        for value in body {
            signature += try typeCode(of: value)
            try bodyWriter.basic(value)
        }
        var writer = Writer()
        writer.bytes.reserveCapacity(128 + bodyWriter.bytes.count)
        writer.bytes += [UInt8(ascii: "l"), header.type.rawValue, header.flags, 1]
        writer.uint32(UInt32(bodyWriter.bytes.count))
        writer.uint32(header.serial)
        // a(yv): the array's length is patched in once its elements are written.
        writer.uint32(0)
        writer.pad(to: 8)
        let fieldsStart = writer.bytes.count
        func field(_ code: UInt8, _ type: String, _ write: (inout Writer) -> Void) {
            writer.pad(to: 8)
            writer.bytes.append(code)
            writer.signature(type)
            write(&writer)
        }
        if let path = header.path { field(1, "o") { $0.string(path) } }
        if let interface = header.interface { field(2, "s") { $0.string(interface) } }
        if let member = header.member { field(3, "s") { $0.string(member) } }
        if let errorName = header.errorName { field(4, "s") { $0.string(errorName) } }
        if let replySerial = header.replySerial { field(5, "u") { $0.uint32(replySerial) } }
        if let destination = header.destination { field(6, "s") { $0.string(destination) } }
        if !signature.isEmpty { field(8, "g") { $0.signature(signature) } }
        let fieldsLength = UInt32(writer.bytes.count - fieldsStart)
        withUnsafeBytes(of: fieldsLength.littleEndian) { for (i, byte) in $0.enumerated() { writer.bytes[12 + i] = byte } }
        writer.pad(to: 8)
        writer.bytes += bodyWriter.bytes
        guard writer.bytes.count <= maximumMessageLength else { throw Failure("message of \(writer.bytes.count) bytes is over the limit") }
        return writer.bytes
    }

    private static func typeCode(of value: BusValue) throws(Failure) -> String {
        switch value {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        default: throw Failure("cannot send \(value): only basic values are written")
        }
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func pad(to alignment: Int) {
            while bytes.count % alignment != 0 { bytes.append(0) }
        }

        mutating func integer<T: FixedWidthInteger>(_ value: T) {
            pad(to: MemoryLayout<T>.size)
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }

        mutating func uint32(_ value: UInt32) { integer(value) }

        mutating func string(_ value: String) {
            uint32(UInt32(value.utf8.count))
            bytes += value.utf8
            bytes.append(0)
        }

        mutating func signature(_ value: String) {
            bytes.append(UInt8(value.utf8.count))
            bytes += value.utf8
            bytes.append(0)
        }

        mutating func basic(_ value: BusValue) throws(Failure) {
            switch value {
            case .byte(let v): bytes.append(v)
            case .bool(let v): uint32(v ? 1 : 0)
            case .int16(let v): integer(v)
            case .uint16(let v): integer(v)
            case .int32(let v): integer(v)
            case .uint32(let v): integer(v)
            case .int64(let v): integer(v)
            case .uint64(let v): integer(v)
            case .double(let v): integer(v.bitPattern)
            case .string(let s), .objectPath(let s):
                guard !s.utf8.contains(0) else { throw Failure("cannot send a string with a NUL byte") }
                string(s)
            case .signature(let s):
                guard s.utf8.count <= 255 else { throw Failure("cannot send a signature over 255 bytes") }
                signature(s)
            default: throw Failure("cannot send \(value): only basic values are written")
            }
        }
    }

    // MARK: Reading

    /// The length of the message at the start of `bytes`, once its fixed header (16 bytes)
    /// is there; nil before.
    /// - Throws: when the fixed header is not one of a D-Bus message (the stream is lost).
    static func messageLength(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Int? {
        guard bytes.count >= 16 else { return nil }
        let s = bytes.startIndex
        let big: Bool
        switch bytes[s] {
        case UInt8(ascii: "l"): big = false
        case UInt8(ascii: "B"): big = true
        default: throw Failure("byte 0 of a message is \(bytes[s]), not an endianness mark ('l' or 'B')")
        }
        guard bytes[s + 3] == 1 else { throw Failure("message of protocol version \(bytes[s + 3]), not 1") }
        func word(_ at: Int) -> Int {
            let b = (0..<4).map { UInt32(bytes[s + at + $0]) }
            return Int(big ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0])
        }
        let bodyLength = word(4)
        let fieldsLength = word(12)
        let total = 16 + (fieldsLength + 7) / 8 * 8 + bodyLength
        guard total <= maximumMessageLength else { throw Failure("message of \(total) bytes is over the limit") }
        return total
    }

    /// Decodes one whole message (``messageLength(_:)`` bytes).
    static func decode(_ bytes: [UInt8]) throws(Failure) -> (header: Header, body: [BusValue]) {
        guard let length = try messageLength(bytes[...]), length == bytes.count else {
            throw Failure("\(bytes.count) bytes are not one whole message")
        }
        var reader = Reader(bytes: bytes, bigEndian: bytes[0] == UInt8(ascii: "B"))
        reader.offset = 1
        let rawType = try reader.byte()
        let flags = try reader.byte()
        reader.offset = 8
        let serial = try reader.uint32()
        guard serial != 0 else { throw Failure("message with serial 0") }
        let fields = try reader.values(signature: Array("a(yv)".utf8))
        var header = Header(type: .signal, flags: flags, serial: serial)
        guard let type = MessageType(rawValue: rawType) else {
            // Unknown types are to be ignored (the specification): the caller skips it.
            throw Failure("message of unknown type \(rawType)")
        }
        header.type = type
        for field in fields.first?.elements ?? [] {
            guard case .structure(let parts) = field, parts.count == 2, case .byte(let code) = parts[0], case .variant(let value) = parts[1]
            else { throw Failure("header field of message \(serial) is not (yv)") }
            switch (code, value) {
            case (1, .objectPath(let s)): header.path = s
            case (2, .string(let s)): header.interface = s
            case (3, .string(let s)): header.member = s
            case (4, .string(let s)): header.errorName = s
            case (5, .uint32(let u)): header.replySerial = u
            case (6, .string(let s)): header.destination = s
            case (7, .string(let s)): header.sender = s
            case (8, .signature(let s)): header.signature = s
            case (1...9, _): throw Failure("header field \(code) of message \(serial) has the wrong type (\(value))")
            default: break  // unknown fields are ignored
            }
        }
        switch type {
        case .methodCall: guard header.path != nil, header.member != nil else { throw Failure("method call \(serial) without path or member") }
        case .signal:
            guard header.path != nil, header.interface != nil, header.member != nil else {
                throw Failure("signal \(serial) without path, interface or member")
            }
        case .methodReturn: guard header.replySerial != nil else { throw Failure("method return \(serial) without reply serial") }
        case .error: guard header.replySerial != nil, header.errorName != nil else { throw Failure("error \(serial) without reply serial or name") }
        }
        reader.align(8)
        let body = try reader.values(signature: Array(header.signature.utf8))
        guard reader.offset == bytes.count else {
            throw Failure("message \(serial): body of signature '\(header.signature)' ends at byte \(reader.offset) of \(bytes.count)")
        }
        return (header, body)
    }

    /// Reads values at offsets from the start of the message (alignment is relative to it).
    private struct Reader {
        let bytes: [UInt8]
        let bigEndian: Bool
        var offset = 0
        var depth = 0

        init(bytes: [UInt8], bigEndian: Bool) {
            self.bytes = bytes
            self.bigEndian = bigEndian
        }

        mutating func align(_ alignment: Int) {
            offset = (offset + alignment - 1) / alignment * alignment
        }

        mutating func take(_ count: Int) throws(Failure) -> ArraySlice<UInt8> {
            guard count >= 0, offset + count <= bytes.count else {
                throw Failure("value of \(count) bytes at byte \(offset) runs past the end (\(bytes.count) bytes)")
            }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func byte() throws(Failure) -> UInt8 { try take(1).first! }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(Failure) -> T {
            align(MemoryLayout<T>.size)
            let raw = try take(MemoryLayout<T>.size)
            var value: T = 0
            for byte in bigEndian ? Array(raw) : raw.reversed() { value = value << 8 | T(truncatingIfNeeded: byte) }
            return value
        }

        mutating func uint32() throws(Failure) -> UInt32 { try integer(UInt32.self) }

        mutating func text(length: Int) throws(Failure) -> String {
            let raw = try take(length)
            guard try byte() == 0 else { throw Failure("string at byte \(offset - length - 1) is not NUL-terminated") }
            guard !raw.contains(0), let s = String(validating: raw, as: UTF8.self) else {
                throw Failure("string at byte \(offset - length - 1) is not valid UTF-8 without NUL")
            }
            return s
        }

        /// The values of a whole signature, one after the other.
        mutating func values(signature: [UInt8]) throws(Failure) -> [BusValue] {
            var values: [BusValue] = []
            var i = 0
            while i < signature.count { values.append(try value(signature, &i)) }
            return values
        }

        /// One value of the single complete type at `signature[i]`; `i` moves past it.
        mutating func value(_ signature: [UInt8], _ i: inout Int) throws(Failure) -> BusValue {
            guard i < signature.count else { throw Failure("signature '\(String(decoding: signature, as: UTF8.self))' ends inside a type") }
            let code = signature[i]
            i += 1
            switch code {
            case UInt8(ascii: "y"): return .byte(try byte())
            case UInt8(ascii: "b"):
                let v = try uint32()
                guard v <= 1 else { throw Failure("boolean at byte \(offset - 4) is \(v)") }
                return .bool(v == 1)
            case UInt8(ascii: "n"): return .int16(try integer(Int16.self))
            case UInt8(ascii: "q"): return .uint16(try integer(UInt16.self))
            case UInt8(ascii: "i"): return .int32(try integer(Int32.self))
            case UInt8(ascii: "u"): return .uint32(try integer(UInt32.self))
            case UInt8(ascii: "h"):
                _ = try integer(UInt32.self)
                return .unixFD
            case UInt8(ascii: "x"): return .int64(try integer(Int64.self))
            case UInt8(ascii: "t"): return .uint64(try integer(UInt64.self))
            case UInt8(ascii: "d"): return .double(Double(bitPattern: try integer(UInt64.self)))
            case UInt8(ascii: "s"): return .string(try text(length: Int(try uint32())))
            case UInt8(ascii: "o"): return .objectPath(try text(length: Int(try uint32())))
            case UInt8(ascii: "g"): return .signature(try text(length: Int(try byte())))
            case UInt8(ascii: "v"):
                let inner = Array(try text(length: Int(try byte())).utf8)
                var j = 0
                let value = try nested { (r: inout Reader) throws(Failure) in try r.value(inner, &j) }
                guard j == inner.count else { throw Failure("variant of signature '\(String(decoding: inner, as: UTF8.self))' holds more than one type") }
                return .variant(value)
            case UInt8(ascii: "a"):
                let length = Int(try uint32())
                guard length <= 64 * 1024 * 1024 else { throw Failure("array of \(length) bytes at byte \(offset - 4)") }
                guard i < signature.count else { throw Failure("array without an element type") }
                align(Self.alignment(of: signature[i]))
                let end = offset + length
                guard end <= bytes.count else { throw Failure("array of \(length) bytes at byte \(offset) runs past the end") }
                let elementStart = i
                var elements: [BusValue] = []
                try nested { (r: inout Reader) throws(Failure) in
                    while r.offset < end {
                        var j = elementStart
                        elements.append(try r.value(signature, &j))
                        i = j
                    }
                }
                if elements.isEmpty { i = try Self.skip(signature, from: elementStart) }
                guard offset == end else { throw Failure("array elements end at byte \(offset), not at its end \(end)") }
                return .array(elements)
            case UInt8(ascii: "("):
                align(8)
                var fields: [BusValue] = []
                try nested { (r: inout Reader) throws(Failure) in
                    while i < signature.count, signature[i] != UInt8(ascii: ")") { fields.append(try r.value(signature, &i)) }
                }
                guard i < signature.count, !fields.isEmpty else { throw Failure("struct without fields or closing ')'") }
                i += 1
                return .structure(fields)
            case UInt8(ascii: "{"):
                align(8)
                var pair: [BusValue] = []
                try nested { (r: inout Reader) throws(Failure) in
                    while i < signature.count, signature[i] != UInt8(ascii: "}") { pair.append(try r.value(signature, &i)) }
                }
                guard i < signature.count, pair.count == 2 else { throw Failure("dict entry without two values or closing '}'") }
                i += 1
                return .dictEntry(pair[0], pair[1])
            default:
                throw Failure("unknown type code '\(Unicode.Scalar(code))' in signature '\(String(decoding: signature, as: UTF8.self))'")
            }
        }

        private mutating func nested<T>(_ body: (inout Reader) throws(Failure) -> T) throws(Failure) -> T {
            depth += 1
            defer { depth -= 1 }
            guard depth <= DBusWire.maximumDepth else { throw Failure("containers nested deeper than \(DBusWire.maximumDepth)") }
            return try body(&self)
        }

        static func alignment(of code: UInt8) -> Int {
            switch code {
            case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
            case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "a"): 4
            case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
            default: 1
            }
        }

        /// The index just past the single complete type at `signature[i]` (an empty array's
        /// element type, read no value of).
        static func skip(_ signature: [UInt8], from i: Int) throws(Failure) -> Int {
            var j = i
            var open = 0
            repeat {
                guard j < signature.count else { throw Failure("signature '\(String(decoding: signature, as: UTF8.self))' ends inside a type") }
                switch signature[j] {
                case UInt8(ascii: "("), UInt8(ascii: "{"): open += 1
                case UInt8(ascii: ")"), UInt8(ascii: "}"): open -= 1
                default: break
                }
                j += 1
            } while open > 0 || signature[j - 1] == UInt8(ascii: "a")
            return j
        }
    }

    // MARK: Addresses

    /// Where a bus listens: a Unix socket path, or a name in the abstract namespace.
    enum SocketAddress: Equatable {
        case path(String)
        case abstract(String)
    }

    /// The Unix socket addresses of a D-Bus address list (`unix:path=/run/dbus/system_bus_socket`,
    /// `unix:abstract=…`, `;`-separated, values %-escaped), in order; other transports are
    /// skipped.
    /// - Throws: when none is a Unix socket address, or one is malformed.
    static func socketAddresses(_ address: String) throws(Failure) -> [SocketAddress] {
        var result: [SocketAddress] = []
        for entry in address.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":") else { throw Failure("D-Bus address '\(entry)' has no transport (unix:…)") }
            guard entry[..<colon] == "unix" else { continue }
            var path: String?
            var abstract: String?
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { throw Failure("D-Bus address '\(entry)': '\(pair)' is not key=value") }
                let value = try unescape(pair[pair.index(after: equals)...], in: entry)
                switch pair[..<equals] {
                case "path": path = value
                case "abstract": abstract = value
                default: break  // guid=, and keys for listening (tmpdir=, runtime=)
                }
            }
            if let path { result.append(.path(path)) } else if let abstract { result.append(.abstract(abstract)) }
        }
        guard !result.isEmpty else { throw Failure("D-Bus address '\(address)' has no unix:path= or unix:abstract= entry") }
        return result
    }

    private static func unescape(_ value: Substring, in entry: Substring) throws(Failure) -> String {
        var bytes: [UInt8] = []
        var utf8 = value.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else {
                throw Failure("D-Bus address '\(entry)': a '%' not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Authentication

    /// What the client sends first: the NUL byte, `AUTH EXTERNAL` with the user id (as
    /// decimal text, hex-encoded), and `BEGIN` right after it (sd-bus does the same: with
    /// EXTERNAL the answer is known, and a refusal closes the connection anyway).
    static func authentication(uid: UInt32) -> [UInt8] {
        let digits = String(uid).utf8.map { byte -> String in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
        return [0] + Array("AUTH EXTERNAL \(digits)\r\nBEGIN\r\n".utf8)
    }
}

/// A match rule (the D-Bus specification, "Match Rules"), applied to received messages to
/// find whose handler a signal is for: the bus sends a connection everything any of its rules
/// match.
struct BusMatchRule: Equatable {
    var type: DBusWire.MessageType?
    /// A unique name (`:1.5`) is compared; a well-known one is left to the bus, which
    /// delivers only what its current owner sends.
    var sender: String?
    var interface: String?
    var member: String?
    var path: String?
    var pathNamespace: String?
    var destination: String?
    /// argN='…': the Nth argument is this string.
    var arguments: [Int: String] = [:]
    /// argNpath='…': the Nth argument (string or object path) is this path, or one of them
    /// is a `/`-ended prefix of the other.
    var argumentPaths: [Int: String] = [:]
    var argument0Namespace: String?

    init(parsing rule: String) throws(DBusWire.Failure) {
        var chars = Array(rule.unicodeScalars)[...]
        func skipSpaces() { while chars.first == " " { chars.removeFirst() } }
        skipSpaces()
        while !chars.isEmpty {
            guard let equals = chars.firstIndex(of: "=") else { throw DBusWire.Failure("match rule '\(rule)': '\(String(String.UnicodeScalarView(chars)))' has no '='") }
            let key = String(String.UnicodeScalarView(chars[..<equals])).trimmingSpaces
            chars = chars[(equals + 1)...]
            var value = String.UnicodeScalarView()
            var quoted = false
            while let c = chars.first {
                if quoted {
                    chars.removeFirst()
                    if c == "'" { quoted = false } else { value.append(c) }
                } else if c == "'" {
                    chars.removeFirst()
                    quoted = true
                } else if c == "\\", chars.dropFirst().first == "'" {
                    chars.removeFirst(2)
                    value.append("'")
                } else if c == "," {
                    break
                } else {
                    chars.removeFirst()
                    value.append(c)
                }
            }
            guard !quoted else { throw DBusWire.Failure("match rule '\(rule)': the value of \(key) has no closing quote") }
            if chars.first == "," { chars.removeFirst() }
            skipSpaces()
            try set(key, String(value), rule: rule)
        }
    }

    private mutating func set(_ key: String, _ value: String, rule: String) throws(DBusWire.Failure) {
        switch key {
        case "type":
            switch value {
            case "signal": type = .signal
            case "method_call": type = .methodCall
            case "method_return": type = .methodReturn
            case "error": type = .error
            default: throw DBusWire.Failure("match rule '\(rule)': unknown type '\(value)'")
            }
        case "sender": sender = value
        case "interface": interface = value
        case "member": member = value
        case "path": path = value
        case "path_namespace": pathNamespace = value
        case "destination": destination = value
        case "eavesdrop": break
        case "arg0namespace": argument0Namespace = value
        default:
            guard key.hasPrefix("arg") else { throw DBusWire.Failure("match rule '\(rule)': unknown key '\(key)'") }
            var digits = key.dropFirst(3)
            let isPath = digits.hasSuffix("path")
            if isPath { digits = digits.dropLast(4) }
            guard let n = Int(digits), (0...63).contains(n) else { throw DBusWire.Failure("match rule '\(rule)': unknown key '\(key)'") }
            if isPath { argumentPaths[n] = value } else { arguments[n] = value }
        }
    }

    func matches(_ header: DBusWire.Header, _ body: [BusValue]) -> Bool {
        if let type, header.type != type { return false }
        if let sender, sender.hasPrefix(":"), header.sender != sender { return false }
        if let interface, header.interface != interface { return false }
        if let member, header.member != member { return false }
        if let path, header.path != path { return false }
        if let pathNamespace {
            guard let p = header.path, pathNamespace == "/" || p == pathNamespace || p.hasPrefix(pathNamespace + "/") else { return false }
        }
        if let destination, destination.hasPrefix(":"), header.destination != destination { return false }
        for (n, expected) in arguments {
            guard n < body.count, case .string(let s) = body[n], s == expected else { return false }
        }
        for (n, expected) in argumentPaths {
            guard n < body.count, let s = Self.pathText(body[n]) else { return false }
            guard s == expected || (expected.hasSuffix("/") && s.hasPrefix(expected)) || (s.hasSuffix("/") && expected.hasPrefix(s)) else {
                return false
            }
        }
        if let argument0Namespace {
            guard let first = body.first, case .string(let s) = first, s == argument0Namespace || s.hasPrefix(argument0Namespace + ".") else {
                return false
            }
        }
        return true
    }

    private static func pathText(_ value: BusValue) -> String? {
        switch value {
        case .string(let s), .objectPath(let s): s
        default: nil
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
