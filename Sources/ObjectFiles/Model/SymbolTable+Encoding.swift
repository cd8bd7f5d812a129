import PostmortemCore

/// A symbol table as bytes, for the on-disk index cache: written once, read back with no sorting and
/// no object-file parsing.
///
/// Layout (little-endian): a 40-byte header — entry count (u64), length of the names stored here (u64; 0 when the
/// names are read in place), section-name count (u32), section-range count (u32), base address (u64), flags (u32:
/// bit 0 wide entries, bit 1 names in place), padding (u32); the entries; the names buffer; then each section name
/// and each section range as a length-prefixed (u32) name, the range's bounds following as two u64.
/// An entry is address, size (u32, clamped), name offset (u32), source-file offset (u32, all ones for none), and
/// section index (24 bits, all ones for none) with flags (8 bits: bit 0 an object, else a function; bit 1 a local
/// symbol). Narrow entries (20 bytes) hold the address as a u32 offset from the base, which any table whose
/// symbols span less than 4 GiB can use; wide ones (24 bytes) hold it as a u64.
/// Names in place are offsets in the file the table was read from (the caller's to map and hand back): a Swift
/// binary's symbol names are megabytes, which the cache need not copy.
extension SymbolTable {
    static let headerSize = 40
    private static let wideFlag: UInt32 = 1, namesInPlaceFlag: UInt32 = 2

    /// The table as bytes that ``init(mapping:in:names:)`` reads back. With `namesInPlace`, names stay offsets in
    /// the file the table was read from, whose bytes the reader must hand back; that takes a table read from a file
    /// (``ELFReader``) of less than 4 GiB, and is ignored otherwise.
    package func encoded(namesInPlace: Bool = false) -> [UInt8] {
        let table = sorted()
        let (source, _, _) = table.nameStorage
        let inPlace = namesInPlace && table.namesAreTheirFile && source.count <= Int(UInt32.max)
        let (entries, names) = inPlace ? (table.namedEntries(), []) : table.entriesWithCompactNames()
        let base = entries.first?.address.rawValue ?? 0
        let isWide = (entries.last?.address.rawValue ?? 0) - base > UInt64(UInt32.max)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + entries.count * (isWide ? 24 : 20) + names.count + 64)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func append(name: String) {
            append(UInt32(name.utf8.count))
            bytes.append(contentsOf: name.utf8)
        }
        append(UInt64(entries.count))
        append(UInt64(names.count))
        append(UInt32(sectionNames.count))
        append(UInt32(sectionRanges.count))
        append(base)
        append((isWide ? Self.wideFlag : 0) | (inPlace ? Self.namesInPlaceFlag : 0))
        append(UInt32(0))
        for entry in entries {
            if isWide { append(entry.address.rawValue) } else { append(UInt32(entry.address.rawValue - base)) }
            append(UInt32(clamping: entry.size))
            append(UInt32(entry.name))
            append(entry.sourceFile < 0 ? UInt32.max : UInt32(entry.sourceFile))
            let section = entry.section < 0 || entry.section >= 0xFF_FFFF ? UInt32(0xFF_FFFF) : UInt32(entry.section)
            append(section | (entry.kind == .function ? 0 : 1) << 24 | (entry.isLocal ? 2 : 0) << 24)
        }
        bytes.append(contentsOf: names)
        for name in sectionNames { append(name: name) }
        for (name, range) in sectionRanges.sorted(by: { $0.key < $1.key }) {
            append(name: name)
            append(range.lowerBound.rawValue)
            append(range.upperBound.rawValue)
        }
        return bytes
    }

    /// Whether the names are read from the mapping of the file the table was read from (not a buffer of their own).
    private var namesAreTheirFile: Bool {
        guard case .arrays(_, let names, _) = storage else { return false }
        return names.isMappedFile
    }

    /// The entries with a name (in place: nameless ones are left out, names not copied).
    private func namedEntries() -> [Entry] {
        let (source, base, _) = nameStorage
        return (0..<count).compactMap { index -> Entry? in
            let entry = entry(index)
            return source.u8(at: base + entry.name) != 0 && entry.name <= Int(UInt32.max) ? entry : nil
        }
    }

    /// The entries with their names copied into one buffer of their own (a table read from a file names
    /// its symbols inside the whole file's bytes), each distinct name once; nameless entries left out.
    private func entriesWithCompactNames() -> ([Entry], [UInt8]) {
        let (source, base, limit) = nameStorage
        var names: [UInt8] = []
        var copied: [Int: Int] = [:]
        func copy(_ offset: Int) -> Int {
            if let known = copied[offset] { return known }
            let start = names.count
            var position = base + offset
            while position < limit, case let byte = source.u8(at: position), byte != 0 {
                names.append(byte)
                position += 1
            }
            names.append(0)
            copied[offset] = start
            return start
        }
        let entries = (0..<count).compactMap { index -> Entry? in
            var entry = entry(index)
            guard source.u8(at: base + entry.name) != 0 else { return nil }
            entry.name = copy(entry.name)
            if entry.sourceFile >= 0 { entry.sourceFile = copy(entry.sourceFile) }
            return entry
        }
        return (entries, names)
    }

    /// The table that ``encoded(namesInPlace:)`` wrote into `range` of `bytes`, read in place: entries and names stay
    /// in `bytes` (the caller has checked them against a checksum), or in `names` (the file the table was read from)
    /// when they were written in place; only the section names and ranges are copied. `nil` when the counts do not
    /// fit the range, or the names are in place and `names` is not given.
    /// - Complexity: O(sections).
    package init?(mapping bytes: ImmutableBytes, in range: Range<Int>, names file: ImmutableBytes? = nil) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= Self.headerSize else { return nil }
        var offset = range.lowerBound
        let end = range.upperBound
        let entryCount = bytes.u64(at: offset), namesLength = bytes.u64(at: offset + 8)
        let sectionNameCount = Int(bytes.u32(at: offset + 16)), sectionRangeCount = Int(bytes.u32(at: offset + 20))
        let base = bytes.u64(at: offset + 24), flags = bytes.u32(at: offset + 32)
        let entrySize = flags & Self.wideFlag != 0 ? 24 : 20
        offset += Self.headerSize
        guard entryCount <= UInt64(end - offset) / UInt64(entrySize),
            namesLength <= UInt64(end - offset) - entryCount * UInt64(entrySize)
        else { return nil }
        let entriesStart = offset
        let namesStart = offset + Int(entryCount) * entrySize
        let names = namesStart..<namesStart + Int(namesLength)
        guard names.isEmpty || bytes.u8(at: names.upperBound - 1) == 0 else { return nil }
        let layout = MappedLayout(entries: entriesStart, count: Int(entryCount), base: base, entrySize: entrySize)
        let nameBytes: (ImmutableBytes, Range<Int>)
        if flags & Self.namesInPlaceFlag != 0 {
            guard let file else { return nil }
            nameBytes = (file, 0..<file.count)
        } else {
            nameBytes = (bytes, names)
        }
        offset = names.upperBound
        func readName() -> String? {
            let length = Int(bytes.u32(at: offset))
            guard offset + 4 + length <= end else { return nil }
            defer { offset += 4 + length }
            return String(decoding: bytes.bytes(offset + 4..<offset + 4 + length), as: UTF8.self)
        }
        var sectionNames: [String] = []
        for _ in 0..<sectionNameCount {
            guard let name = readName() else { return nil }
            sectionNames.append(name)
        }
        var sectionRanges: [String: AddressRange] = [:]
        for _ in 0..<sectionRangeCount {
            guard let name = readName(), offset + 16 <= end else { return nil }
            let lower = bytes.u64(at: offset), upper = bytes.u64(at: offset + 8)
            guard lower <= upper else { return nil }
            sectionRanges[name] = AddressRange(FileAddress(lower), FileAddress(upper))
            offset += 16
        }
        self.init(
            storage: .mapped(bytes: bytes, layout: layout, names: nameBytes.0, nameRange: nameBytes.1),
            sectionNames: sectionNames, sectionRanges: sectionRanges)
    }
}
