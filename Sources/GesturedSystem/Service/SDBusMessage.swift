internal import CLinuxInput
internal import Glibc

/// Between sd-bus's messages and ``BusMessage``: a received message is read whole into a
/// ``BusValue`` tree (sd-bus has checked its bytes, its signature and its nesting), and a
/// call's arguments are appended from ``BusValue``s. Used by ``SDBusConnection`` only.
enum SDBusMessage {
    /// Appends a basic argument: strings, object paths, booleans and 32-bit unsigned integers
    /// (what the daemon's calls take). Returns sd-bus's result (`-EINVAL` for other values).
    static func append(_ value: BusValue, to message: OpaquePointer) -> Int32 {
        switch value {
        case .string(let s): return s.withCString { sd_bus_message_append_basic(message, typeCode("s"), $0) }
        case .objectPath(let s): return s.withCString { sd_bus_message_append_basic(message, typeCode("o"), $0) }
        case .bool(let b):
            var v: Int32 = b ? 1 : 0
            return sd_bus_message_append_basic(message, typeCode("b"), &v)
        case .uint32(let u):
            var v = u
            return sd_bus_message_append_basic(message, typeCode("u"), &v)
        default:
            return -EINVAL
        }
    }

    /// A received signal, reply or error reply in Swift.
    static func decode(_ message: OpaquePointer) -> (message: BusMessage, error: BusError?) {
        func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        var decoded = BusMessage(
            sender: text(sd_bus_message_get_sender(message)),
            path: text(sd_bus_message_get_path(message)),
            interface: text(sd_bus_message_get_interface(message)),
            member: text(sd_bus_message_get_member(message)),
            body: []
        )
        if sd_bus_message_is_method_error(message, nil) > 0 {
            let error = sd_bus_message_get_error(message)
            return (
                decoded,
                BusError(name: text(error?.pointee.name) ?? "org.freedesktop.DBus.Error.Failed", message: text(error?.pointee.message) ?? "")
            )
        }
        decoded.body = readValues(message)
        return (decoded, nil)
    }

    /// The values from the read position to the end of the message or of the container
    /// entered; stops at the first that cannot be read.
    private static func readValues(_ message: OpaquePointer) -> [BusValue] {
        var values: [BusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            guard sd_bus_message_peek_type(message, &type, &contents) > 0, let value = readValue(message, type, contents) else { break }
            values.append(value)
        }
        return values
    }

    private static func readValue(_ message: OpaquePointer, _ type: CChar, _ contents: UnsafePointer<CChar>?) -> BusValue? {
        func basic<T: BitwiseCopyable>(_ initial: T) -> T? {
            var value = initial
            let r = withUnsafeMutableBytes(of: &value) { sd_bus_message_read_basic(message, type, $0.baseAddress) }
            return r > 0 ? value : nil
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "v"), UInt8(ascii: "e"):
            guard sd_bus_message_enter_container(message, type, contents) > 0 else { return nil }
            let inner = readValues(message)
            guard sd_bus_message_exit_container(message) > 0 else { return nil }
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "a"): return .array(inner)
            case UInt8(ascii: "r"): return .structure(inner)
            case UInt8(ascii: "v"): return inner.first.map { .variant($0) }
            default: return inner.count == 2 ? .dictEntry(inner[0], inner[1]) : nil
            }
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &pointer) > 0, let pointer else { return nil }
            let s = String(cString: pointer)
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "s"): return .string(s)
            case UInt8(ascii: "o"): return .objectPath(s)
            default: return .signature(s)
            }
        case UInt8(ascii: "b"): return basic(Int32(0)).map { .bool($0 != 0) }
        case UInt8(ascii: "y"): return basic(UInt8(0)).map { .byte($0) }
        case UInt8(ascii: "n"): return basic(Int16(0)).map { .int16($0) }
        case UInt8(ascii: "q"): return basic(UInt16(0)).map { .uint16($0) }
        case UInt8(ascii: "i"): return basic(Int32(0)).map { .int32($0) }
        case UInt8(ascii: "u"): return basic(UInt32(0)).map { .uint32($0) }
        case UInt8(ascii: "x"): return basic(Int64(0)).map { .int64($0) }
        case UInt8(ascii: "t"): return basic(UInt64(0)).map { .uint64($0) }
        case UInt8(ascii: "d"): return basic(Double(0)).map { .double($0) }
        // The descriptor is sd-bus's (closed with the message): not kept.
        case UInt8(ascii: "h"): return basic(Int32(0)).map { _ in .unixFD }
        default: return nil
        }
    }

    private static func typeCode(_ code: Unicode.Scalar) -> CChar { CChar(bitPattern: UInt8(code.value)) }
}
