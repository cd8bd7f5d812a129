import ObjectFiles
import PostmortemCore

/// Address ranges mapped to 32-bit values, stored as bytes and searched in place: the unit table of an
/// index and each unit's table of top-level functions. Ranges may nest or overlap; of several that
/// cover an address, the one that starts last wins (of equal starts, the one given last).
///
/// Layout: per entry, sorted by start: start (u64), end (u64), the furthest end of it and every entry
/// before it (u64), value (u32), and four more bytes (padding; a packed unit's line sequences keep their
/// row count there).
struct FlatRangeTable {
    static let entrySize = 32

    let bytes: ImmutableBytes
    /// Where the first entry starts in ``bytes``.
    let start: Int
    let count: Int

    /// Appends the table of `pairs` to `writer`; returns how many entries it wrote (empty ranges are dropped).
    static func write(_ pairs: [(AddressRange, UInt32)], to writer: inout ByteWriter) -> Int {
        // Swift's sort is stable: ranges with one start keep the order given.
        var sorted = pairs.filter { !$0.0.isEmpty }
        sorted.sort { $0.0.lowerBound < $1.0.lowerBound }
        writer.reserve(writer.count + sorted.count * entrySize)
        var furthest: UInt64 = 0
        for pair in sorted {
            furthest = max(furthest, pair.0.upperBound.rawValue)
            writer.u64(pair.0.lowerBound.rawValue)
            writer.u64(pair.0.upperBound.rawValue)
            writer.u64(furthest)
            writer.u32(pair.1)
            writer.u32(0)
        }
        return sorted.count
    }

    /// The value whose range covers `address`.
    /// - Complexity: O(log n) plus the number of earlier ranges that still reach past `address`.
    func value(containing address: FileAddress) -> UInt32? {
        firstEntry(containing: address) { bytes.u32(at: $0 + 24) }
    }

    /// The first answer `accept` gives for the entries whose range covers `address`, the one that starts
    /// last first; `accept` gets each entry's offset in ``bytes`` (its value at +24, its last four bytes at +28).
    /// - Complexity: O(log n) plus the number of earlier ranges that still reach past `address`.
    func firstEntry<Answer>(containing address: FileAddress, _ accept: (Int) -> Answer?) -> Answer? {
        let target = address.rawValue
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if bytes.u64(at: start + middle * Self.entrySize) <= target { low = middle + 1 } else { high = middle }
        }
        var index = low - 1
        while index >= 0 {
            let entry = start + index * Self.entrySize
            guard bytes.u64(at: entry + 16) > target else { break }
            if target < bytes.u64(at: entry + 8), let answer = accept(entry) { return answer }
            index -= 1
        }
        return nil
    }
}
