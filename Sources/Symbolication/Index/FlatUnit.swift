import DWARF
import ObjectFiles
import PostmortemCore

/// One unit's functions, inlined copies and line table as compact bytes, searched in place. The lazy
/// DWARF index makes one per unit it reads; the index cache stores them for every unit, so a cached
/// lookup reads the same bytes straight from a mapped file.
///
/// The bytes are small because the cache file must stay well below the size of the DWARF it stands for:
/// numbers are LEB128 and addresses are offsets (from the unit's base, from the row before), and names can
/// stay where the debug file has them (``InPlaceStrings``). Layout (offsets from the unit's start; see
/// `Cache/FORMAT.md`):
/// - header (32 bytes): the base address (u64); the lengths of the top-level table, the records, the
///   sequence table and the rows; the number of files; the length of the strings (u32 each);
/// - top-level table: a ``FlatRangeTable`` from the subprograms' ranges to their record's offset;
/// - records, in DIE order (a record's inlined copies follow it), each with the length of its subtree;
/// - sequence table: a ``FlatRangeTable`` from line sequences to their rows' offset;
/// - rows, in blocks of ``rowsPerBlock``, each sequence's preceded by an index of its blocks;
/// - files: string offsets (u32);
/// - strings: NUL-terminated UTF-8.
///
/// A class, not a struct: lookups hand units around in results and memos, and a struct of this many references
/// retained each of them at every copy.
final class FlatUnit: Sendable {
    static let headerSize = 32
    /// Rows a lookup decodes at most: a sequence of more has an index of its blocks, searched first.
    static let rowsPerBlock = 32

    let bytes: ImmutableBytes
    /// Reads of ``bytes`` the optimizer inlines (``ByteReader/ulebOrEnd(at:)``); a function that reads much takes it once.
    var reader: ByteReader { bytes.reader }
    let start: Int
    let length: Int
    /// The debug file's bytes, where names stored in place are read (``InPlaceStrings``); `nil` for a unit that
    /// holds all its strings.
    private let inPlace: ImmutableBytes?
    /// What the places of this unit's own strings are numbered from (``recordAndNamePlace(_:shownNameOnly:)``): a
    /// number with the top bit set, above every offset of a file, that no other unit packed in this run has; `nil`
    /// when its own strings have no place.
    private let stringsNamespace: UInt64?
    private let base: UInt64
    private let layout: Layout
    private let topLevel: FlatRangeTable
    private let sequences: FlatRangeTable

    private struct Layout {
        var top = 0, records = 0, sequences = 0, rows = 0, files = 0, fileCount = 0, strings = 0, end = 0
    }

    /// The unit stored in `range` of `bytes`, its in-place names read from `inPlace`; `nil` when its lengths do
    /// not add up.
    /// - Parameter stringsNamespace: the places of the unit's own strings: `1 << 63` or more, distinct in its bits
    ///   32 to 62 from that of every other unit a symbolizer holds.
    init?(
        bytes: ImmutableBytes, range: Range<Int>, inPlace: ImmutableBytes? = nil, stringsNamespace: UInt64? = nil
    ) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= Self.headerSize else { return nil }
        let reader = bytes.reader
        self.bytes = bytes
        self.inPlace = inPlace
        self.stringsNamespace = stringsNamespace
        start = range.lowerBound
        length = range.count
        base = reader.u64OrZero(at: start)
        let field = { (index: Int) in Int(reader.u32OrZero(at: range.lowerBound + 8 + index * 4)) }
        var layout = Layout()
        layout.top = Self.headerSize
        layout.records = layout.top + field(0)
        layout.sequences = layout.records + field(1)
        layout.rows = layout.sequences + field(2)
        layout.files = layout.rows + field(3)
        layout.fileCount = field(4)
        layout.strings = layout.files + layout.fileCount * 4
        layout.end = layout.strings + field(5)
        guard layout.end == length else { return nil }
        self.layout = layout
        topLevel = FlatRangeTable(bytes: bytes, at: start + layout.top, limit: start + layout.records)
        sequences = FlatRangeTable(bytes: bytes, at: start + layout.sequences, limit: start + layout.rows)
        guard topLevel.length == field(0), sequences.length == field(2) else { return nil }
    }

    /// `contents` packed into bytes of their own; `nil` only if the packing did not add up.
    convenience init?(packing contents: UnitContents, stringsNamespace: UInt64? = nil) {
        let bytes = Self.encode(contents)
        self.init(bytes: ImmutableBytes(bytes), range: 0..<bytes.count, stringsNamespace: stringsNamespace)
    }

    // MARK: Encoding

    private enum RecordFlag {
        static let inlined: UInt64 = 1, name: UInt64 = 2, linkageName: UInt64 = 4, callFile: UInt64 = 8
        static let nameOrigin: UInt64 = 16, children: UInt64 = 32
    }

    /// Encodes `contents`; names that `inPlace` finds in the debug file are stored as its offsets, the rest in the
    /// unit's own strings. Records keep their ``FunctionRecord/nameOrigin`` for ``DWARFFile/completingNames(_:)``.
    static func encode(_ contents: UnitContents, inPlace: InPlaceStrings? = nil) -> [UInt8] {
        let functions = contents.functions
        var strings = StringPool()
        // A name, a linkage name and a call file a record at most.
        strings.reserve(functions.count * 3)
        func reference(_ string: String?) -> UInt64? {
            guard let string else { return nil }
            if let offset = inPlace?.offset(of: string) { return offset << 1 | 1 }
            return UInt64(strings.offset(of: string)) << 1
        }
        // Rows are stored as offsets from their sequence's start in a block index of 32-bit fields: a sequence
        // spanning 4 GiB or more (never made by a compiler) is left out.
        let kept = contents.lineTable.sequences.filter { $0.range.size <= UInt64(UInt32.max) }
        // Each record's hull (lowest start, highest end of its ranges); the lowest start of all is the unit's base.
        var hulls = [(low: UInt64, high: UInt64)](repeating: (.max, 0), count: functions.count)
        for index in functions.indices {
            for range in functions[index].ranges {
                hulls[index].low = min(hulls[index].low, range.lowerBound.rawValue)
                hulls[index].high = max(hulls[index].high, range.upperBound.rawValue)
            }
        }
        let lowest = min(hulls.map(\.low).min() ?? .max, kept.map(\.startAddress.rawValue).min() ?? .max)
        let base = lowest == .max ? 0 : lowest

        // Records, last first: a record's length holds its subtree's, known once its descendants are encoded. Each
        // goes to the end of one buffer (so the last record's bytes come first there), then they are copied in order.
        var descendantBytes = [Int](repeating: 0, count: functions.count)
        var pieces = ByteWriter()
        var pieceStarts = [Int](repeating: 0, count: functions.count)
        var rest = ByteWriter()
        for index in functions.indices.reversed() {
            let function = functions[index]
            var flags: UInt64 = function.isInlined ? RecordFlag.inlined : 0
            let name = reference(function.name), linkageName = reference(function.linkageName)
            let callFile = function.isInlined ? reference(function.callFile) : nil
            if name != nil { flags |= RecordFlag.name }
            if linkageName != nil { flags |= RecordFlag.linkageName }
            if callFile != nil { flags |= RecordFlag.callFile }
            if function.nameOrigin != nil { flags |= RecordFlag.nameOrigin }
            if descendantBytes[index] > 0 { flags |= RecordFlag.children }
            // What a walk over records reads comes first; the rest is skipped by its length.
            rest.removeAll()
            rest.uleb(function.ranges.count)
            for range in function.ranges {
                rest.uleb(range.lowerBound.rawValue - base)
                rest.uleb(range.upperBound.rawValue >= range.lowerBound.rawValue ? range.size : 0)
            }
            if descendantBytes[index] > 0 {
                let (low, high) = hulls[index]
                rest.uleb(low <= high ? low - base : 0)
                rest.uleb(low <= high ? high - low : 0)
            }
            if let name { rest.uleb(name) }
            if let linkageName { rest.uleb(linkageName) }
            if let callFile { rest.uleb(callFile) }
            if let origin = function.nameOrigin { rest.uleb(origin) }
            if function.isInlined {
                rest.uleb(function.callLine)
                rest.uleb(function.callColumn)
            }
            rest.uleb(function.declarationLine)
            let pieceStart = pieces.count
            pieces.uleb(flags)
            pieces.uleb(function.depth)
            if descendantBytes[index] > 0 { pieces.uleb(descendantBytes[index]) }
            pieces.uleb(rest.count)
            pieces.append(rest)
            pieceStarts[index] = pieceStart
            if let parent = function.parent, parent < index {
                descendantBytes[parent] += pieces.count - pieceStart + descendantBytes[index]
                hulls[parent] = (min(hulls[parent].low, hulls[index].low), max(hulls[parent].high, hulls[index].high))
            }
        }
        var records = ByteWriter()
        records.reserve(pieces.count)
        var topLevel: [(AddressRange, UInt32)] = []
        for (index, function) in functions.enumerated() {
            if function.parent == nil {
                for range in function.ranges { topLevel.append((range, UInt32(records.count))) }
            }
            records.append(pieces, from: pieceStarts[index], to: index > 0 ? pieceStarts[index - 1] : pieces.count)
        }
        var top = ByteWriter()
        FlatRangeTable.write(topLevel, to: &top)

        var rows = ByteWriter()
        var sequenceEntries: [(AddressRange, UInt32)] = []
        for sequence in kept where !sequence.rows.isEmpty {
            sequenceEntries.append((sequence.range, UInt32(rows.count)))
            encodeRows(of: sequence, to: &rows)
        }
        var sequenceTable = ByteWriter()
        FlatRangeTable.write(sequenceEntries, to: &sequenceTable)
        let files = contents.lineTable.files.map { strings.offset(of: $0) }

        var writer = ByteWriter()
        writer.reserve(
            headerSize + top.count + records.count + sequenceTable.count + rows.count + files.count * 4
                + strings.bytes.count)
        writer.u64(base)
        for count in [top.count, records.count, sequenceTable.count, rows.count, files.count, strings.bytes.count] {
            writer.u32(UInt32(count))
        }
        writer.append(top.bytes)
        writer.append(records.bytes)
        writer.append(sequenceTable.bytes)
        writer.append(rows.bytes)
        for file in files { writer.u32(file) }
        writer.append(strings.bytes)
        return writer.bytes
    }

    /// A sequence's rows: their count; for more than one block, the number of blocks and each block's first
    /// address (as an offset from the sequence's start) and offset from the end of this index (u32 each); then
    /// the blocks, each row as its address's distance from the row before (the block's first from the block's
    /// first address), file, line (zigzag, from the row before; the block's first from 0) and column.
    private static func encodeRows(of sequence: LineSequence, to writer: inout ByteWriter) {
        let sequenceStart = sequence.startAddress.rawValue
        let blockStarts = Array(stride(from: 0, to: sequence.rows.count, by: rowsPerBlock))
        var blocks = ByteWriter()
        var index: [(UInt32, UInt32)] = []
        for first in blockStarts {
            let blockStart = sequence.rows[first].address.rawValue
            // A sequence's rows never lie below its start or the row before (``LineSequence`` keeps it so).
            index.append((UInt32(blockStart - sequenceStart), UInt32(blocks.count)))
            var previousAddress = blockStart
            var previousLine: Int64 = 0
            for row in sequence.rows[first..<min(first + rowsPerBlock, sequence.rows.count)] {
                blocks.uleb(row.address.rawValue - previousAddress)
                blocks.uleb(UInt64(row.file))
                let delta = Int64(row.line) - previousLine
                blocks.uleb(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)))
                blocks.uleb(UInt64(row.column))
                previousAddress = row.address.rawValue
                previousLine = Int64(row.line)
            }
        }
        writer.uleb(sequence.rows.count)
        if index.count > 1 {
            writer.uleb(index.count)
            for (address, offset) in index {
                writer.u32(address)
                writer.u32(offset)
            }
        }
        writer.append(blocks.bytes)
    }

    // MARK: Lookups

    /// The fields of a record that a walk over records reads.
    private struct RecordHeader {
        var flags: UInt64
        var depth: Int
        /// The length of its descendants' bytes.
        var descendants: Int
        /// Where the ranges start (their count first).
        var ranges: Int
        /// Where the record's own bytes end (its first descendant, or the next record, starts there).
        var end: Int
    }

    /// The header of the record at `offset` (absolute, in ``bytes``).
    private func header(at offset: Int) -> RecordHeader {
        let reader = reader
        var (flags, position) = reader.ulebOrEnd(at: offset)
        let depth: UInt64
        (depth, position) = reader.ulebOrEnd(at: position)
        var descendants: UInt64 = 0
        if flags & RecordFlag.children != 0 { (descendants, position) = reader.ulebOrEnd(at: position) }
        let length: UInt64
        (length, position) = reader.ulebOrEnd(at: position)
        let clamp = { (value: UInt64) in Int(truncatingIfNeeded: min(value, UInt64(Int32.max))) }
        return RecordHeader(
            flags: flags, depth: clamp(depth), descendants: clamp(descendants), ranges: position,
            end: position + clamp(length))
    }

    /// Calls `body` with the start and size of each range of the record whose ranges start at `position` (their
    /// count first); returns where they end (the record's hull, when it has descendants, comes next).
    private func forEachRange(at position: Int, _ body: (_ start: UInt64, _ size: UInt64) -> Void) -> Int {
        let reader = reader
        var (count, next) = reader.ulebOrEnd(at: position)
        let limit = start + layout.sequences
        while count > 0, next < limit {
            let lower: UInt64, size: UInt64
            (lower, next) = reader.ulebOrEnd(at: next)
            (size, next) = reader.ulebOrEnd(at: next)
            body(base &+ lower, size)
            count -= 1
        }
        return next
    }

    /// Whether any range of the record whose ranges start at `position` covers `target`, and where they end.
    private func ranges(at position: Int, cover target: UInt64) -> (covers: Bool, end: Int) {
        var covers = false
        let end = forEachRange(at: position) { low, size in
            if low <= target, target &- low < size { covers = true }
        }
        return (covers, end)
    }

    /// The records that cover `address`, outermost first: a subprogram and the inlined copies within it.
    /// A record whose names are incomplete keeps its ``FunctionRecord/nameOrigin``.
    func functionChain(at address: FileAddress) -> [FunctionRecord] {
        functionChainIndices(at: address).map(record)
    }

    /// The positions (for ``record(_:)``: offsets in the unit's records) of the records that cover `address`,
    /// outermost first.
    func functionChainIndices(at address: FileAddress) -> [Int] {
        let recordsStart = start + layout.records, recordsEnd = start + layout.sequences
        guard let found = topLevel.value(containing: address), Int(found) < recordsEnd - recordsStart else { return [] }
        let target = address.rawValue
        let top = recordsStart + Int(found)
        let topHeader = header(at: top)
        var path: [(depth: Int, offset: Int)] = [(topHeader.depth, top)]
        var deepest = [top]
        var deepestDepth = topHeader.depth
        guard topHeader.flags & RecordFlag.children != 0 else { return [Int(found)] }
        var position = topHeader.end
        let end = min(recordsEnd, position + topHeader.descendants)
        while position < end {
            let record = header(at: position)
            guard record.end > position else { break }
            let (covers, rangesEnd) = ranges(at: record.ranges, cover: target)
            if record.flags & RecordFlag.children != 0 {
                // No record of a subtree whose hull misses the address can hold it.
                let (low, hullStart) = reader.ulebOrEnd(at: rangesEnd)
                let size = reader.ulebOrEnd(at: hullStart).value
                guard base &+ low <= target, target &- (base &+ low) < size else {
                    position = record.end + record.descendants
                    continue
                }
            } else if !covers {
                position = record.end
                continue
            }
            while let last = path.last, last.depth >= record.depth { path.removeLast() }
            path.append((record.depth, position))
            if covers, record.depth > deepestDepth {
                deepest = path.map { $0.offset }
                deepestDepth = record.depth
            }
            position = record.end
        }
        return deepest.map { $0 - recordsStart }
    }

    /// The row that covers `address` — the last row at or before it in the sequence that holds it — its
    /// file's path, and the address where the next row starts.
    /// - Complexity: O(log rows).
    func row(containing address: FileAddress) -> (row: LineRow, file: String?, end: FileAddress)? {
        for entry in sequences.entries(containing: address) {
            if let found = row(inSequence: entry, containing: address.rawValue) { return found }
        }
        return nil
    }

    private func row(inSequence entry: Int, containing target: UInt64) -> (
        row: LineRow, file: String?, end: FileAddress
    )? {
        let (sequenceStart, sequenceEnd) = sequences.range(entry)
        let rowsEnd = start + layout.files
        // Bytes from a damaged file may say anything: no arithmetic here may trap.
        guard sequenceStart <= target else { return nil }
        let rows = rowsHeader(ofSequence: entry)
        guard rows.count > 0, rows.blocks > 0 else { return nil }
        // The block whose first address is the last at or below the target, and where the next block starts.
        let offset = target - sequenceStart
        var low = 0, high = rows.blocks
        while low < high {
            let middle = (low + high) / 2
            if rows.blockOffset(middle) <= offset { low = middle + 1 } else { high = middle }
        }
        let block = max(low - 1, 0)
        let blockStart = sequenceStart &+ rows.blockOffset(block)
        let nextBlockStart = block + 1 < rows.blocks ? sequenceStart &+ rows.blockOffset(block + 1) : sequenceEnd
        var rowsInBlock = rows.rowCount(inBlock: block)
        var position = rows.blockStart(block)
        var found: LineRow?
        var rowAddress = blockStart
        var line: Int64 = 0
        let reader = reader
        while rowsInBlock > 0, position < rowsEnd {
            let row = nextRow(at: &position, after: &rowAddress, line: &line, in: reader)
            if row.address.rawValue > target {
                guard let found else { return nil }
                return (found, path(ofFile: found.file), row.address)
            }
            found = row
            rowsInBlock -= 1
        }
        guard let found else { return nil }
        return (found, path(ofFile: found.file), FileAddress(nextBlockStart))
    }

    /// The row at `position` of a block, whose row before was at `address` on `line` (the block's first address and 0
    /// for its first row); moves all three on to it.
    private func nextRow(
        at position: inout Int, after address: inout UInt64, line: inout Int64, in reader: ByteReader
    ) -> LineRow {
        let delta: UInt64, file: UInt64, zigzag: UInt64, column: UInt64
        (delta, position) = reader.ulebOrEnd(at: position)
        (file, position) = reader.ulebOrEnd(at: position)
        (zigzag, position) = reader.ulebOrEnd(at: position)
        (column, position) = reader.ulebOrEnd(at: position)
        address = address &+ delta
        line = line &+ (Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
        return LineRow(
            address: FileAddress(address), file: UInt32(truncatingIfNeeded: file),
            line: UInt32(truncatingIfNeeded: line), column: UInt32(truncatingIfNeeded: column))
    }

    /// Where a sequence's rows are: their count, and their blocks (one, without an index, for up to
    /// ``rowsPerBlock`` rows; else an index of each block's first address, as an offset from the sequence's start,
    /// and its offset after the index).
    /// Read within a method of its unit, which keeps the bytes alive: a reference to the unit here was counted on
    /// every lookup, a count that every thread writes.
    private struct RowsHeader {
        let reader: ByteReader
        let count: UInt64
        /// Where the block index starts (the single block, when there is no index).
        let index: Int
        /// How many blocks (entries of the index).
        let blocks: Int
        let hasIndex: Bool

        func blockOffset(_ block: Int) -> UInt64 { hasIndex ? UInt64(reader.u32OrZero(at: index + block * 8)) : 0 }
        func blockStart(_ block: Int) -> Int {
            hasIndex ? index + blocks * 8 + Int(reader.u32OrZero(at: index + block * 8 + 4)) : index
        }
        func rowCount(inBlock block: Int) -> UInt64 {
            let first = UInt64(block) * UInt64(FlatUnit.rowsPerBlock)
            return min(UInt64(FlatUnit.rowsPerBlock), count > first ? count - first : 0)
        }
    }

    private func rowsHeader(ofSequence entry: Int) -> RowsHeader {
        let rowsEnd = start + layout.files
        let (count, position) = reader.ulebOrEnd(at: start + layout.rows + Int(sequences.value(entry)))
        guard count > UInt64(Self.rowsPerBlock) else {
            return RowsHeader(
                reader: reader, count: count, index: position, blocks: position < rowsEnd ? 1 : 0, hasIndex: false)
        }
        let (blockCount, index) = reader.ulebOrEnd(at: position)
        let blocks = Int(min(blockCount, UInt64(max(0, rowsEnd - index) / 8)))
        return RowsHeader(reader: reader, count: count, index: index, blocks: blocks, hasIndex: true)
    }

    /// Every row of the sequence at `entry` of the sequence table, which starts at `sequenceStart`.
    private func rows(inSequence entry: Int, from sequenceStart: UInt64) -> [LineRow] {
        let rowsEnd = start + layout.files
        let header = rowsHeader(ofSequence: entry)
        let reader = reader
        var rows: [LineRow] = []
        for block in 0..<header.blocks {
            var position = header.blockStart(block)
            var rowAddress = sequenceStart &+ header.blockOffset(block)
            var line: Int64 = 0
            for _ in 0..<header.rowCount(inBlock: block) where position < rowsEnd {
                rows.append(nextRow(at: &position, after: &rowAddress, line: &line, in: reader))
            }
        }
        return rows
    }

    private func path(ofFile index: UInt32) -> String? {
        Int(index) < layout.fileCount
            ? string(reference: UInt64(reader.u32OrZero(at: start + layout.files + Int(index) * 4)) << 1) : nil
    }

    // MARK: Records

    /// The record at `offset` in the unit's records (a position ``functionChainIndices(at:)`` gave); its `parent`
    /// is left out (lookups find parents by position).
    func record(_ offset: Int) -> FunctionRecord {
        recordAndNamePlace(offset).record
    }

    /// The record at `offset` in the unit's records, and the place of the name it is shown by (its linkage name, else
    /// its name): where the debug file holds it, when it is stored in place, or its place among the unit's own strings
    /// in the unit's ``stringsNamespace``: a key for the name that costs nothing to hash.
    /// - Parameter shownNameOnly: leave out the record's plain name when it has a linkage name, which is the name
    ///   lookups show (the name is a string found and copied for every record a lookup meets).
    func recordAndNamePlace(_ offset: Int, shownNameOnly: Bool = false) -> (record: FunctionRecord, namePlace: UInt64?)
    {
        let header = header(at: start + layout.records + offset)
        let reader = reader
        var value: UInt64 = 0
        var ranges: [AddressRange] = []
        var position = forEachRange(at: header.ranges) { low, size in
            ranges.append(AddressRange(lowerBound: low, upperBound: low &+ size))
        }
        if header.flags & RecordFlag.children != 0 {
            position = reader.ulebOrEnd(at: reader.ulebOrEnd(at: position).next).next
        }
        let flags = header.flags
        func optional(_ flag: UInt64) -> UInt64? {
            guard flags & flag != 0 else { return nil }
            (value, position) = reader.ulebOrEnd(at: position)
            return value
        }
        func number() -> Int {
            (value, position) = reader.ulebOrEnd(at: position)
            return Int(truncatingIfNeeded: min(value, UInt64(Int32.max)))
        }
        let name = optional(RecordFlag.name), linkageName = optional(RecordFlag.linkageName)
        let callFile = optional(RecordFlag.callFile), nameOrigin = optional(RecordFlag.nameOrigin)
        let isInlined = flags & RecordFlag.inlined != 0
        let callLine = isInlined ? number() : 0, callColumn = isInlined ? number() : 0
        let declarationLine = number()
        let depth = header.depth
        let record = FunctionRecord(
            name: shownNameOnly && linkageName != nil ? nil : string(reference: name),
            linkageName: string(reference: linkageName),
            ranges: ranges,
            parent: nil, depth: depth, isInlined: isInlined, callFile: string(reference: callFile),
            callLine: callLine, callColumn: callColumn, declarationLine: declarationLine, nameOrigin: nameOrigin)
        let shown = record.linkageName != nil ? linkageName : name
        guard let shown else { return (record, nil) }
        // Odd: twice the file offset plus one; even: twice the offset among the unit's own strings.
        if shown & 1 != 0 { return (record, shown >> 1) }
        return (record, stringsNamespace.map { $0 | shown >> 1 })
    }

    /// A stored string: in the unit's own strings (an even reference, twice the offset), or in place in the debug
    /// file (odd, twice the file offset plus one).
    /// The string `reference` names; `nil` for none. Called directly, not passed as a function: a method passed as a
    /// function counts a reference to the unit, a count that every thread writes.
    private func string(reference: UInt64?) -> String? {
        guard let reference else { return nil }
        let offset = reference >> 1
        if reference & 1 != 0 {
            // Through optional chaining: bound to a name, the debug file's bytes are counted once more.
            guard offset < UInt64(inPlace?.count ?? 0) else { return nil }
            return inPlace?.string(at: Int(offset))
        }
        guard offset < UInt64(layout.end - layout.strings) else { return nil }
        return bytes.string(at: start + layout.strings + Int(offset), limit: start + layout.end)
    }

    // MARK: Repacking

    /// Everything the unit holds, decoded: its records (with their parents) and its line table, for packing again
    /// (the index cache writer completes names and stores them in place).
    func contents() -> UnitContents {
        var functions: [FunctionRecord] = []
        var ancestors: [(depth: Int, index: Int)] = []
        var position = start + layout.records
        let end = start + layout.sequences
        while position < end {
            let offset = position - start - layout.records
            var record = record(offset)
            while let last = ancestors.last, last.depth >= record.depth { ancestors.removeLast() }
            record.parent = ancestors.last?.index
            ancestors.append((record.depth, functions.count))
            functions.append(record)
            let next = header(at: position).end
            guard next > position else { break }
            position = next
        }
        var sequenceList: [LineSequence] = []
        for entry in 0..<sequences.count {
            let (sequenceStart, sequenceEnd) = sequences.range(entry)
            sequenceList.append(
                LineSequence(rows: rows(inSequence: entry, from: sequenceStart), endAddress: FileAddress(sequenceEnd)))
        }
        let files = (0..<layout.fileCount).map { path(ofFile: UInt32($0)) ?? "" }
        return UnitContents(functions: functions, lineTable: LineTable(sequences: sequenceList, files: files))
    }
}
