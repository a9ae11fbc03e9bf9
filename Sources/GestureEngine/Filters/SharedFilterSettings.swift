/// The filter's settings as a stage holds them: one immutable copy behind a reference.
///
/// Each stage used to hold its own copy of the 45 values (about 400 bytes), so a stage
/// handed to a step as an argument was copied whole with them: the moved contact's step
/// reads four stages, a few hundred instructions of `memcpy` per contact and frame on the
/// guest benchmark's touchpad (DESIGN.md, "Copies the steady frame did not need"). A stage
/// now copies a reference, and reads the values through it as ``FilterSettingsHolder/settings``.
final class SharedFilterSettings: Sendable {
    let value: TouchFilterSettings

    init(_ value: TouchFilterSettings) {
        self.value = value
    }
}

/// A filter stage (or the bands two stages share) that holds the settings behind a
/// ``SharedFilterSettings``, and reads them as ``settings``.
protocol FilterSettingsHolder {
    var sharedSettings: SharedFilterSettings { get }
}

extension FilterSettingsHolder {
    /// The filter's settings, read through the shared reference.
    var settings: TouchFilterSettings { sharedSettings.value }
}
