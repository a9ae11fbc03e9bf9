import GesturedDaemon
import GesturedSystem
import Glibc

/// `gestured-bench rss`: where a running daemon's resident pages are, from
/// `/proc/PID/smaps` (RSS, PSS and the private pages, USS), one row per file (the binary, each shared library) and per kind of
/// anonymous memory (the heap, thread stacks and malloc arenas, the main stack). Without
/// `--pid` it starts the `gestured` binary idle (`--no-udev`, no devices, no clients) as a
/// child, as the idle part of `gestured-bench daemon` does; the kernel tier's
/// `scripts/vm/rss/run.sh` calls it with `--pid` on a daemon that has 0 and then 2 real
/// evdev devices open.
struct MemoryBenchmark {
    var gesturedPaths: [String]
    var pid: pid_t?
    var label: String
    var settleSeconds: Int

    func run() {
        if let pid {
            guard let breakdown = SmapsBreakdown(pid: pid) else {
                print("rss: cannot read /proc/\(pid)/smaps")
                return
            }
            breakdown.print(label: label)
            return
        }
        for path in gesturedPaths { measureChild(path: path) }
    }

    /// Starts `path --no-udev` with the shipped defaults and prints its breakdown after
    /// `settleSeconds`.
    func measureChild(path: String) {
        guard Files.exists(path) else {
            print("rss: no gestured binary at \(path) (swift build -c release --product gestured, or --gestured PATH)")
            return
        }
        guard let dir = Files.makeTemporaryDirectory(prefix: "/tmp/gestured-bench-rss-") else { return }
        defer { Files.removeDirectory(dir) }
        guard let pid = DaemonBenchmark.startIdleDaemon(path, in: dir, label: "rss") else { return }
        defer { DaemonBenchmark.stop(pid) }
        sleep(UInt32(settleSeconds))
        guard let breakdown = SmapsBreakdown(pid: pid) else {
            print("rss: cannot read /proc/\(pid)/smaps")
            return
        }
        breakdown.print(label: "\(label): \(path) --no-udev, no devices, no clients, \(settleSeconds) s after its socket appeared")
    }
}

/// The resident pages of one process, summed per mapping group from `/proc/PID/smaps`.
struct SmapsBreakdown {
    /// kB fields of one group.
    struct Row {
        var name: String
        var size = 0
        var rss = 0
        var pss = 0
        var sharedClean = 0
        var privateClean = 0
        var privateDirty = 0
        var anonymous = 0
        var mappings = 0

        mutating func add(_ other: Row) {
            size += other.size
            rss += other.rss
            pss += other.pss
            sharedClean += other.sharedClean
            privateClean += other.privateClean
            privateDirty += other.privateDirty
            anonymous += other.anonymous
        }

        var cells: String {
            "\(name) | \(rss) | \(pss) | \(sharedClean) | \(privateClean) | \(privateDirty) | \(anonymous) | \(size)"
        }
    }

    var rows: [Row] = []
    /// Each unnamed (anonymous) mapping with resident pages: start address, size and Rss in kB.
    var anonymousMappings: [(start: String, size: Int, rss: Int)] = []
    var status: [String: Int] = [:]
    var threads = 0

    init?(pid: pid_t) {
        guard let text = try? Files.readText(path: "/proc/\(pid)/smaps"), !text.isEmpty else { return nil }
        let executable = (try? Files.readText(path: "/proc/\(pid)/cmdline"))?.split(separator: "\0").first.map(String.init) ?? ""
        let executableName = executable.split(separator: "/").last.map(String.init) ?? executable
        var order: [String] = []
        var byName: [String: Row] = [:]
        var current: String?
        var currentAnonymous: String?
        var lastAnonymousSize = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), fields.count >= 5, !first.hasSuffix(":") {
                // A mapping header: range perms offset dev inode [path].
                let perms = String(fields[1])
                let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
                let name = Self.group(path: path, perms: perms, executableName: executableName)
                if byName[name] == nil {
                    byName[name] = Row(name: name)
                    order.append(name)
                }
                byName[name]!.mappings += 1
                current = name
                currentAnonymous = path.isEmpty ? String(first.split(separator: "-").first ?? "") : nil
                continue
            }
            // Size comes before Rss in each entry.
            if first == "Size:", currentAnonymous != nil, fields.count >= 2, let value = Int(fields[1]) { lastAnonymousSize = value }
            if first == "Rss:", let start = currentAnonymous, fields.count >= 2, let value = Int(fields[1]), value > 0 {
                anonymousMappings.append((start, lastAnonymousSize, value))
            }
            guard let name = current, first.hasSuffix(":"), fields.count >= 2, let value = Int(fields[1]) else { continue }
            switch first {
            case "Size:": byName[name]!.size += value
            case "Rss:": byName[name]!.rss += value
            case "Pss:": byName[name]!.pss += value
            case "Shared_Clean:": byName[name]!.sharedClean += value
            case "Private_Clean:": byName[name]!.privateClean += value
            case "Private_Dirty:": byName[name]!.privateDirty += value
            case "Anonymous:": byName[name]!.anonymous += value
            default: break
            }
        }
        rows = order.compactMap { byName[$0] }.filter { $0.rss > 0 || $0.size > 0 }
        for field in ["VmRSS", "RssAnon", "RssFile", "RssShmem", "VmHWM", "VmSize"] {
            status[field] = DaemonBenchmark.status(pid: "\(pid)", field: field) ?? 0
        }
        threads = Files.listDirectory("/proc/\(pid)/task", suffix: "").count
    }

    /// The group of one mapping: a file's own name and the kind of its segment (text,
    /// read-only data, relocated and writable data), or the kind of anonymous memory.
    static func group(path: String, perms: String, executableName: String) -> String {
        if path.isEmpty {
            // glibc's per-thread malloc heaps and the threads' stacks are unnamed mappings;
            // a guard page (---p) is counted with them.
            return "anonymous (thread stacks, malloc arenas, mmap'd blocks)"
        }
        if path.hasPrefix("[") { return path }
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let kind: String
        switch perms.prefix(3) {
        case "r-x": kind = "text"
        case "r--": kind = "read-only"
        case "rw-": kind = "data"
        default: kind = "other"
        }
        let owner = base == executableName ? "\(base) (the binary)" : base
        return "\(owner) \(kind)"
    }

    func print(label: String) {
        let rss = status["VmRSS"] ?? 0
        Swift.print("\(label)")
        Swift.print(
            "  VmRSS \(rss) kB = anonymous \(status["RssAnon"] ?? 0) kB + file \(status["RssFile"] ?? 0) kB + shmem \(status["RssShmem"] ?? 0) kB; "
                + "VmHWM \(status["VmHWM"] ?? 0) kB, VmSize \(status["VmSize"] ?? 0) kB, threads \(threads)"
        )
        let header = ["mapping", "Rss", "Pss", "Shared_Clean", "Private_Clean", "Private_Dirty", "Anonymous", "Size"]
        Swift.print("  | " + header.joined(separator: " | ") + " |")
        Swift.print("  |" + String(repeating: " --- |", count: header.count))
        var total = Row(name: "total")
        var small = Row(name: "")
        var smallCount = 0
        for row in rows.sorted(by: { $0.rss > $1.rss }) where row.rss > 0 {
            total.add(row)
            if row.rss < 64 {
                small.add(row)
                smallCount += 1
                continue
            }
            Swift.print("  | \(row.cells) |")
        }
        small.name = "\(smallCount) smaller mappings (under 64 kB each)"
        if smallCount > 0 { Swift.print("  | \(small.cells) |") }
        Swift.print("  | \(total.cells) |")
        Swift.print("  \(summary)")
        let anonymous = anonymousMappings.sorted { $0.rss > $1.rss }.map { "\($0.rss)/\($0.size)" }
        Swift.print("  anonymous mappings, resident/size kB (8 MiB: a thread's stack; 132 kB or 64 MiB: a malloc arena): \(anonymous.joined(separator: " "))")
    }

    /// One line: the RSS, its anonymous and file-backed parts, and the binary's share; then
    /// PSS (each shared page divided among the processes that map it: a library every
    /// systemd process has costs this one little) and USS (the private pages, what ending
    /// the process would give back).
    var summary: String {
        let rss = rows.reduce(0) { $0 + $1.rss }
        let anonymous = rows.reduce(0) { $0 + $1.anonymous }
        let binary = rows.filter { $0.name.contains("(the binary)") }.reduce(0) { $0 + $1.rss }
        let pss = rows.reduce(0) { $0 + $1.pss }
        let uss = rows.reduce(0) { $0 + $1.privateClean + $1.privateDirty }
        return "smaps: RSS \(rss) kB (\(fixed(Double(rss) / 1024, 1)) MiB) = anonymous \(anonymous) kB (heap, stacks, relocated pages) "
            + "+ file-backed \(rss - anonymous) kB; of all that the binary \(binary) kB; "
            + "PSS \(pss) kB, USS (private) \(uss) kB"
    }
}
