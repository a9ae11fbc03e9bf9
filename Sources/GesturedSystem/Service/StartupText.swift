internal import Glibc

/// Gives back the pages of the executable's code that start-up ran (DESIGN.md "Start-up
/// code given back").
///
/// Parsing the configuration and the quirks, building the recognizers, binding the socket and
/// reaching the bus run code that never runs again, and the kernel maps file pages 64 KiB at a
/// time around each fault: after start-up about 2 MB of the binary's text is resident that
/// the steady state does not use. `MADV_PAGEOUT` over the executable's text mapping reclaims
/// those pages (they are clean file pages: nothing is lost, and no other process maps them);
/// what the daemon runs afterwards faults back in, from the page cache or the file. The
/// binary's data mappings are left alone: their relocated pages are private copies that a
/// discard would lose.
public enum StartupText {
    /// What ``release()`` did.
    public struct Outcome: Sendable, Equatable {
        /// Bytes of text advised (the executable's `r-xp` mappings).
        public var bytes: Int
        /// `MADV_PAGEOUT`, or `MADV_DONTNEED` where the kernel (before 5.4) lacks it.
        public var advice: String
    }

    /// Advises the kernel to reclaim the executable's text pages.
    /// - Returns: nil when the text mapping was not found (`/proc` not mounted) or the kernel
    ///   refused both advices.
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
        for range in ranges {
            let pointer = UnsafeMutableRawPointer(bitPattern: range.start)
            let length = Int(range.end - range.start)
            if madvise(pointer, length, 21 /* MADV_PAGEOUT */) != 0 {
                guard madvise(pointer, length, MADV_DONTNEED) == 0 else { continue }
                advice = "MADV_DONTNEED"
            }
            bytes += length
        }
        return bytes > 0 ? Outcome(bytes: bytes, advice: advice) : nil
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
