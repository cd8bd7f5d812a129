import PostmortemCore

/// The colours a report printed back on a terminal gets (ANSI escapes): the names symbolication found, their source
/// positions, the crashing thread, frames left unresolved, and names that differ from the one the log gave.
public struct TerminalColors: Hashable, Sendable {
    /// Function names (bold).
    public var function = "\u{1B}[1m"
    /// `file:line` (cyan).
    public var location = "\u{1B}[36m"
    /// The crashing thread's header (bold red).
    public var crashedThread = "\u{1B}[1;31m"
    /// A frame left unresolved (dim).
    public var unresolved = "\u{1B}[2m"
    /// A name that differs from the log's (bold yellow).
    public var differingName = "\u{1B}[1;33m"
    /// Back to plain text.
    public var reset = "\u{1B}[0m"

    /// The colours above.
    public init() {}

    /// `text` with the first `part` of it in `color`.
    func painting(_ part: String, in text: String, with color: String) -> String {
        guard !part.isEmpty, let range = text.range(of: part) else { return text }
        return text[..<range.lowerBound] + color + part + reset + text[range.upperBound...]
    }

    /// A frame's printed lines with each symbol's name and place coloured; a name that differs from the one the log
    /// gave in its own colour.
    func frameLines(_ lines: [String], frame: CrashFrame) -> [String] {
        var lines = lines
        for (position, symbol) in frame.symbols.enumerated() {
            // Lines go with symbols in order when there is one per symbol; otherwise every line is searched.
            let indices = lines.count == frame.symbols.count ? [position] : Array(lines.indices)
            let differs =
                !symbol.isInlined
                && frame.symbolInLog.map { logged in
                    ![symbol.function, symbol.linkageName].contains { $0 == logged || ($0?.hasPrefix(logged) ?? false) }
                } ?? false
            for index in indices {
                if let function = symbol.function {
                    lines[index] = painting(function, in: lines[index], with: differs ? differingName : self.function)
                }
                if let file = symbol.file {
                    let fileName = FilePath.fileName(of: file)
                    let place = lines[index].contains(file) ? file : fileName
                    let withLine = symbol.line > 0 ? place + ":\(symbol.line)" : place
                    let withColumn = symbol.column > 0 ? withLine + ":\(symbol.column)" : withLine
                    let found = [withColumn, withLine, place].first { lines[index].contains($0) } ?? place
                    lines[index] = painting(found, in: lines[index], with: location)
                }
            }
        }
        return lines
    }

    /// A line of the log that no symbolication touched: a crashed thread's header, or an unresolved frame, coloured.
    func untouchedLine(_ text: String, isUnresolvedFrame: Bool) -> String {
        if isUnresolvedFrame { return unresolved + text + reset }
        let lowered = text.lowercased()
        if lowered.hasPrefix("thread "), lowered.contains("crashed") { return crashedThread + text + reset }
        return text
    }
}
