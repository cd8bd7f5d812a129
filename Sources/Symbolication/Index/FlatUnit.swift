import DWARF
import ObjectFiles
import PostmortemCore

/// One unit's functions, inlined copies and line table as compact bytes, searched in place. The lazy
/// DWARF index makes one per unit it reads; the index cache stores them for every unit, so a cached
/// lookup reads the same bytes straight from a mapped file.
///
/// Layout (offsets from the unit's start; little-endian; see `Cache/FORMAT.md`):
/// - header (32 bytes): counts of top-level ranges, records, record ranges, sequences, rows and files
///   (u32 each), the strings' length (u32), padding;
/// - top-level ranges: a ``FlatRangeTable`` to the record index;
/// - records (80 bytes each, in DIE order): name origin DIE (u64, all ones when the names are complete),
///   name, linkage name, call file (string offsets, all ones for none), call line, call column, parent
///   (all ones for none), depth, end of subtree, first range, range count, flags (1: inlined),
///   declaration line (u32 each), the lowest start and highest end of the record's ranges and of every
///   record nested in it (u64 each), which lets a lookup skip a subtree that cannot hold the address,
///   then the demangled name (string offset, all ones when not worked out) and four bytes of padding;
/// - record ranges (start, end: u64);
/// - sequences (32 bytes, sorted by start), a ``FlatRangeTable`` whose value is the first row and whose last
///   four bytes are the row count: start, end, furthest end so far (u64), first row, row count (u32);
/// - rows (16 bytes): offset from the sequence start, file, line, column (u32);
/// - files: string offsets (u32), padded to 8 bytes;
/// - strings: NUL-terminated UTF-8.
struct FlatUnit {
    static let headerSize = 32
    static let recordSize = 80
    static let rangeSize = 16
    static let sequenceSize = FlatRangeTable.entrySize
    static let rowSize = 16

    let bytes: ImmutableBytes
    let start: Int
    let length: Int
    private let counts: Counts
    private let layout: Layout

    private struct Counts {
        var top = 0, records = 0, ranges = 0, sequences = 0, rows = 0, files = 0, strings = 0
    }

    private struct Layout {
        var top = 0, records = 0, ranges = 0, sequences = 0, rows = 0, files = 0, strings = 0, end = 0

        init(_ counts: Counts) {
            top = FlatUnit.headerSize
            records = top + counts.top * FlatRangeTable.entrySize
            ranges = records + counts.records * FlatUnit.recordSize
            sequences = ranges + counts.ranges * FlatUnit.rangeSize
            rows = sequences + counts.sequences * FlatUnit.sequenceSize
            files = rows + counts.rows * FlatUnit.rowSize
            strings = files + (counts.files * 4 + 7) / 8 * 8
            end = strings + counts.strings
        }
    }

    /// The unit stored in `range` of `bytes`; `nil` when its counts do not add up to its length.
    init?(bytes: ImmutableBytes, range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= Self.headerSize else { return nil }
        self.bytes = bytes
        start = range.lowerBound
        length = range.count
        let field = { (index: Int) in Int(bytes.u32(at: range.lowerBound + index * 4)) }
        counts = Counts(top: field(0), records: field(1), ranges: field(2), sequences: field(3), rows: field(4),
                        files: field(5), strings: field(6))
        layout = Layout(counts)
        guard layout.end == length else { return nil }
    }

    /// `contents` packed into bytes of their own; `nil` only if the packing did not add up.
    init?(packing contents: UnitContents) {
        let bytes = Self.encode(contents)
        self.init(bytes: ImmutableBytes(bytes), range: 0..<bytes.count)
    }

    /// Encodes `contents`: records keep their ``FunctionRecord/nameOrigin`` for ``completingNames(_:)``.
    static func encode(_ contents: UnitContents) -> [UInt8] {
        let functions = contents.functions
        let table = contents.lineTable
        var strings = StringPool()
        var writer = ByteWriter()
        let rowCount = table.sequences.reduce(0) { $0 + $1.rows.count }
        writer.reserve(headerSize + functions.count * (recordSize + 2 * FlatRangeTable.entrySize) + rowCount * rowSize
                       + table.sequences.count * sequenceSize + table.files.count * 4 + 64)
        for _ in 0..<8 { writer.u32(0) }

        var topLevel: [(AddressRange, UInt32)] = []
        for (index, function) in functions.enumerated() where function.parent == nil {
            for range in function.ranges { topLevel.append((range, UInt32(index))) }
        }
        let topCount = FlatRangeTable.write(topLevel, to: &writer)

        var subtreeEnd = functions.indices.map { $0 + 1 }
        var hulls = functions.map { function in
            (function.ranges.map(\.lowerBound.rawValue).min() ?? .max, function.ranges.map(\.upperBound.rawValue).max() ?? 0)
        }
        for index in functions.indices.reversed() {
            guard let parent = functions[index].parent else { continue }
            subtreeEnd[parent] = max(subtreeEnd[parent], subtreeEnd[index])
            hulls[parent] = (min(hulls[parent].0, hulls[index].0), max(hulls[parent].1, hulls[index].1))
        }
        var rangeCount = 0
        for (index, function) in functions.enumerated() {
            writer.u64(function.nameOrigin ?? .max)
            writer.u32(strings.offset(of: function.name))
            writer.u32(strings.offset(of: function.linkageName))
            writer.u32(strings.offset(of: function.callFile))
            writer.u32(UInt32(clamping: function.callLine))
            writer.u32(UInt32(clamping: function.callColumn))
            writer.u32(function.parent.map { UInt32($0) } ?? .max)
            writer.u32(UInt32(clamping: function.depth))
            writer.u32(UInt32(subtreeEnd[index]))
            writer.u32(UInt32(rangeCount))
            writer.u32(UInt32(function.ranges.count))
            writer.u32(function.isInlined ? 1 : 0)
            writer.u32(UInt32(clamping: function.declarationLine))
            writer.u64(hulls[index].0)
            writer.u64(hulls[index].1)
            writer.u32(StringPool.none)
            writer.u32(0)
            rangeCount += function.ranges.count
        }
        for function in functions {
            for range in function.ranges {
                writer.u64(range.lowerBound.rawValue)
                writer.u64(range.upperBound.rawValue)
            }
        }
        // Rows are stored as 32-bit offsets from their sequence's start: a sequence spanning 4 GiB or
        // more (never made by a compiler) is left out.
        let sequences = table.sequences.filter { $0.range.size <= UInt64(UInt32.max) }
        var furthest: UInt64 = 0
        var firstRow = 0
        for sequence in sequences {
            furthest = max(furthest, sequence.endAddress.rawValue)
            writer.u64(sequence.startAddress.rawValue)
            writer.u64(sequence.endAddress.rawValue)
            writer.u64(furthest)
            writer.u32(UInt32(firstRow))
            writer.u32(UInt32(sequence.rows.count))
            firstRow += sequence.rows.count
        }
        for sequence in sequences {
            let base = sequence.startAddress.rawValue
            for row in sequence.rows {
                writer.u32(UInt32(truncatingIfNeeded: row.address.rawValue &- base))
                writer.u32(row.file)
                writer.u32(row.line)
                writer.u32(row.column)
            }
        }
        for file in table.files { writer.u32(strings.offset(of: file)) }
        writer.align(to: 8)
        writer.append(strings.bytes)
        for (index, count) in [topCount, functions.count, rangeCount, sequences.count, firstRow, table.files.count,
                               strings.bytes.count].enumerated() {
            writer.patchU32(at: index * 4, UInt32(count))
        }
        return writer.bytes
    }

    // MARK: Lookups

    /// The records that cover `address`, outermost first: a subprogram and the inlined copies within it.
    /// A record whose names are incomplete keeps its ``FunctionRecord/nameOrigin``.
    func functionChain(at address: FileAddress) -> [FunctionRecord] {
        functionChainIndices(at: address).map(record)
    }

    /// The positions (for ``record(_:)``) of the records that cover `address`, outermost first.
    func functionChainIndices(at address: FileAddress) -> [Int] {
        let topLevel = FlatRangeTable(bytes: bytes, start: start + layout.top, count: counts.top)
        guard let found = topLevel.value(containing: address), Int(found) < counts.records else { return [] }
        let top = Int(found)
        var deepest = top
        var deepestDepth = field(record: top, 32)
        let end = min(Int(field(record: top, 36)), counts.records)
        let target = address.rawValue
        var index = top + 1
        while index < end {
            let record = start + layout.records + index * Self.recordSize
            // No record of a subtree whose hull misses the address can hold it.
            guard bytes.u64(at: record + 56) <= target, target < bytes.u64(at: record + 64) else {
                index = max(index + 1, Int(field(record: index, 36)))
                continue
            }
            let depth = field(record: index, 32)
            if depth > deepestDepth, recordContains(index, address) {
                deepest = index
                deepestDepth = depth
            }
            index += 1
        }
        var chain: [Int] = []
        var current = deepest
        // Parents come before their children, which bounds the walk even in damaged bytes.
        while chain.count <= counts.records {
            chain.append(current)
            let parent = Int(field(record: current, 28))
            guard current != top, parent < current else { break }
            current = parent
        }
        return chain.reversed()
    }

    /// The row that covers `address` — the last row at or before it in the sequence that holds it — its
    /// file's path, and the address where the next row starts.
    /// - Complexity: O(log rows).
    func row(containing address: FileAddress) -> (row: LineRow, file: String?, end: FileAddress)? {
        // Sequences are laid out as a range table: start, end, furthest end, first row (the value), row count.
        FlatRangeTable(bytes: bytes, start: start + layout.sequences, count: counts.sequences)
            .firstEntry(containing: address) { row(in: $0, containing: address.rawValue) }
    }

    private func row(in sequence: Int, containing target: UInt64) -> (row: LineRow, file: String?, end: FileAddress)? {
        let base = bytes.u64(at: sequence)
        let first = Int(bytes.u32(at: sequence + 24))
        let count = min(Int(bytes.u32(at: sequence + 28)), max(0, counts.rows - first))
        let rows = start + layout.rows + first * Self.rowSize
        // Bytes from a damaged file may say anything: no arithmetic here may trap.
        guard base <= target else { return nil }
        let offset = target - base
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if UInt64(bytes.u32(at: rows + middle * Self.rowSize)) <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = rows + (low - 1) * Self.rowSize
        let end = low < count ? base &+ UInt64(bytes.u32(at: rows + low * Self.rowSize)) : bytes.u64(at: sequence + 8)
        let file = bytes.u32(at: entry + 4)
        let row = LineRow(address: FileAddress(base &+ UInt64(bytes.u32(at: entry))), file: file,
                          line: bytes.u32(at: entry + 8), column: bytes.u32(at: entry + 12))
        let path = Int(file) < counts.files ? string(bytes.u32(at: start + layout.files + Int(file) * 4)) : nil
        return (row, path, FileAddress(end))
    }

    // MARK: Records

    private func field(record index: Int, _ offset: Int) -> UInt32 {
        bytes.u32(at: start + layout.records + index * Self.recordSize + offset)
    }

    private func recordRanges(_ index: Int) -> Range<Int> {
        let first = min(Int(field(record: index, 40)), counts.ranges)
        let count = min(Int(field(record: index, 44)), counts.ranges - first)
        return first..<first + count
    }

    private func recordContains(_ index: Int, _ address: FileAddress) -> Bool {
        let target = address.rawValue
        for range in recordRanges(index) {
            let entry = start + layout.ranges + range * Self.rangeSize
            if bytes.u64(at: entry) <= target, target < bytes.u64(at: entry + 8) { return true }
        }
        return false
    }

    /// The record at position `index` (below the record count).
    func record(_ index: Int) -> FunctionRecord {
        let origin = bytes.u64(at: start + layout.records + index * Self.recordSize)
        let parent = field(record: index, 28)
        let ranges = recordRanges(index).map { range in
            let entry = start + layout.ranges + range * Self.rangeSize
            return AddressRange(lowerBound: bytes.u64(at: entry), upperBound: bytes.u64(at: entry + 8))
        }
        return FunctionRecord(
            name: string(field(record: index, 8)), linkageName: string(field(record: index, 12)), ranges: ranges,
            parent: parent == .max ? nil : Int(parent), depth: Int(field(record: index, 32)),
            isInlined: field(record: index, 48) & 1 != 0, callFile: string(field(record: index, 16)),
            callLine: Int(field(record: index, 20)), callColumn: Int(field(record: index, 24)),
            declarationLine: Int(field(record: index, 52)), nameOrigin: origin == .max ? nil : origin)
    }

    /// How many records the unit holds.
    var recordCount: Int { counts.records }

    /// The demangled name stored for the record at position `index`: only the index cache stores them
    /// (``completingNames(_:displayName:)``); `nil` when none is.
    func displayName(_ index: Int) -> String? {
        string(field(record: index, 72))
    }

    private func string(_ offset: UInt32) -> String? {
        guard offset != StringPool.none, Int(offset) < counts.strings else { return nil }
        return bytes.string(at: start + layout.strings + Int(offset), limit: start + layout.end)
    }

    // MARK: Completing names

    /// The unit with every record's names completed by `complete` (``DWARFFile/completingNames(_:)``),
    /// and the demangled form of each record's linkage name (else name) that `displayName` gives, so the
    /// result needs no DWARF to read and no demangling: new strings are appended, records patched in place.
    func completingNames(_ complete: (FunctionRecord) -> FunctionRecord, displayName: (String) -> String?) -> [UInt8] {
        var unit = bytes.bytes(start..<start + layout.strings)
        var strings = StringPool(existing: bytes.bytes(start + layout.strings..<start + layout.end))
        for index in 0..<counts.records {
            let recordStart = layout.records + index * Self.recordSize
            func patch(_ offset: Int, _ value: UInt32) {
                withUnsafeBytes(of: value.littleEndian) { raw in
                    for byte in 0..<4 { unit[recordStart + offset + byte] = raw[byte] }
                }
            }
            var completed = record(index)
            if bytes.u64(at: start + recordStart) != .max {
                completed = complete(completed)
                for byte in 0..<8 { unit[recordStart + byte] = 0xFF }
                patch(8, strings.offset(of: completed.name))
                patch(12, strings.offset(of: completed.linkageName))
                patch(52, UInt32(clamping: completed.declarationLine))
            }
            if let name = completed.linkageName ?? completed.name, let shown = displayName(name) {
                patch(72, strings.offset(of: shown))
            }
        }
        withUnsafeBytes(of: UInt32(strings.bytes.count).littleEndian) { raw in
            for byte in 0..<4 { unit[24 + byte] = raw[byte] }
        }
        return unit + strings.bytes
    }
}
