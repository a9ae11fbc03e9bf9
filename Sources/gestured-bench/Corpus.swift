import Glibc
import GesturedSystem

/// The shared corpus of third-party recordings: `GESTURED_CORPUS_DIR` (the directory holding
/// `real/`), else `shared/corpus` found by walking up from this source file.
enum Corpus {
    static func directory() -> String? {
        if let path = getenv("GESTURED_CORPUS_DIR").map({ String(cString: $0) }), !path.isEmpty {
            return Files.exists(path + "/real") ? path : nil
        }
        var directory = String(#filePath)
        while let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
            directory = String(directory[..<slash])
            let candidate = directory + "/shared/corpus"
            if Files.exists(candidate + "/real") { return candidate }
        }
        return nil
    }

    /// Regular files below `path`, recursively, sorted by path.
    static func files(under path: String) -> [String] {
        var result: [String] = []
        for entry in Files.listDirectory(path, suffix: "") {
            var info = stat()
            guard stat(entry, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                result += files(under: entry)
            } else if info.st_mode & S_IFMT == S_IFREG {
                result.append(entry)
            }
        }
        return result.sorted()
    }
}
