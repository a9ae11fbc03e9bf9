/// Splits a byte stream into newline-terminated lines, with a bound on line length.
///
/// Feed it whatever `read(2)` returned; it yields every complete line (without the `\n` and
/// without one trailing `\r`, so `socat CRLF` and hand-typed lines work). Empty lines are
/// skipped: a person pressing Enter in socat sends nothing. A line longer than
/// ``maximumLineLength`` bytes yields ``Event/tooLong(length:)`` as soon as the bound is
/// crossed — so a peer cannot make the buffer grow without a newline — and the rest of that
/// line is discarded up to its `\n`.
public struct LineFramer: Sendable {
    /// 64 KiB, the documented maximum (gestured-ipc(7)).
    public static let defaultMaximumLineLength = 65_536

    /// What ``append(_:)`` found.
    public enum Event: Hashable, Sendable {
        /// A complete line, without its terminator.
        case line([UInt8])
        /// A line exceeded the maximum; `length` is the byte count seen when it was detected.
        case tooLong(length: Int)
    }

    /// Maximum bytes of line content, terminator excluded.
    public let maximumLineLength: Int
    private var buffer: [UInt8] = []
    /// True while skipping the remainder of an over-long line.
    private var discarding = false

    public init(maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        precondition(maximumLineLength > 0, "maximumLineLength must be positive")
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes held for an incomplete line.
    public var bufferedByteCount: Int { buffer.count }

    /// Consumes a chunk and returns the events it completed, in stream order.
    ///
    /// The bytes are walked through their contiguous storage when they have one (arrays,
    /// slices, buffers): called from another module this function is not specialized, and
    /// iterating an unspecialized `some Sequence` allocated a coroutine frame on the heap for
    /// most elements (half of the IPC fuzz target's allocations, found with `-trace_malloc`).
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Event] {
        if let events = bytes.withContiguousStorageIfAvailable({ append(buffer: $0) }) { return events }
        return Array(bytes).withUnsafeBufferPointer { append(buffer: $0) }
    }

    private mutating func append(buffer bytes: UnsafeBufferPointer<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else {
                    emitLine(into: &events)
                }
                buffer.removeAll(keepingCapacity: true)
                continue
            }
            if discarding { continue }
            buffer.append(byte)
            // One byte of slack for a `\r` that may turn out to precede the `\n`.
            if buffer.count > maximumLineLength + 1
                || (buffer.count == maximumLineLength + 1 && byte != UInt8(ascii: "\r"))
            {
                events.append(.tooLong(length: buffer.count))
                buffer.removeAll(keepingCapacity: false)
                discarding = true
            }
        }
        return events
    }

    /// Call at end of stream: a final line without `\n` is returned (or nil when none).
    public mutating func finish() -> Event? {
        defer {
            buffer.removeAll()
            discarding = false
        }
        if discarding || buffer.isEmpty { return nil }
        var events: [Event] = []
        emitLine(into: &events)
        return events.first
    }

    private func emitLine(into events: inout [Event]) {
        var line = buffer
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if line.isEmpty { return }
        if line.count > maximumLineLength {
            events.append(.tooLong(length: line.count))
            return
        }
        events.append(.line(line))
    }
}
