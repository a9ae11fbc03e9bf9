/// `gesturectl VERB --help`: that verb's entry of the usage text, not the whole text.
enum VerbHelp {
    /// Aliases, by the verb the usage text lists them under.
    static let aliases = ["list-devices": "devices", "debug-events": "listen"]

    /// The usage line and the verb's entry (its line and the indented lines under it); nil
    /// for a word that is no verb.
    static func text(for verb: String, in usage: String) -> String? {
        let name = aliases[verb] ?? verb
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(name) ") || $0 == "  \(name)" }) else { return nil }
        var entry = [lines[start]]
        // Continuation lines are indented deeper than a verb (a verb starts at column 2).
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("   ") else { break }
            entry.append(line)
        }
        // The verb and its arguments: the first column of its line ("send-keys COMBO").
        let arguments = String(entry[0].dropFirst(2).prefix(23)).trimmingSpaces()
        return "Usage: gesturectl [--socket PATH] \(arguments) [OPTIONS]\n\n" + entry.joined(separator: "\n")
            + "\n\nExit status: 0 success, 1 failure, 64 usage error, 66 input file missing or unreadable, 69 daemon not reachable,\n78 configuration errors. See gesturectl(1)."
    }
}
