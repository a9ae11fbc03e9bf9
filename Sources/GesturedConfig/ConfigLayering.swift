/// Where gestured's configuration lives (gestured.conf(5), FILES; STYLE.md B11).
public enum ConfigPaths {
    /// Vendor defaults (the packaged copy of `config/gestured.conf`).
    public static let vendor = "/usr/share/gestured/gestured.conf"
    /// The administrator's file.
    public static let main = "/etc/gestured/gestured.conf"
    /// Drop-ins, read in lexical order after the main file.
    public static let dropInDirectory = "/etc/gestured/conf.d"
    /// The shipped device quirks (`config/quirks/*.quirks`), then the administrator's.
    public static let vendorQuirks = "/usr/share/gestured/quirks"
    public static let localQuirks = "/etc/gestured/quirks"
}

/// gestured.conf(5)'s layering, as a list of files: the daemon (`ConfigLoader`) and
/// `gesturectl check-config` read the same files in the same order. Pure: the caller says
/// which files exist and what a drop-in directory holds.
public enum ConfigLayering {
    /// The files to read, in order, and whether the vendor layer must come from the copy
    /// built into the daemon (no vendor file installed).
    /// - Parameters:
    ///   - mainPath: `--config FILE`: only FILE and the `conf.d` drop-ins beside it.
    ///   - exists: whether a file exists.
    ///   - dropIns: the `*.conf` files of a directory, sorted.
    public static func files(
        mainPath: String?,
        exists: (String) -> Bool,
        dropIns: (String) -> [String]
    ) -> (files: [String], builtInVendor: Bool) {
        if let mainPath {
            return ([mainPath] + dropIns(directory(of: mainPath) + "/conf.d"), false)
        }
        var files: [String] = []
        let vendor = exists(ConfigPaths.vendor)
        if vendor { files.append(ConfigPaths.vendor) }
        if exists(ConfigPaths.main) { files.append(ConfigPaths.main) }
        return (files + dropIns(ConfigPaths.dropInDirectory), !vendor)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
