import PostmortemCore
/// A symbol table as bytes, for the on-disk index cache: written once, read back with no sorting and
/// no object-file parsing.
///
/// Layout (little-endian): entry count (u64), names length (u64), section-name count (u32), section-range
/// count (u32); per entry address (u64), size (u64), name offset (u64), source-file offset (u64, all
/// ones for none), section index (u32, all ones for none), kind and flags (u32: bit 0 set for an object, else a function; bit 1 set for a local symbol); the names
/// buffer; then each section name and each section range as a length-prefixed (u32) name, the range's
/// bounds following as two u64.
extension SymbolTable {
    static let entrySize = 40

    /// The table as bytes that ``init(decoding:in:)`` reads back.
    public func encoded() -> [UInt8] {
        let table = sorted()
        let (entries, names) = table.entriesWithCompactNames()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24 + entries.count * Self.entrySize + names.count + 64)
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
        for entry in entries {
            append(entry.address.rawValue)
            append(entry.size)
            append(UInt64(entry.name))
            append(entry.sourceFile < 0 ? UInt64.max : UInt64(entry.sourceFile))
            append(entry.section < 0 ? UInt32.max : UInt32(entry.section))
            append(UInt32(entry.kind == .function ? 0 : 1) | (entry.isLocal ? 2 : 0))
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

    /// The table that ``encoded()`` wrote into `range` of `bytes`, read in place: entries and names stay
    /// in `bytes` (the caller has checked them against a checksum); only the section names and ranges are
    /// copied. `nil` when the counts do not fit the range.
    /// - Complexity: O(sections).
    public init?(mapping bytes: ImmutableBytes, in range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= 24 else { return nil }
        var offset = range.lowerBound
        let end = range.upperBound
        let entryCount = bytes.u64(at: offset), namesLength = bytes.u64(at: offset + 8)
        let sectionNameCount = Int(bytes.u32(at: offset + 16)), sectionRangeCount = Int(bytes.u32(at: offset + 20))
        offset += 24
        guard entryCount <= UInt64(end - offset) / UInt64(Self.entrySize),
              namesLength <= UInt64(end - offset) - entryCount * UInt64(Self.entrySize) else { return nil }
        let entriesStart = offset
        let namesStart = offset + Int(entryCount) * Self.entrySize
        let names = namesStart..<namesStart + Int(namesLength)
        guard names.isEmpty || bytes.u8(at: names.upperBound - 1) == 0 else { return nil }
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
        self.init(storage: .mapped(bytes: bytes, entries: entriesStart, count: Int(entryCount), names: names),
                  sectionNames: sectionNames, sectionRanges: sectionRanges)
    }
}
