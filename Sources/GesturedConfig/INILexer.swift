/// One `Key=Value` line.
struct INIEntry: Hashable, Sendable {
    var key: String
    var value: String
    var keyLocation: SourceLocation
    var valueLocation: SourceLocation
}

/// One `[Type Name]` section with its entries in file order.
struct INISection: Hashable, Sendable {
    /// The first word of the header ("Gesture").
    var type: String
    /// The rest of the header, trimmed ("double-tap"), or nil.
    var name: String?
    var location: SourceLocation
    /// Location of the name within the header (for errors about the name).
    var nameLocation: SourceLocation
    var entries: [INIEntry] = []
}

/// Line splitting shared by the configuration files' readers (this lexer, `gesturectl`'s
/// actions.conf parser).
public enum ConfigText {
    /// The lines of `contents`, exactly as splitting its Characters at `"\n"` and `"\r\n"`
    /// gives them, found by walking its UTF-8 bytes instead: a `\n` byte always ends one of
    /// those two Characters (grapheme clusters break after every control character, and only
    /// a `\r` joins a `\n`), whose `\r` is then part of the separator. Walking grapheme
    /// clusters was a fifth of the actions fuzz target's time.
    public static func lines(_ contents: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = contents.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "\n") {
                var end = index
                if end != start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") { end = utf8.index(before: end) }
                lines.append(contents[start..<end])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        lines.append(contents[start..<utf8.endIndex])
        return lines
    }
}

/// A systemd-style INI reader: `[Section]` headers, `Key=Value` lines, `#` and `;` comments,
/// blank lines. Whitespace around keys and values is trimmed; a value wrapped in double quotes
/// loses them. There are no line continuations and no inline comments (systemd has none
/// either), so `#` inside a value is literal.
enum INILexer {
    static func lex(file: String, contents: String, diagnostics: inout DiagnosticCollector) -> [INISection] {
        var sections: [INISection] = []
        var lineNumber = 0
        for rawLine in ConfigText.lines(contents) {
            lineNumber += 1
            var line = rawLine
            if line.last == "\r" { line = line.dropLast() }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            let text = line.dropFirst(indent)
            let firstColumn = indent + 1
            guard let first = text.first else { continue }
            if first == "#" || first == ";" { continue }
            let at = SourceLocation(file: file, line: lineNumber, column: firstColumn)
            if first == "[" {
                let trimmed = trimTrailing(text)
                guard trimmed.last == "]" else {
                    if let close = trimmed.firstIndex(of: "]") {
                        let column = firstColumn + trimmed.distance(from: trimmed.startIndex, to: close)
                        diagnostics.error(
                            SourceLocation(file: file, line: lineNumber, column: column),
                            "unexpected text after ']' in a section header",
                            hint: "comments go on their own line"
                        )
                    } else {
                        diagnostics.error(at, "section header is missing its closing ']'")
                    }
                    // Keys below belong to no valid section; swallow them under a dead section
                    // so they do not produce a cascade of misleading errors.
                    sections.append(INISection(type: "", name: nil, location: at, nameLocation: at))
                    continue
                }
                let inner = trimmed.dropFirst().dropLast()
                let leading = inner.prefix { $0 == " " || $0 == "\t" }.count
                let body = inner.dropFirst(leading)
                let type = body.prefix { $0 != " " && $0 != "\t" }
                let rest = body.dropFirst(type.count)
                let nameIndent = rest.prefix { $0 == " " || $0 == "\t" }.count
                let name = trimTrailing(rest.dropFirst(nameIndent))
                let nameColumn = firstColumn + 1 + leading + type.count + nameIndent
                sections.append(
                    INISection(
                        type: String(type),
                        name: name.isEmpty ? nil : String(name),
                        location: at,
                        nameLocation: SourceLocation(file: file, line: lineNumber, column: nameColumn)
                    )
                )
                continue
            }
            guard let equals = text.firstIndex(of: "=") else {
                diagnostics.error(at, "expected 'Key=Value' or a '[Section]' header, found '\(trimTrailing(text))'")
                continue
            }
            let key = trimTrailing(text[..<equals])
            if key.isEmpty {
                diagnostics.error(at, "missing key before '='")
                continue
            }
            let afterEquals = text[text.index(after: equals)...]
            let valueIndent = afterEquals.prefix { $0 == " " || $0 == "\t" }.count
            var value = trimTrailing(afterEquals.dropFirst(valueIndent))
            var valueColumn = firstColumn + text.distance(from: text.startIndex, to: equals) + 1 + valueIndent
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
                valueColumn += 1
            }
            let entry = INIEntry(
                key: String(key),
                value: String(value),
                keyLocation: at,
                valueLocation: SourceLocation(file: file, line: lineNumber, column: valueColumn)
            )
            if sections.isEmpty {
                diagnostics.error(
                    at,
                    "'\(key)=' appears before any section header",
                    hint: "start the file with a section such as [Daemon]"
                )
                continue
            }
            sections[sections.count - 1].entries.append(entry)
        }
        return sections
    }

    private static func trimTrailing(_ s: Substring) -> Substring {
        var s = s
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}
