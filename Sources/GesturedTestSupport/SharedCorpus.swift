public import Foundation
public import Testing

/// The third-party corpus (`../shared/corpus`), found through `GESTURED_CORPUS_DIR` or by
/// walking up from the package; `nil` when absent, and tests that need it then skip with a
/// visible reason (`.enabled(if: SharedCorpus.isPresent, SharedCorpus.absentReason)`).
/// Recordings are read from there at test time and never copied into the repository.
public enum SharedCorpus {
    public static let absentReason: Comment = "the corpus (../shared/corpus or GESTURED_CORPUS_DIR) is absent"

    public static let directory: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["GESTURED_CORPUS_DIR"], !path.isEmpty {
            return fileManager.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/corpus")
            if fileManager.fileExists(atPath: candidate.appendingPathComponent("real").path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    public static var isPresent: Bool { directory != nil }

    /// Every regular file under `subdirectory`, sorted, except `.md` notes.
    public static func files(under subdirectory: String) -> [URL] {
        guard let root = directory?.appendingPathComponent(subdirectory),
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var result: [URL] = []
        for case let url as URL in enumerator {
            let isFile = (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
            if isFile && url.pathExtension != "md" { result.append(url) }
        }
        return result.sorted { $0.path < $1.path }
    }

    public static func text(of url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    /// The path below the corpus root (`real/evemu-devices/…`).
    public static func relative(_ url: URL) -> String {
        guard let root = directory?.path else { return url.path }
        return String(url.path.dropFirst(root.count + 1))
    }
}

/// The repository's root directory (for fixtures and shipped files), from this file's path.
public let packageRootDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
