/// ArgumentParser's account of a command line it cannot read, worded as this tool's other errors are.
enum UsageProblem {
    /// `message` as one line: a list ArgumentParser writes a value a line (`- arm64`) joined with commas, its other
    /// lines with spaces, its first letter lowered unless the word is an abbreviation (`URL`), its last full stop
    /// dropped.
    static func sentence(_ message: String) -> String {
        var text = ""
        var listed = false
        for line in message.split(whereSeparator: \.isNewline) {
            let trimmed = trimmingBlanks(line)
            guard !trimmed.isEmpty else { continue }
            if trimmed.hasPrefix("- ") {
                text += (listed ? ", " : " ") + trimmed.dropFirst(2)
                listed = true
            } else {
                text += (text.isEmpty ? "" : " ") + trimmed
                listed = false
            }
        }
        if text.hasSuffix(".") { text.removeLast() }
        let head = text.prefix(2)
        if let first = head.first, first.isUppercase, head.count < 2 || !head.last!.isUppercase {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }

    /// `line` without the spaces and tabs around it.
    private static func trimmingBlanks(_ line: Substring) -> Substring {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        guard let first = line.firstIndex(where: { !isBlank($0) }), let last = line.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return line[first...last]
    }
}
