import Testing

@testable import GesturedSystem

/// Builds big-endian D-Bus bytes by hand (the test's own writer, independent of ``DBusWire``'s
/// little-endian one), alignment relative to the start of what it builds.
private struct BigEndianBytes {
    var bytes: [UInt8] = []

    mutating func pad(_ alignment: Int) { while bytes.count % alignment != 0 { bytes.append(0) } }
    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func uint32(_ value: UInt32) {
        pad(4)
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }
    mutating func string(_ s: String) {
        uint32(UInt32(s.utf8.count))
        bytes += s.utf8
        bytes.append(0)
    }
    mutating func signature(_ s: String) {
        bytes.append(UInt8(s.utf8.count))
        bytes += s.utf8
        bytes.append(0)
    }
    /// An array: its length word, then `elements` (aligned to `alignment` first); the length
    /// is patched in.
    mutating func array(alignment: Int, _ elements: (inout BigEndianBytes) -> Void) {
        uint32(0)
        let at = bytes.count - 4
        pad(alignment)
        let start = bytes.count
        elements(&self)
        let length = UInt32(bytes.count - start)
        bytes[at..<at + 4] = [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)][...]
    }
}

/// logind's `PropertiesChanged` of a session as a big-endian peer would send it.
private func propertiesChangedSignal() -> [UInt8] {
    var body = BigEndianBytes()
    body.string("org.freedesktop.login1.Session")
    body.array(alignment: 8) { a in
        a.pad(8)
        a.string("LockedHint")
        a.signature("b")
        a.uint32(1)
        a.pad(8)
        a.string("Seat")
        a.signature("(so)")
        a.pad(8)
        a.string("seat0")
        a.string("/org/freedesktop/login1/seat/seat0")
    }
    body.array(alignment: 4) { a in a.string("Name") }
    var m = BigEndianBytes()
    m.bytes = [UInt8(ascii: "B"), 4, 0, 1]
    m.uint32(UInt32(body.bytes.count))
    m.uint32(7)
    m.array(alignment: 8) { f in
        func field(_ code: UInt8, _ sig: String, _ value: (inout BigEndianBytes) -> Void) {
            f.pad(8)
            f.byte(code)
            f.signature(sig)
            value(&f)
        }
        field(1, "o") { $0.string("/org/freedesktop/login1/session/_32") }
        field(2, "s") { $0.string("org.freedesktop.DBus.Properties") }
        field(3, "s") { $0.string("PropertiesChanged") }
        field(7, "s") { $0.string(":1.5") }
        field(8, "g") { $0.signature("sa{sv}as") }
    }
    m.pad(8)
    return m.bytes + body.bytes
}

@Suite("D-Bus wire format")
struct DBusWireTests {
    @Test("a method call written is read back with its header and arguments")
    func roundTrip() throws {
        let header = DBusWire.Header(
            type: .methodCall, serial: 42, path: "/org/freedesktop/login1", interface: "org.freedesktop.DBus.Properties", member: "GetAll",
            destination: "org.freedesktop.login1")
        let body: [BusValue] = [.string("org.freedesktop.login1.Session"), .objectPath("/a/b"), .bool(true), .uint32(0xdead_beef), .byte(7), .int64(-3)]
        let bytes = try DBusWire.encode(header, body: body)
        #expect(try DBusWire.messageLength(bytes[...]) == bytes.count)
        #expect(try DBusWire.messageLength(bytes[..<15]) == nil)
        let decoded = try DBusWire.decode(bytes)
        var expected = header
        expected.signature = "sobuyx"
        #expect(decoded.header == expected)
        #expect(decoded.body == body)
    }

    @Test("a big-endian signal with a dictionary of variants, a struct and a string array")
    func bigEndianSignal() throws {
        let bytes = propertiesChangedSignal()
        #expect(try DBusWire.messageLength(bytes[...]) == bytes.count)
        let (header, body) = try DBusWire.decode(bytes)
        #expect(header.type == .signal)
        #expect(header.serial == 7)
        #expect(header.sender == ":1.5")
        #expect(header.path == "/org/freedesktop/login1/session/_32")
        #expect(header.member == "PropertiesChanged")
        #expect(body.count == 3)
        #expect(body[0] == .string("org.freedesktop.login1.Session"))
        let changed = try #require(body[1].dictionary)
        #expect(changed["LockedHint"] == .bool(true))
        #expect(changed["Seat"] == .structure([.string("seat0"), .objectPath("/org/freedesktop/login1/seat/seat0")]))
        #expect(body[2] == .array([.string("Name")]))
    }

    @Test("an empty array of structs is read, its element type skipped")
    func emptyArray() throws {
        // ListSeats answering no seats, then a string after the array: a(so)s.
        var body = BigEndianBytes()
        body.array(alignment: 8) { _ in }
        body.string("after")
        var m = BigEndianBytes()
        m.bytes = [UInt8(ascii: "B"), 2, 0, 1]
        m.uint32(UInt32(body.bytes.count))
        m.uint32(3)
        m.array(alignment: 8) { f in
            f.pad(8)
            f.byte(5)
            f.signature("u")
            f.uint32(2)
            f.pad(8)
            f.byte(8)
            f.signature("g")
            f.signature("a(so)s")
        }
        m.pad(8)
        let decoded = try DBusWire.decode(m.bytes + body.bytes)
        #expect(decoded.header.type == .methodReturn)
        #expect(decoded.header.replySerial == 2)
        #expect(decoded.body == [.array([]), .string("after")])
    }

    @Test("malformed messages are refused with what was wrong")
    func malformed() throws {
        let good = try DBusWire.encode(DBusWire.Header(type: .methodCall, serial: 1, path: "/", member: "Ping"), body: [.string("hi")])
        var badEndian = good
        badEndian[0] = UInt8(ascii: "x")
        #expect(throws: DBusWire.Failure.self) { try DBusWire.messageLength(badEndian[...]) }
        var badVersion = good
        badVersion[3] = 2
        #expect(throws: DBusWire.Failure.self) { try DBusWire.messageLength(badVersion[...]) }
        // The string's terminating NUL made something else.
        var unterminated = good
        unterminated[unterminated.count - 1] = UInt8(ascii: "!")
        #expect(throws: DBusWire.Failure.self) { try DBusWire.decode(unterminated) }
        // A string length past the end of the body.
        var long = good
        long[long.count - 7] = 200
        #expect(throws: DBusWire.Failure.self) { try DBusWire.decode(long) }
        // A boolean that is neither 0 nor 1.
        var bool = try DBusWire.encode(DBusWire.Header(type: .methodCall, serial: 1, path: "/", member: "Ping"), body: [.bool(true)])
        bool[bool.count - 4] = 2
        #expect(throws: DBusWire.Failure.self) { try DBusWire.decode(bool) }
        // A method call without a member.
        let noMember = try DBusWire.encode(DBusWire.Header(type: .methodCall, serial: 1, path: "/"), body: [])
        #expect(throws: DBusWire.Failure.self) { try DBusWire.decode(noMember) }
        // Containers are not written.
        #expect(throws: DBusWire.Failure.self) { try DBusWire.encode(DBusWire.Header(type: .methodCall, serial: 1, path: "/", member: "M"), body: [.array([])]) }
    }

    @Test("addresses: unix path and abstract, escapes, other transports skipped")
    func addresses() throws {
        #expect(try DBusWire.socketAddresses("unix:path=/run/dbus/system_bus_socket") == [.path("/run/dbus/system_bus_socket")])
        #expect(try DBusWire.socketAddresses("tcp:host=localhost,port=1;unix:abstract=/tmp/dbus-%41b,guid=12") == [.abstract("/tmp/dbus-Ab")])
        #expect(throws: DBusWire.Failure.self) { try DBusWire.socketAddresses("tcp:host=localhost,port=1") }
        #expect(throws: DBusWire.Failure.self) { try DBusWire.socketAddresses("unix:path=/a%4") }
        #expect(throws: DBusWire.Failure.self) { try DBusWire.socketAddresses("/run/dbus/system_bus_socket") }
    }

    @Test("EXTERNAL authentication sends the user id as hex-encoded decimal, then BEGIN")
    func authentication() {
        #expect(DBusWire.authentication(uid: 1000) == [0] + Array("AUTH EXTERNAL 31303030\r\nBEGIN\r\n".utf8))
        #expect(DBusWire.authentication(uid: 0) == [0] + Array("AUTH EXTERNAL 30\r\nBEGIN\r\n".utf8))
    }

    @Test("match rules: the tracker's rules match their signals and not others")
    func matchRules() throws {
        let owner = try BusMatchRule(
            parsing: "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
                + "member='NameOwnerChanged',arg0='org.freedesktop.login1'")
        var signal = DBusWire.Header(type: .signal, serial: 9, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
        signal.sender = "org.freedesktop.DBus"
        #expect(owner.matches(signal, [.string("org.freedesktop.login1"), .string(""), .string(":1.9")]))
        #expect(!owner.matches(signal, [.string("org.example.Other"), .string(""), .string(":1.9")]))
        var call = signal
        call.type = .methodCall
        #expect(!owner.matches(call, [.string("org.freedesktop.login1")]))

        let properties = try BusMatchRule(
            parsing: "type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                + "path_namespace='/org/freedesktop/login1'")
        let (header, body) = try DBusWire.decode(propertiesChangedSignal())
        #expect(properties.matches(header, body))
        var elsewhere = header
        elsewhere.path = "/org/freedesktop/login10"
        #expect(!properties.matches(elsewhere, body))

        // A unique sender is compared; quoting and an escaped apostrophe.
        let unique = try BusMatchRule(parsing: "sender=':1.7', arg0='it'\\''s'")
        #expect(unique.arguments[0] == "it's")
        #expect(!unique.matches(header, [.string("it's")]))
        var fromSeven = header
        fromSeven.sender = ":1.7"
        #expect(unique.matches(fromSeven, [.string("it's")]))

        let paths = try BusMatchRule(parsing: "arg1path='/org/freedesktop/'")
        #expect(paths.matches(header, [.string("x"), .objectPath("/org/freedesktop/login1")]))
        #expect(!paths.matches(header, [.string("x"), .objectPath("/org/other")]))

        #expect(throws: DBusWire.Failure.self) { try BusMatchRule(parsing: "type='signal',colour='blue'") }
        #expect(throws: DBusWire.Failure.self) { try BusMatchRule(parsing: "type='signal") }
        #expect(throws: DBusWire.Failure.self) { try BusMatchRule(parsing: "type='bogus'") }
    }
}
