import PostmortemCore

/// Words found in names over their UTF-8 bytes: the string-processing library's `contains(_:)` and `firstRange(of:)`
/// compare characters, thousands of instructions a call, and every name a group signs is asked several.
extension Substring {
    /// Whether `needle` occurs, compared as bytes.
    func containsBytes(_ needle: String) -> Bool {
        ByteSearch.firstOffset(of: needle.utf8.span, in: utf8.span) != nil
    }

    /// The first occurrence of `needle`, found over the bytes.
    func firstByteRange(of needle: String) -> Range<Index>? {
        guard let start = ByteSearch.firstOffset(of: needle.utf8.span, in: utf8.span) else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        return lower..<utf8.index(lower, offsetBy: needle.utf8.count)
    }
}
