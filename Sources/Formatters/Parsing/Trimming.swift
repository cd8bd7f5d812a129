import PostmortemCore

extension String {
    /// The first `count` lines, each cut to its first `maximumLength` bytes (at a character boundary): what format
    /// detection looks at, found without walking the rest of a large text.
    func leadingLines(_ count: Int, maximumLength: Int = 4096) -> [Substring] {
        var lines: [Substring] = []
        var start = utf8.startIndex
        while lines.count < count, start < utf8.endIndex {
            let limit = utf8.index(start, offsetBy: maximumLength, limitedBy: utf8.endIndex) ?? utf8.endIndex
            let newline = firstUTF8Index(of: 0x0A, in: start..<limit)
            let end = newline ?? limit
            lines.append(self[start..<end])
            guard let newline else {
                // A line longer than the limit: skip to its end.
                guard let next = firstUTF8Index(of: 0x0A, in: limit..<utf8.endIndex) else { break }
                start = utf8.index(after: next)
                continue
            }
            start = utf8.index(after: newline)
        }
        return lines
    }
}

extension StringProtocol {
    /// The first occurrence of `pattern` (an ASCII string), compared byte by byte: the standard library's
    /// generic `firstRange(of:)` costs microseconds a call, which adds up over millions of dump lines.
    func firstRange(ofASCII pattern: String) -> Range<Index>? {
        let needle = Array(pattern.utf8)
        guard let first = needle.first else { return nil }
        var index = utf8.startIndex
        while let hit = firstUTF8Index(of: first, in: index..<endIndex) {
            var end = hit
            var matched = 0
            while matched < needle.count, end < utf8.endIndex, utf8[end] == needle[matched] {
                utf8.formIndex(after: &end)
                matched += 1
            }
            if matched == needle.count { return hit..<end }
            index = utf8.index(after: hit)
        }
        return nil
    }
}

extension StringProtocol {
    /// The index of the first `byte` of the UTF-8 in `range`, searched in the string's contiguous bytes where it has
    /// them: the UTF-8 view's own search steps through its indices one by one, slow over a line of megabytes.
    func firstUTF8Index(of byte: UInt8, in range: Range<Index>) -> Index? {
        let lower = utf8.distance(from: utf8.startIndex, to: range.lowerBound)
        let upper = utf8.distance(from: utf8.startIndex, to: range.upperBound)
        let found = utf8.withContiguousStorageIfAvailable { bytes in bytes[lower..<upper].firstIndex(of: byte) }
        guard let found else { return utf8[range].firstIndex(of: byte) }
        return found.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }
}
