/// A value of a D-Bus message body, decoded into Swift (``SDBusConnection`` reads it out of
/// sd-bus's message; no sd-bus type leaves GesturedSystem).
public indirect enum BusValue: Sendable, Hashable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor (not kept: nothing here takes one).
    case unixFD
    case array([BusValue])
    case structure([BusValue])
    case variant(BusValue)
    case dictEntry(BusValue, BusValue)

    /// The text of a string, object path or signature (through a variant).
    public var text: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let v): v.text
        default: nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .bool(let b): b
        case .variant(let v): v.boolValue
        default: nil
        }
    }

    public var uint32Value: UInt32? {
        switch self {
        case .uint32(let u): u
        case .variant(let v): v.uint32Value
        default: nil
        }
    }

    /// The elements of an array or the fields of a struct (through a variant).
    public var elements: [BusValue]? {
        switch self {
        case .array(let a), .structure(let a): a
        case .variant(let v): v.elements
        default: nil
        }
    }

    /// An `a{sv}` (or any array of string-keyed dict entries) as a dictionary, variants
    /// unwrapped.
    public var dictionary: [String: BusValue]? {
        guard case .array(let entries) = self else { return nil }
        var result: [String: BusValue] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry, let name = key.text else { return nil }
            if case .variant(let inner) = value { result[name] = inner } else { result[name] = value }
        }
        return result
    }
}

/// A D-Bus error reply (`org.freedesktop.DBus.Error.NameHasNoOwner`, …) or a local failure.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}

/// A received signal or method reply.
public struct BusMessage: Sendable, Hashable {
    /// The sender's unique name (":1.42"), or "org.freedesktop.DBus" for the bus itself.
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    public var body: [BusValue]
}

