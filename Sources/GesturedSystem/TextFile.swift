internal import Glibc

/// Reading whole text files (recordings, descriptions) for the pure parsers.
public enum TextFile {
    /// The contents of `path`, decoded as UTF-8 (invalid bytes become U+FFFD).
    ///
    /// - Parameter maximumBytes: refuse files larger than this (default 256 MiB), so that a
    ///   wrong path such as `/dev/zero` cannot exhaust memory.
    /// - Throws: ``SystemError`` naming the path (`Failed to open 'x.evemu': No such file or
    ///   directory`), or `EFBIG`-style ``Errno/noSpace`` when the file is too large.
    public static func read(path: String, maximumBytes: Int = 256 << 20) throws(SystemError) -> String {
        let fd = try systemCall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { _ = close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let result = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            let count: Int
            switch result {
            case .success(let value): count = value
            case .failure(let error): throw SystemError(operation: "read", path: path, errno: error)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maximumBytes {
                throw SystemError(operation: "read (larger than \(maximumBytes) bytes)", path: path, errno: .noSpace)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
