/// Reads a fuzzer's input as a sequence of small decisions (which device, which event, how
/// far to split) and, once the decisions run out, as zeros: every input is a valid program,
/// so libFuzzer's mutations explore behaviour instead of the reader's error paths.
struct FuzzInput {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        self.init(Array(UnsafeBufferPointer(start: data, count: size)))
    }

    var isAtEnd: Bool { position >= bytes.count }
    var remaining: Int { max(0, bytes.count - position) }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    mutating func int32() -> Int32 {
        Int32(bitPattern: UInt32(uint16()) | UInt32(uint16()) << 16)
    }

    /// A number in `0..<count` (0 when `count` is 0).
    mutating func choose(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        return Int(byte()) % count
    }

    /// The rest of the input.
    mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }
}

/// Stops the fuzzer with a message naming the broken property; libFuzzer saves the input.
func fuzzFailure(_ message: String) -> Never {
    fatalError("fuzz property broken: \(message)")
}
