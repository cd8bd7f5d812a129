import PostmortemCore

/// Searching and trimming log text over its UTF-8 bytes: no Foundation, no grapheme walking, no copies.
extension StringProtocol {
    /// The first occurrence of `needle`.
    func range(of needle: String) -> Range<Index>? { firstByteRange(of: needle) }

    /// The first occurrence of `needle`, found over the UTF-8 bytes (the standard library's `firstRange(of:)` walks
    /// characters: too slow for every line of every log).
    package func firstByteRange(of needle: String) -> Range<Index>? {
        let text = Substring(self)
        return byteRange(at: ByteSearch.firstOffset(of: needle.utf8.span, in: text.utf8.span), of: needle)
    }

    /// The last occurrence of `needle`.
    func lastRange(of needle: String) -> Range<Index>? {
        let text = Substring(self)
        return byteRange(at: ByteSearch.lastOffset(of: needle.utf8.span, in: text.utf8.span), of: needle)
    }

    /// True when `needle` occurs in the text.
    package func includes(_ needle: String) -> Bool {
        ByteSearch.firstOffset(of: needle.utf8.span, in: Substring(self).utf8.span) != nil
    }

    /// The range of `needle` found at byte offset `start`.
    fileprivate func byteRange(at start: Int?, of needle: String) -> Range<Index>? {
        guard let start else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        return lower..<utf8.index(lower, offsetBy: needle.utf8.count)
    }

    /// The words of the text between runs of spaces (`split(separator: " ")`, over bytes).
    var spaceSeparatedFields: [Substring] { Array(SpaceSeparatedFields(Substring(self))) }

    /// The fields between each `separator` (an ASCII byte), empty ones kept (`split(separator:
    /// omittingEmptySubsequences: false)`, over bytes: splitting by character walks graphemes, a hundred times the cost
    /// on a machine-readable row).
    func fields(separatedBy separator: UInt8) -> [Substring] {
        let text = Substring(self)
        let utf8 = text.utf8
        var fields: [Substring] = []
        var start = utf8.startIndex
        var cursor = start
        while cursor < utf8.endIndex {
            if utf8[cursor] == separator {
                fields.append(Substring(utf8[start..<cursor]))
                start = utf8.index(after: cursor)
            }
            utf8.formIndex(after: &cursor)
        }
        fields.append(Substring(utf8[start..<utf8.endIndex]))
        return fields
    }

    /// ``spaceSeparatedFields`` one at a time, for a reader that stops at a word (the rest of a long line is never
    /// split).
    var lazySpaceSeparatedFields: SpaceSeparatedFields { SpaceSeparatedFields(Substring(self)) }

    /// The decimal number the text starts with, and where its digits end; `nil` without digits or past 18 of them.
    func leadingDecimal() -> (value: Int, end: Index)? {
        var value = 0, digits = 0
        var cursor = utf8.startIndex
        while cursor < utf8.endIndex, utf8[cursor] >= UInt8(ascii: "0"), utf8[cursor] <= UInt8(ascii: "9") {
            guard digits < 18 else { return nil }
            value = value * 10 + Int(utf8[cursor] - UInt8(ascii: "0"))
            digits += 1
            utf8.formIndex(after: &cursor)
        }
        return digits > 0 ? (value, cursor) : nil
    }
}

/// The words of a text between runs of spaces, found as they are asked for.
struct SpaceSeparatedFields: Sequence, IteratorProtocol {
    private let text: Substring
    private var cursor: Substring.Index

    init(_ text: Substring) {
        self.text = text
        cursor = text.startIndex
    }

    mutating func next() -> Substring? {
        let utf8 = text.utf8
        while cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: " ") { utf8.formIndex(after: &cursor) }
        guard cursor < utf8.endIndex else { return nil }
        var end = cursor
        while end < utf8.endIndex, utf8[end] != UInt8(ascii: " ") { utf8.formIndex(after: &end) }
        defer { cursor = end }
        return Substring(utf8[cursor..<end])
    }
}

extension Substring {
    /// The index of the first `byte` (an ASCII byte) at or after `start` (the start when nil): a search over the bytes,
    /// where `utf8.firstIndex(of:)` goes through a view's generic indices.
    func firstIndex(ofByte byte: UInt8, from start: Index? = nil) -> Index? {
        let utf8 = self.utf8
        let from = start.map { utf8.distance(from: utf8.startIndex, to: $0) } ?? 0
        return ByteSearch.firstOffset(of: byte, in: utf8, from: from).map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// The text without its leading spaces.
    var droppingLeadingSpaces: Substring {
        var cursor = utf8.startIndex
        while cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: " ") { utf8.formIndex(after: &cursor) }
        return Substring(utf8[cursor...])
    }
}

/// The searches of ``StringProtocol`` over a string's own bytes: a line's text is a string, and making a substring of
/// it to search costs as much again as the search.
extension String {
    /// The first occurrence of `needle`.
    func range(of needle: String) -> Range<Index>? { firstByteRange(of: needle) }

    /// The first occurrence of `needle`, found over the UTF-8 bytes.
    package func firstByteRange(of needle: String) -> Range<Index>? {
        byteRange(at: ByteSearch.firstOffset(of: needle.utf8.span, in: utf8.span), of: needle)
    }

    /// The last occurrence of `needle`.
    func lastRange(of needle: String) -> Range<Index>? {
        byteRange(at: ByteSearch.lastOffset(of: needle.utf8.span, in: utf8.span), of: needle)
    }

    /// True when `needle` occurs in the text.
    package func includes(_ needle: String) -> Bool {
        ByteSearch.firstOffset(of: needle.utf8.span, in: utf8.span) != nil
    }

    /// Whether the string begins with the bytes of `prefix`: ``Substring/startsWithBytes(_:skippingBlanks:)``
    /// without a substring, for the checks asked of every line of a log (`hasPrefix` compares characters).
    func startsWithBytes(_ prefix: String) -> Bool { Substring(self).startsWithBytes(prefix) }

    /// Whether the string holds nothing but spaces and tabs, or nothing (asked of every line a stack's reader passes).
    var isBlankLine: Bool {
        let bytes = utf8.span
        for offset in 0..<bytes.count where !bytes[offset].isBlank { return false }
        return true
    }

    /// The string without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        let trimmed = Substring(self).trimmingBlanks
        return trimmed.utf8.count == utf8.count ? self : String(trimmed)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingBlanks: Substring {
        // Over a span, not the view's indices: asked of nearly every line of every log.
        let utf8 = self.utf8, bytes = utf8.span
        var start = 0, end = bytes.count
        while start < end, bytes[start].isBlank { start += 1 }
        while end > start, bytes[end - 1].isBlank { end -= 1 }
        if start == 0, end == bytes.count { return self }
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        return Substring(utf8[lower..<utf8.index(lower, offsetBy: end - start)])
    }

    /// Whether the text, after its leading spaces, starts with a decimal number and a blank: the numbered field that
    /// opens a frame line of Apple's reports and of Darwin's `backtrace_symbols`. Over a span: asked of every line
    /// a glibc trace's reader does not claim, the shadow-byte dumps of sanitizer reports among them.
    var startsWithNumberedField: Bool {
        let bytes = utf8.span
        var cursor = 0
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
        let digits = cursor
        while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
            cursor += 1
        }
        return cursor > digits && cursor < bytes.count && bytes[cursor].isBlank
    }

    /// Whether the last byte of the text that is no blank is `byte`.
    func endsWithByte(_ byte: UInt8) -> Bool {
        let bytes = utf8.span
        var end = bytes.count
        while end > 0, bytes[end - 1].isBlank { end -= 1 }
        return end > 0 && bytes[end - 1] == byte
    }

    /// Whether the text begins with the bytes of `prefix` (no characters compared, nothing allocated); with
    /// `skippingBlanks`, after its leading spaces and tabs.
    func startsWithBytes(_ prefix: String, skippingBlanks: Bool = false) -> Bool {
        let bytes = utf8.span, wanted = prefix.utf8.span
        var start = 0
        if skippingBlanks { while start < bytes.count, bytes[start].isBlank { start += 1 } }
        guard bytes.count - start >= wanted.count else { return false }
        for offset in 0..<wanted.count where bytes[start + offset] != wanted[offset] { return false }
        return true
    }
}

extension Character {
    /// `0`…`9`, without Unicode property lookups.
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
}

extension UInt8 {
    /// A space or a tab.
    var isBlank: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
}

/// Ranges of a line's bytes, for the readers that walk a line by byte offset and make strings only of what they keep.
enum LineBytes {
    /// `range` without the blanks it starts and ends with.
    static func trimmed(_ range: Range<Int>, in bytes: Span<UInt8>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, bytes[lower].isBlank { lower += 1 }
        while upper > lower, bytes[upper - 1].isBlank { upper -= 1 }
        return lower..<upper
    }

    /// The decimal number at `cursor` of `bytes` and how many digits it has (0, and the value 0, when there is no
    /// digit there), `cursor` moved past them; nil past 18 digits, which no frame's number has (and an `Int` may not
    /// hold).
    static func decimal(in bytes: Span<UInt8>, at cursor: inout Int) -> (value: Int, digits: Int)? {
        var value = 0, digits = 0
        while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
            guard digits < 18 else { return nil }
            value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
            digits += 1
            cursor += 1
        }
        return (value, digits)
    }

    /// Where `needle` first starts within `range` of `bytes`, as an offset in `bytes`.
    static func firstOffset(of needle: String, in bytes: Span<UInt8>, within range: Range<Int>) -> Int? {
        ByteSearch.firstOffset(of: needle.utf8.span, in: bytes.extracting(range)).map { range.lowerBound + $0 }
    }

    /// Where `needle` last starts within `range` of `bytes`, as an offset in `bytes`.
    static func lastOffset(of needle: String, in bytes: Span<UInt8>, within range: Range<Int>) -> Int? {
        ByteSearch.lastOffset(of: needle.utf8.span, in: bytes.extracting(range)).map { range.lowerBound + $0 }
    }

    /// The text of the bytes at `range` of `line`, whose ends are ASCII bytes (whole characters either side).
    static func text(_ range: Range<Int>, of line: String) -> String {
        // Copied from the span (a third less than through a substring of the view, every field of every frame and
        // image line comes here); a range that cut a character would be repaired as a substring is.
        if let valid = try? UTF8Span(validating: line.utf8.span.extracting(range)) { return String(copying: valid) }
        let utf8 = line.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return String(Substring(utf8[lower..<utf8.index(lower, offsetBy: range.count)]))
    }
}
