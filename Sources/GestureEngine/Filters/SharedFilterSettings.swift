/// The filter's settings as a stage holds them: one immutable copy behind a reference.
///
/// Each stage used to hold its own copy of the 45 values (about 400 bytes), so a stage
/// handed to a step as an argument was copied whole with them: the moved contact's step
/// reads four stages, a few hundred instructions of `memcpy` per contact and frame on the
/// guest benchmark's touchpad (DESIGN.md, "Copies the steady frame did not need"). A stage
/// now copies a reference, and reads the values through it as ``settings``, as before.
final class SharedFilterSettings: Sendable {
    let value: TouchFilterSettings

    init(_ value: TouchFilterSettings) {
        self.value = value
    }
}
