import CBenchSupport

/// Nanoseconds on `CLOCK_MONOTONIC`.
func monotonicNanoseconds() -> UInt64 { cbs_monotonic_nanoseconds() }

/// Heap allocation calls so far (every thread; see Sources/CBenchSupport).
func allocationCount() -> UInt64 { cbs_allocation_count() }

/// Order statistics of a sample (sorted copy).
struct Summary {
    let sorted: [Double]

    init<S: Sequence>(_ values: S) where S.Element: BinaryInteger {
        sorted = values.map { Double($0) }.sorted()
    }

    init(_ values: [Double]) {
        sorted = values.sorted()
    }

    var count: Int { sorted.count }

    /// Nearest-rank percentile, `p` in 0…100.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
    var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }
}

/// `value` with `places` decimals (no Foundation formatting in this target).
func fixed(_ value: Double, _ places: Int = 1) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
    if places > 0 {
        let fraction = String(Int(scaled - Double(whole) * scale))
        text += "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
    return text
}

/// Left-pads `text` to `width` characters.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

/// Right-pads `text` to `width` characters.
func padRight(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
