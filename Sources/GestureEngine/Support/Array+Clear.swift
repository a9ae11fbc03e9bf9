extension Array {
    /// Empties the array, keeping its storage, at the cost of an `isEmpty` test when it is
    /// already empty: `removeAll(keepingCapacity: true)` always goes through the generic
    /// `replaceSubrange`, about 60 instructions even on an empty array, and the per-frame
    /// lists (a frame's began, ended and cancelled touches, a step's actions) are empty in
    /// most frames (DESIGN.md "Performance principles").
    @inline(__always)
    mutating func clear() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }
}
