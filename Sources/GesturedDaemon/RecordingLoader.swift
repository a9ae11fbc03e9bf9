public import GestureEngine
import GesturedSystem

/// A recording ready to play: always with a device description (its own, a given one, or
/// inferred from the data with a warning).
public struct LoadedRecording: Sendable {
    public var device: DeviceDescription
    public var events: [RawEvent]
    /// `file:line: message` warnings (truncation, inferred ranges).
    public var warnings: [String]
}

/// Why a recording could not be loaded: unreadable file, or malformed content with file:line.
public struct RecordingLoadError: Error, CustomStringConvertible {
    public var description: String
    /// The file (recording or description) could not be read at all: exit 66, not 65.
    public var unreadable = false
}

/// Reads a recording file (through the OS door) and parses it (pure engine code).
public enum RecordingLoader {
    public static func load(path: String, descriptionPath: String?) throws(RecordingLoadError) -> LoadedRecording {
        let text: String
        do {
            text = try Files.readText(path: path)
        } catch {
            throw RecordingLoadError(description: error.userFacingDescription, unreadable: true)
        }
        var description: DeviceDescription?
        if let descriptionPath {
            do {
                description = try RecordingParser.parseDescription(try Files.readText(path: descriptionPath), fileName: descriptionPath)
            } catch let error as SystemError {
                throw RecordingLoadError(description: error.userFacingDescription, unreadable: true)
            } catch {
                throw RecordingLoadError(description: "\(error)")
            }
        }
        return try parse(text: text, name: path, description: description)
    }

    public static func parse(text: String, name: String, description: DeviceDescription?) throws(RecordingLoadError) -> LoadedRecording {
        do {
            let recording = try RecordingParser.parse(text, fileName: name, description: description)
            guard let device = recording.device else {
                throw RecordingLoadError(description: "\(name): no device description and no events to infer one from")
            }
            return LoadedRecording(device: device, events: recording.events, warnings: recording.warnings.map(\.description))
        } catch let error as RecordingError {
            throw RecordingLoadError(description: error.description)
        } catch {
            throw RecordingLoadError(description: "\(error)")
        }
    }
}
