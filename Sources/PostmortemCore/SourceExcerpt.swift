/// Lines of source around a frame's line, as read from the file its debug information names: what
/// `--source-context N` prints under a frame, and what `--json` gives as `preContext`, `contextLine` and `postContext`.
public struct SourceExcerpt: Hashable, Sendable {
    /// The number of the first line of ``lines`` (from 1).
    public var firstLine: Int
    /// The lines, without their line endings, from ``firstLine`` on; the frame's own line among them.
    public var lines: [String]
    /// The frame's line and column (0 when the debug information gives none).
    public var line: Int
    /// The frame's column (0 when the debug information gives none).
    public var column: Int

    /// An excerpt of `lines` from `firstLine`, around the frame's `line` and `column`.
    public init(firstLine: Int, lines: [String], line: Int, column: Int) {
        self.firstLine = firstLine
        self.lines = lines
        self.line = line
        self.column = column
    }

    /// The lines before the frame's.
    public var preContext: [String] { Array(lines.prefix(max(0, line - firstLine))) }
    /// The frame's own line.
    public var contextLine: String? {
        line - firstLine >= 0 && line - firstLine < lines.count ? lines[line - firstLine] : nil
    }
    /// The lines after it.
    public var postContext: [String] {
        line - firstLine + 1 < lines.count ? Array(lines[(line - firstLine + 1)...]) : []
    }

    /// As printed under a frame: each line numbered, the frame's marked with `→` and followed by a caret under its
    /// column (tabs before the column kept, so the caret lines up however tabs are shown).
    ///
    ///         20 │     int *slot = &readings[index];
    ///     →   21 │     return *slot * 2;
    ///            │             ^
    public func renderedLines(indentation: String = "    ") -> [String] {
        let width = String(firstLine + lines.count - 1).count
        var rendered: [String] = []
        for (offset, text) in lines.enumerated() {
            let number = String(firstLine + offset)
            let isFrameLine = firstLine + offset == line
            let marker = isFrameLine ? "→ " : "  "
            rendered.append(
                indentation + marker + String(repeating: " ", count: width - number.count) + number + " │ " + text)
            if isFrameLine, column > 0 {
                let lead = text.prefix(column - 1).map { $0 == "\t" ? "\t" : " " }.joined()
                rendered.append(indentation + "  " + String(repeating: " ", count: width) + " │ " + lead + "^")
            }
        }
        return rendered
    }
}
