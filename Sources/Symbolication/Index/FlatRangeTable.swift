import ObjectFiles
import PostmortemCore

/// Address ranges mapped to 32-bit values, stored as bytes and searched in place: the unit table of an
/// index, each unit's table of top-level functions and its line-row chunks. Ranges may nest or overlap; of
/// several that cover an address, the one that starts last wins (of equal starts, the one given last).
///
/// Layout: a 16-byte header — the base address (u64), the width (u32: 0 narrow, 1 wide), the entry count (u32) —
/// then the entries, sorted by start: start, end, the furthest end of it and every entry before it, value (u32).
/// Narrow entries (16 bytes) hold the three addresses as u32 offsets from the base, which any table whose
/// ranges span less than 4 GiB can use (every real image); wide ones (32 bytes) hold them as u64 and pad the
/// value to 8 bytes.
struct FlatRangeTable {
    static let headerSize = 16

    /// The table's bytes, not counted: a lookup copies tables several times, and each count of bytes that every
    /// thread shares is a write the threads contend for. Whoever makes a table keeps its bytes alive while it is read.
    private let bytes: Unmanaged<ImmutableBytes>
    /// Reads of the bytes the optimizer inlines (``ByteReader/ulebOrEnd(at:)``); a function that reads much takes it once.
    var reader: ByteReader { bytes._withUnsafeGuaranteedRef { $0.reader } }
    /// Where the first entry starts in ``bytes``.
    let start: Int
    let count: Int
    private let base: UInt64
    private let isWide: Bool
    private let entrySize: Int

    /// The table whose header is at `offset` in `bytes`, which the caller keeps alive while the table is read; its
    /// entries are bounded by `limit` (a damaged count reads as fewer entries, never past it).
    init(bytes: ImmutableBytes, at offset: Int, limit: Int) {
        let reader = bytes.reader
        self.bytes = Unmanaged.passUnretained(bytes)
        base = reader.u64OrZero(at: offset)
        isWide = reader.u32OrZero(at: offset + 8) != 0
        entrySize = isWide ? 32 : 16
        start = offset + Self.headerSize
        count = min(Int(reader.u32OrZero(at: offset + 12)), max(0, limit - start) / entrySize)
    }

    /// The bytes the table takes: its header and entries.
    var length: Int { Self.headerSize + count * entrySize }

    /// Appends the table of `pairs` to `writer`; returns how many entries it wrote (empty ranges are dropped).
    /// - Parameter joiningTouchingRanges: join a range to the one before it in start order when both have one value
    ///   and it starts where that one ends or before: every address then finds the same value (no range starts
    ///   between them), in one entry where a unit of a binary built with a section per function states thousands.
    ///   Not for tables whose entries' own ranges are read back (``range(_:)``) as the ranges given.
    @discardableResult
    static func write(
        _ pairs: [(AddressRange, UInt32)], to writer: inout ByteWriter, joiningTouchingRanges: Bool = false
    ) -> Int {
        // A stable sort: ranges with one start keep the order given. Only the starts and the positions are sorted;
        // the entries are built once, in their sorted places (a unit table holds tens of thousands of ranges, built
        // before any lookup can start).
        var starts: [UInt64] = []
        var positions: [Int] = []
        starts.reserveCapacity(pairs.count)
        positions.reserveCapacity(pairs.count)
        for (position, (range, _)) in pairs.enumerated() where !range.isEmpty {
            starts.append(range.lowerBound.rawValue)
            positions.append(position)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(starts.count)
        var highest: UInt64 = 0
        for sortedPosition in RadixSort.stableOrder(of: starts) {
            let (range, value) = pairs[positions[sortedPosition]]
            let start = range.lowerBound.rawValue, end = range.upperBound.rawValue
            highest = max(highest, end)
            if joiningTouchingRanges, let last = entries.last, last.value == value, start <= last.end {
                entries[entries.count - 1].end = max(last.end, end)
            } else {
                entries.append(Entry(start: start, end: end, value: value))
            }
        }
        let base = entries.first?.start ?? 0
        let isWide = highest - base > UInt64(UInt32.max)
        writer.u64(base)
        writer.u32(isWide ? 1 : 0)
        writer.u32(UInt32(entries.count))
        var furthest: UInt64 = 0
        if isWide {
            writer.reserve(writer.count + entries.count * 32)
            for entry in entries {
                furthest = max(furthest, entry.end)
                writer.u64(entry.start)
                writer.u64(entry.end)
                writer.u64(furthest)
                writer.u32(entry.value)
                writer.u32(0)
            }
        } else {
            writer.appendU32Quads(count: entries.count) { index in
                let entry = entries[index]
                furthest = max(furthest, entry.end)
                return (UInt32(entry.start - base), UInt32(entry.end - base), UInt32(furthest - base), entry.value)
            }
        }
        return entries.count
    }

    /// One entry as ``write(_:to:joiningTouchingRanges:)`` builds it.
    private struct Entry {
        var start: UInt64
        var end: UInt64
        var value: UInt32
    }

    /// The value of the entry at `index`.
    func value(_ index: Int) -> UInt32 {
        reader.u32OrZero(at: start + index * entrySize + (isWide ? 24 : 12))
    }

    /// Where the entry at `index` starts and ends.
    func range(_ index: Int) -> (start: UInt64, end: UInt64) {
        let reader = reader
        return (address(index, 0, in: reader), address(index, 1, in: reader))
    }

    /// Field `field` (0 start, 1 end, 2 furthest end) of the entry at `index`.
    @inline(__always) fileprivate func address(_ index: Int, _ field: Int, in reader: ByteReader) -> UInt64 {
        let entry = start + index * entrySize
        return isWide
            ? reader.u64OrZero(at: entry + field * 8) : base &+ UInt64(reader.u32OrZero(at: entry + field * 4))
    }

    /// The value whose range covers `address`.
    /// - Complexity: O(log n) plus the number of earlier ranges that still reach past `address`.
    func value(containing address: FileAddress) -> UInt32? {
        var entries = entries(containing: address)
        return entries.next().map(value)
    }

    /// The entries whose range covers `address`, the one that starts last first.
    /// - Complexity: O(log n) to find the first, then the number of earlier ranges that still reach past `address`.
    func entries(containing address: FileAddress) -> CoveringEntries {
        let target = address.rawValue
        let reader = reader
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self.address(middle, 0, in: reader) <= target { low = middle + 1 } else { high = middle }
        }
        return CoveringEntries(table: self, target: target, index: low - 1)
    }

    /// The entries of a table whose range covers an address (``entries(containing:)``). A sequence, not a search that
    /// calls back: a callback over its caller counted a reference to it on every lookup, a count every thread writes.
    struct CoveringEntries: Sequence, IteratorProtocol {
        fileprivate let table: FlatRangeTable
        fileprivate let target: UInt64
        /// The next entry to look at; below 0 when no entry is left.
        fileprivate var index: Int

        mutating func next() -> Int? {
            let reader = table.reader
            while index >= 0 {
                // Entries before this one end no further than it says: none of them covers the address.
                guard table.address(index, 2, in: reader) > target else {
                    index = -1
                    return nil
                }
                let current = index
                index -= 1
                if target < table.address(current, 1, in: reader) { return current }
            }
            return nil
        }
    }
}
