#if canImport(Glibc)
import Glibc
#endif

/// Files of the checkout a target reads once at start (descriptions, the shipped
/// configuration, fixtures): found from this source file's compile-time path.
enum FuzzFiles {
    /// The checkout: this file is `<root>/Fuzz/Support/FuzzFiles.swift`.
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The contents of `path` (relative to the checkout unless absolute), or nil.
    static func read(_ path: String) -> String? {
        let full = path.hasPrefix("/") ? path : root + "/" + path
        guard let file = fopen(full, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, $0.count, file) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `bytes` to `path`; false when it cannot.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        return bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) } == bytes.count
    }
}
