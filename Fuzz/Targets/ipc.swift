import GesturedProtocol

/// Fuzz target: the IPC line framer and request decoder on arbitrary bytes split at
/// arbitrary points, as `read(2)` hands them to the daemon.
///
/// Input: one byte seeding the chunk sizes, one choosing the line bound, then the stream.
///
/// Properties beyond "no crash, no sanitizer report":
/// * the framer's events do not depend on where the stream was split;
/// * no line is longer than the bound, and the framer never holds more than bound + 1 bytes;
/// * every line decodes to a request or to a protocol error; a request re-encodes to a
///   line that decodes to the same request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPC(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var seed = UInt64(input.byte()) &* 0x9E37_79B9_7F4A_7C15 | 1
    let bounds = [1, 2, 16, 100, LineFramer.defaultMaximumLineLength]
    let bound = bounds[input.choose(bounds.count)]
    let stream = input.rest()

    var whole = LineFramer(maximumLineLength: bound)
    var expected = whole.append(stream)
    if let last = whole.finish() { expected.append(last) }

    var split = LineFramer(maximumLineLength: bound)
    var events: [LineFramer.Event] = []
    var offset = 0
    while offset < stream.count {
        seed ^= seed << 13
        seed ^= seed >> 7
        seed ^= seed << 17
        let length = min(stream.count - offset, Int(seed % 40))
        events += split.append(stream[offset..<(offset + length)])
        if split.bufferedByteCount > bound + 1 { fuzzFailure("framer holds \(split.bufferedByteCount) bytes, bound \(bound)") }
        offset += length
    }
    if let last = split.finish() { events.append(last) }
    if events != expected { fuzzFailure("framing depends on the split: \(events.count) vs \(expected.count) events") }

    let decoder = MessageDecoder()
    let encoder = MessageEncoder()
    for event in events {
        guard case .line(let line) = event else { continue }
        if line.count > bound { fuzzFailure("a \(line.count)-byte line past the bound \(bound)") }
        do {
            let message = try decoder.decodeRequest(line)
            let encoded = try encoder.encode(message)
            let body = encoded.last == UInt8(ascii: "\n") ? Array(encoded.dropLast()) : encoded
            let again = try decoder.decodeRequest(body)
            if again != message { fuzzFailure("request changed by re-encoding: \(message) → \(again)") }
        } catch {
            _ = error.code
        }
    }
    return 0
}
