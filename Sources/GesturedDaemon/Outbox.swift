/// A client's bounded queue of encoded lines (STYLE.md B8: limits live per client).
///
/// Below `softLimit` queued lines every line is kept. At or above it, a `changed` event for a
/// gesture whose previous `changed` is still queued (and not yet partly written) replaces that
/// one in place: a slow client sees fewer intermediate updates but every `began`, `ended` and
/// `cancelled`. When `hardLimit` lines are queued the outbox refuses further lines; the server
/// then sends an `overflow` message and disconnects the client.
public struct Outbox: Sendable {
    public enum EnqueueResult: Equatable, Sendable {
        case queued
        case coalesced
        case overflow
    }

    struct Entry: Sendable {
        /// The line, shared with every other client that queued it (fan-out by reference).
        var line: EncodedLine
        /// Set for coalescible `changed` events: the gesture attempt.
        var coalesceKey: CoalesceKey?
    }

    public let softLimit: Int
    public let hardLimit: Int
    private var entries: [Entry] = []
    private var head = 0
    /// Bytes of `entries[head]` already written.
    private var writtenOfHead = 0
    /// Index of the queued coalescible entry for a gesture id.
    private var pendingChanged: [CoalesceKey: Int] = [:]

    public init(softLimit: Int = 256, hardLimit: Int = 1024) {
        precondition(softLimit > 0 && hardLimit >= softLimit, "outbox limits must satisfy 0 < soft <= hard")
        self.softLimit = softLimit
        self.hardLimit = hardLimit
    }

    /// Lines waiting (including a partly written one).
    public var count: Int { entries.count - head }
    public var isEmpty: Bool { count == 0 }

    /// Queues one encoded line of its own (replies: copied into a buffer of their own).
    /// - Parameter coalesceKey: the gesture attempt for a `changed` event, nil for anything else.
    public mutating func enqueue(_ bytes: [UInt8], coalesceKey: CoalesceKey? = nil) -> EnqueueResult {
        enqueue(EncodedLine(bytes), coalesceKey: coalesceKey)
    }

    /// Queues one line of a published batch, by reference.
    public mutating func enqueue(_ line: EncodedLine, coalesceKey: CoalesceKey? = nil) -> EnqueueResult {
        if let key = coalesceKey, count >= softLimit, let index = pendingChanged[key], index >= head,
            !(index == head && writtenOfHead > 0)
        {
            entries[index].line = line
            return .coalesced
        }
        if count >= hardLimit { return .overflow }
        entries.append(Entry(line: line, coalesceKey: coalesceKey))
        if let key = coalesceKey {
            pendingChanged[key] = entries.count - 1
        }
        return .queued
    }

    /// Drops every queued line that has not started to be written (a partly written line is
    /// kept so the stream stays well-formed). Used when a client overflows.
    /// - Returns: the number of lines dropped.
    @discardableResult
    public mutating func discardPending() -> Int {
        let keep = head < entries.count && writtenOfHead > 0 ? head + 1 : head
        let dropped = entries.count - keep
        entries.removeSubrange(keep...)
        pendingChanged = pendingChanged.filter { $0.value < keep }
        return dropped
    }

    /// Queues a line ignoring the limits (the final `overflow`/`shutdown` message).
    public mutating func enqueueFinal(_ bytes: [UInt8]) {
        entries.append(Entry(line: EncodedLine(bytes), coalesceKey: nil))
    }

    /// The unwritten bytes of the head line, or nil when empty.
    public var pendingBytes: ArraySlice<UInt8>? {
        guard head < entries.count else { return nil }
        return entries[head].line.bytes.dropFirst(writtenOfHead)
    }

    /// The unwritten bytes of as many whole queued lines as fit in `maxBytes` (at least the
    /// rest of the head line), for one `write(2)` instead of one per line.
    public func gatherPending(maxBytes: Int = 65536) -> [UInt8] {
        var chunk: [UInt8] = []
        gatherPending(into: &chunk, maxBytes: maxBytes)
        return chunk
    }

    /// ``gatherPending(maxBytes:)`` into a buffer the caller reuses (emptied first).
    public func gatherPending(into chunk: inout [UInt8], maxBytes: Int = 65536) {
        chunk.removeAll(keepingCapacity: true)
        guard head < entries.count else { return }
        chunk += entries[head].line.bytes.dropFirst(writtenOfHead)
        var index = head + 1
        while index < entries.count, chunk.count + entries[index].line.count <= maxBytes {
            chunk += entries[index].line.bytes
            index += 1
        }
    }

    /// Records that `n` bytes from the head were written (possibly spanning several lines).
    public mutating func consume(_ n: Int) {
        var remaining = n
        while remaining > 0, head < entries.count {
            let left = entries[head].line.count - writtenOfHead
            if remaining < left {
                writtenOfHead += remaining
                return
            }
            remaining -= left
            if let key = entries[head].coalesceKey, pendingChanged[key] == head {
                pendingChanged[key] = nil
            }
            // A written line no longer holds its batch: the hub may refill it at once,
            // instead of after the next compaction (``BatchPool``).
            entries[head].line = .written
            head += 1
            writtenOfHead = 0
        }
        compactIfNeeded()
    }

    private mutating func compactIfNeeded() {
        guard head > 64, head * 2 > entries.count else { return }
        entries.removeFirst(head)
        // Every written line's key was dropped in consume, so each index left is >= head:
        // shift them in place (no new dictionary per compaction).
        var index = pendingChanged.values.startIndex
        while index != pendingChanged.values.endIndex {
            pendingChanged.values[index] -= head
            pendingChanged.values.formIndex(after: &index)
        }
        head = 0
    }
}

/// One line of an ``EncodedBatch``, held by reference: queuing it for a client copies no byte.
public struct EncodedLine: Sendable {
    let batch: EncodedBatch
    let range: Range<Int>

    public init(_ batch: EncodedBatch, _ range: Range<Int>) {
        self.batch = batch
        self.range = range
    }

    /// A line in a buffer of its own (replies, notices).
    public init(_ bytes: [UInt8]) {
        let batch = EncodedBatch(raw: bytes)
        self.init(batch, 0..<bytes.count)
    }

    /// What a written entry of an outbox keeps in place of its line: no batch of the hub's.
    static let written = EncodedLine(EncodedBatch(), 0..<0)

    public var bytes: ArraySlice<UInt8> { batch.bytes[range] }
    public var count: Int { range.count }
}
