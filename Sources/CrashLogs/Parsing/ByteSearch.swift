/// Substring search over a whole log's bytes: recognizers use it to rule a format out with one pass
/// before looking at lines.
enum ByteSearch {
    /// True when `marker` occurs anywhere in `bytes`.
    static func contains(_ bytes: [UInt8], _ marker: String) -> Bool {
        let pattern = Array(marker.utf8)
        guard let first = pattern.first, pattern.count <= bytes.count else { return false }
        var start = 0
        // Find each candidate for the first byte, then compare the rest.
        while let hit = bytes[start...].firstIndex(of: first), hit + pattern.count <= bytes.count {
            if bytes[hit..<hit + pattern.count].elementsEqual(pattern) { return true }
            start = hit + 1
        }
        return false
    }
}
