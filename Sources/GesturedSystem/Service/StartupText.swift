internal import Glibc

/// Gives back the pages of the executable's code that start-up ran (DESIGN.md "Start-up
/// code given back"), and keeps the refaults that follow from reading more than they need.
///
/// Parsing the configuration and the quirks, building the recognizers, binding the socket and
/// reaching the bus run code that never runs again, and the kernel maps file pages 64 KiB at a
/// time around each fault: after start-up about 2 MB of the binary's text is resident that
/// the steady state does not use. `MADV_PAGEOUT` over the executable's text mapping reclaims
/// those pages (they are clean file pages: nothing is lost, and no other process maps them);
/// what the daemon runs afterwards faults back in, from the page cache or the file. The
/// binary's data mappings are left alone: their relocated pages are private copies that a
/// discard would lose.
///
/// Then `MADV_RANDOM` on the same ranges (DESIGN.md "Text refaults read one page", rss13).
/// A fault on a page that is not in the page cache (every refault after the page-out) reads
/// ahead around it: the file's read-ahead window, 128 KiB by default, all of it added to the
/// page cache, and fault-around then maps the cached neighbours of the next faults, 64 KiB at a
/// time. So opening a device or the first gestures, which fault a few scattered functions back
/// in, brought back much of the code start-up had just given away. `MADV_RANDOM` (the
/// mapping's `VM_RAND_READ`, `rr` in `/proc/PID/smaps`' VmFlags) turns that read-ahead off for
/// these ranges: a refault reads its own page. Fault-around still maps neighbours that are
/// already cached. The cost: a function that spans pages not yet back takes one fault per
/// page instead of one per window, at a device's first opening and its first gestures.
public enum StartupText {
    /// What ``release()`` did.
    public struct Outcome: Sendable, Equatable {
        /// Bytes of text advised (the executable's `r-xp` mappings).
        public var bytes: Int
        /// `MADV_PAGEOUT`, or `MADV_DONTNEED` where the kernel (before 5.4) lacks it.
        public var advice: String
        /// Whether `MADV_RANDOM` was taken on every range advised (no read-ahead on its
        /// refaults). False only where the kernel refused it; the page-out stands either way.
        public var random: Bool
    }

    /// Advises the kernel to reclaim the executable's text pages, and to read them back one
    /// page a fault.
    /// - Returns: nil when the text mapping was not found (`/proc` not mounted) or the kernel
    ///   refused both the page-out advices.
    @discardableResult
    public static func release() -> Outcome? {
        guard let executable = Files.executablePath(), let maps = try? Files.readText(path: "/proc/self/maps") else { return nil }
        var ranges: [(start: UInt, end: UInt)] = []
        for line in maps.split(separator: "\n") {
            // start-end perms offset dev inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[1] == "r-xp", fields[5].trimmingCharacters == executable else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start else { continue }
            ranges.append((start, end))
        }
        guard !ranges.isEmpty else { return nil }
        var bytes = 0
        var advice = "MADV_PAGEOUT"
        var random = true
        for range in ranges {
            let pointer = UnsafeMutableRawPointer(bitPattern: range.start)
            let length = Int(range.end - range.start)
            if madvise(pointer, length, 21 /* MADV_PAGEOUT */) != 0 {
                guard madvise(pointer, length, MADV_DONTNEED) == 0 else { continue }
                advice = "MADV_DONTNEED"
            }
            bytes += length
            // After the page-out: the advice only sets the mapping's flag, it reads nothing.
            if madvise(pointer, length, MADV_RANDOM) != 0 { random = false }
        }
        return bytes > 0 ? Outcome(bytes: bytes, advice: advice, random: random) : nil
    }
}

extension Substring {
    /// Without leading and trailing spaces (the path column of `/proc/self/maps` is padded).
    fileprivate var trimmingCharacters: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
