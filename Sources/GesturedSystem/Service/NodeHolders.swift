internal import Glibc

/// The processes that have a device node open, found in `/proc/<pid>/fd`: when a grab fails
/// with `EBUSY`, one of them holds it (the kernel does not say which), and naming them
/// tells the user where to look.
public enum NodeHolders {
    /// One process with the node open.
    public struct Holder: Hashable, Sendable, CustomStringConvertible {
        public var pid: Int32
        /// `/proc/<pid>/comm`, without its newline.
        public var name: String
        public var description: String { "\(name) (pid \(pid))" }
    }

    /// Every other process with `path` open, by pid (processes whose descriptors this one
    /// may not read are missed).
    public static func processes(opening path: String) -> [Holder] {
        let own = getpid()
        var holders: [Holder] = []
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = Int32(name), pid != own else { continue }
            let fdDirectory = "/proc/\(pid)/fd"
            for fd in Files.listDirectory(fdDirectory, suffix: "") where link(fd) == path {
                let comm = (try? Files.readText(path: "/proc/\(pid)/comm")) ?? "?"
                holders.append(Holder(pid: pid, name: comm.hasSuffix("\n") ? String(comm.dropLast()) : comm))
                break
            }
        }
        return holders.sorted { $0.pid < $1.pid }
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
