internal import Glibc

/// Small file-system helpers for configuration and recordings (the OS door owns every
/// syscall; the config and engine modules parse `String`s).
public enum Files {
    /// Reads a whole text file (UTF-8; invalid bytes are replaced).
    public static func readText(path: String) throws(SystemError) -> String {
        let fd = try systemCall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { _ = close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = try systemCall("read", path: path) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) } }
            if n == 0 { break }
            data += chunk[0..<n]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes (creating or truncating) a text file.
    public static func writeText(_ text: String, path: String, mode: UInt32 = 0o644) throws(SystemError) {
        let fd = try systemCall("create", path: path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode)) }
        defer { _ = close(fd) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = try systemCall("write", path: path) { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) } }
            offset += n
        }
    }

    /// Entries of a directory whose names end with `suffix`, sorted lexically (drop-in
    /// order), as full paths. A missing directory is empty, not an error.
    public static func listDirectory(_ path: String, suffix: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { path + "/" + $0 }
    }

    /// Creates a fresh private directory `<prefix>XXXXXX` (`mkdtemp(3)`).
    public static func makeTemporaryDirectory(prefix: String) -> String? {
        var template = Array((prefix + "XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let result = mkdtemp(buffer.baseAddress!) else { return nil }
            return String(cString: result)
        }
    }

    /// Removes an empty directory, or a directory holding only sockets and files
    /// (demo and test scratch space; not recursive into subdirectories).
    public static func removeDirectory(_ path: String) {
        for entry in listDirectory(path, suffix: "") { _ = unlink(entry) }
        _ = rmdir(path)
    }

    /// True when `path` exists.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates a directory (and its parents) if missing.
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o755) {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            _ = mkdir(current, mode_t(mode))
        }
    }

    /// The process environment, read once in `main` and passed down (STYLE.md B13).
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }

    /// `path` made absolute against the working directory (`getcwd(3)`), lexically: no
    /// symlink is resolved and the file need not exist. An absolute path, or one when the
    /// working directory cannot be read, is returned as it is.
    public static func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2).drop { $0 == "/" } }
        return (directory == "/" ? "" : directory) + "/" + relative
    }

    /// Path of the running executable (`/proc/self/exe`), for finding installed data.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Ends the process with `status` (`exit(3)`), for `main.swift` of the executables.
public func exitProcess(_ status: Int32) -> Never {
    exit(status)
}
