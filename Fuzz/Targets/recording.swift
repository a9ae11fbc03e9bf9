import GestureEngine

/// Fuzz target: the recording parsers (evemu, `libinput record` YAML, evtest, detected by
/// ``RecordingParser``) and evemu device descriptions, on arbitrary text.
///
/// Properties beyond "no crash, no sanitizer report":
/// * a parsed recording always has a device, and its description survives
///   ``EvemuWriter`` → ``RecordingParser`` with the same axes, properties and codes;
/// * its events survive the same round trip unchanged (what `gesturectl record` writes of a
///   replayed file is that file's events);
/// * every error and warning that names a line names one inside the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    // Counted on the input's bytes: decoding replaces invalid UTF-8 but never a `\n`.
    let lineCount = bytes.count { $0 == UInt8(ascii: "\n") } + 1
    func checkLine(_ line: Int?, _ what: String) {
        guard let line else { return }
        if line < 1 || line > lineCount { fuzzFailure("\(what) names line \(line) of a \(lineCount)-line text") }
    }

    do {
        let recording = try RecordingParser.parse(text, fileName: "fuzz")
        guard let device = recording.device else { fuzzFailure("a parsed recording without a device") }
        for warning in recording.warnings { checkLine(warning.line, "warning '\(warning.message)'") }
        let written = EvemuWriter.recording(device: device, events: recording.events)
        do {
            let again = try RecordingParser.parse(written, fileName: "fuzz-written")
            if again.events != recording.events {
                let index = zip(again.events, recording.events).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(again.events.count, recording.events.count)
                fuzzFailure("events changed by a write and re-read at \(index): \(again.events.count) vs \(recording.events.count)")
            }
            if again.device?.axes != device.axes || again.device?.properties != device.properties {
                fuzzFailure(
                    "the description changed by a write and re-read: \(device.axes.sorted { $0.key < $1.key }) \(device.properties)"
                        + " → \(again.device.map { "\($0.axes.sorted { $0.key < $1.key }) \($0.properties)" } ?? "none")"
                )
            }
        } catch {
            fuzzFailure("EvemuWriter wrote what RecordingParser rejects: \(error)")
        }
    } catch {
        checkLine(error.line, "error '\(error.found)'")
    }

    do {
        let description = try RecordingParser.parseDescription(text, fileName: "fuzz")
        _ = description.kind
        _ = (description.widthMillimeters, description.heightMillimeters, description.slotCount)
    } catch {
        checkLine(error.line, "description error '\(error.found)'")
    }
    return 0
}
