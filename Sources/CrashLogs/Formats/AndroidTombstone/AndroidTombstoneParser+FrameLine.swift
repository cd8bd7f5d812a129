import PostmortemCore

extension AndroidTombstoneParser {
    /// Finds `#NN pc HEX  path …` anywhere in the line (logcat puts its own prefix before it), read over the line's
    /// bytes: every line of a tombstone with a `#` in it is asked (all threads' backtraces, in xCrash's reports), and
    /// only the parts a frame keeps become strings. Digits and delimiters are ASCII's.
    static func frame(in line: String) -> FrameLine? {
        let bytes = line.utf8.span
        guard let hash = ByteSearch.firstOffset(of: UInt8(ascii: "#"), in: Substring(line).utf8), line.includes(" pc ")
        else { return nil }
        // The frame number: at least two digits (debuggerd writes `#00`), then a space.
        var cursor = hash + 1
        guard let (index, digits) = LineBytes.decimal(in: bytes, at: &cursor), digits >= 2, cursor < bytes.count,
            bytes[cursor] == UInt8(ascii: " ")
        else { return nil }
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
        guard cursor + 3 <= bytes.count, bytes[cursor] == UInt8(ascii: "p"), bytes[cursor + 1] == UInt8(ascii: "c"),
            bytes[cursor + 2] == UInt8(ascii: " ")
        else { return nil }
        cursor += 3
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
        // The pc: 8 or 16 hex digits, relative to the library's load bias.
        var pc: UInt64 = 0
        let pcStart = cursor
        while cursor < bytes.count, let digit = HexNumber.digit(bytes[cursor]) {
            guard cursor - pcStart < 16 else { return nil }
            pc = pc << 4 | UInt64(digit)
            cursor += 1
        }
        guard cursor - pcStart == 8 || cursor - pcStart == 16 else { return nil }
        // The rest: `path[ (function+offset)][ (BuildId: id)]`, blanks around each part dropped.
        var rest = LineBytes.trimmed(cursor..<bytes.count, in: bytes)
        var frame = FrameLine(index: index, relativePC: pc, path: "", function: nil, functionOffset: nil, buildID: nil)
        if endsInParenthesis(rest, in: bytes),
            let build = LineBytes.lastOffset(of: "(BuildId: ", in: bytes, within: rest)
        {
            frame.buildID = LineBytes.text(build + "(BuildId: ".utf8.count..<rest.upperBound - 1, of: line)
            rest = LineBytes.trimmed(rest.lowerBound..<build, in: bytes)
        }
        if endsInParenthesis(rest, in: bytes), let open = LineBytes.lastOffset(of: " (", in: bytes, within: rest) {
            let inside = open + 2..<rest.upperBound - 1
            if let plus = LineBytes.lastOffset(of: "+", in: bytes, within: inside),
                let offset = UInt64(Substring(LineBytes.text(plus + 1..<inside.upperBound, of: line)))
            {
                frame.function = LineBytes.text(inside.lowerBound..<plus, of: line)
                frame.functionOffset = offset
                rest = LineBytes.trimmed(rest.lowerBound..<open, in: bytes)
            }
        }
        guard !rest.isEmpty else { return nil }
        frame.path = LineBytes.text(rest, of: line)
        return frame
    }

    private static func endsInParenthesis(_ range: Range<Int>, in bytes: Span<UInt8>) -> Bool {
        !range.isEmpty && bytes[range.upperBound - 1] == UInt8(ascii: ")")
    }
}
