/// The function and data symbols of an object file, sorted by address for lookups.
///
/// The table is kept compact: addresses, sizes and offsets into one buffer of NUL-terminated names.
/// A ``Symbol``, with its strings, is made only for what a lookup returns: a Swift binary holds tens of
/// thousands of symbols and a lookup needs one.
public struct SymbolTable: Sendable {
    /// One symbol as the table stores it; names are offsets into ``names``.
    struct Entry: Sendable {
        var address: FileAddress
        var size: UInt64
        var kind: Symbol.Kind
        /// Offset of the NUL-terminated name.
        var name: Int
        /// Index into ``sectionNames``, or -1.
        var section: Int32
        /// Offset of the NUL-terminated `STT_FILE` name before a local symbol, or -1.
        var sourceFile: Int
    }

    let entries: [Entry]
    let names: [UInt8]
    let sectionNames: [String]
    /// The address range of each section symbols lie in, which bounds symbols that declare no size.
    let sectionRanges: [String: AddressRange]

    /// How many symbols the table holds.
    public var count: Int { entries.count }

    /// Sorts `symbols` and drops duplicates (the same symbol in `.symtab` and `.dynsym`).
    /// - Parameter sections: the file's sections; a symbol without a size covers no address outside its own.
    public init(symbols: [Symbol], sections: [Section] = []) {
        var names: [UInt8] = []
        var sectionNames: [String] = []
        var sectionIndex: [String: Int32] = [:]
        func store(_ text: String) -> Int {
            let offset = names.count
            names.append(contentsOf: text.utf8)
            names.append(0)
            return offset
        }
        let entries = symbols.map { symbol -> Entry in
            var section: Int32 = -1
            if let name = symbol.sectionName {
                if let known = sectionIndex[name] { section = known } else {
                    section = Int32(sectionNames.count)
                    sectionIndex[name] = section
                    sectionNames.append(name)
                }
            }
            return Entry(address: symbol.address, size: symbol.size, kind: symbol.kind, name: store(symbol.name),
                         section: section, sourceFile: symbol.sourceFile.map(store) ?? -1)
        }
        self.init(entries: entries, names: names, sectionNames: sectionNames, sections: sections)
    }

    /// Sorts `entries` and drops duplicates; `names` must end with a NUL.
    init(entries: [Entry], names: [UInt8], sectionNames: [String], sections: [Section]) {
        var ranges: [String: AddressRange] = [:]
        for section in sections where section.isAllocated && ranges[section.name] == nil { ranges[section.name] = section.addressRange }
        sectionRanges = ranges
        self.names = names
        self.sectionNames = sectionNames
        let sorted = entries.sorted { lhs, rhs in
            if lhs.address != rhs.address { return lhs.address < rhs.address }
            if (lhs.size == 0) != (rhs.size == 0) { return lhs.size != 0 }
            return Self.compare(names, lhs.name, rhs.name) < 0
        }
        var unique: [Entry] = []
        unique.reserveCapacity(sorted.count)
        for entry in sorted {
            if let last = unique.last, last.address == entry.address, Self.compare(names, last.name, entry.name) == 0 { continue }
            unique.append(entry)
        }
        self.entries = unique
    }

    /// A table whose entries are already sorted and unique (read back from ``encoded()``).
    init(sortedEntries: [Entry], names: [UInt8], sectionNames: [String], sectionRanges: [String: AddressRange]) {
        entries = sortedEntries
        self.names = names
        self.sectionNames = sectionNames
        self.sectionRanges = sectionRanges
    }

    /// The symbol that covers `address`, and how far into it the address lies.
    ///
    /// A symbol with a size covers exactly its bytes; one without covers everything up to the
    /// next symbol's address, but not past the end of its section.
    /// - Complexity: O(log n).
    public func symbol(containing address: FileAddress) -> (symbol: Symbol, offset: UInt64)? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        // `low` is the first symbol past `address`; the group before it shares one address.
        guard low > 0 else { return nil }
        let groupAddress = entries[low - 1].address
        var groupStart = low - 1
        while groupStart > 0, entries[groupStart - 1].address == groupAddress { groupStart -= 1 }
        let offset = address.rawValue - groupAddress.rawValue
        let group = entries[groupStart..<low]
        if let sized = group.first(where: { $0.size > offset }) { return (symbol(for: sized), offset) }
        if let unsized = group.first(where: { $0.size == 0 && isInOwnSection(address, $0) }) { return (symbol(for: unsized), offset) }
        return nil
    }

    /// The symbol named `name`, for `info line FUNCTION`-style lookups.
    /// - Complexity: O(n).
    public func symbol(named name: String) -> Symbol? {
        let wanted = Array(name.utf8)
        return entries.first { Self.compare(names, $0.name, wanted) == 0 }.map(symbol(for:))
    }

    private func isInOwnSection(_ address: FileAddress, _ entry: Entry) -> Bool {
        guard entry.section >= 0, let range = sectionRanges[sectionNames[Int(entry.section)]] else { return true }
        return range.contains(address) || (range.isEmpty && range.lowerBound == address)
    }

    private func symbol(for entry: Entry) -> Symbol {
        Symbol(name: string(at: entry.name), address: entry.address, size: entry.size, kind: entry.kind,
               sectionName: entry.section >= 0 ? sectionNames[Int(entry.section)] : nil,
               sourceFile: entry.sourceFile >= 0 ? string(at: entry.sourceFile) : nil)
    }

    private func string(at offset: Int) -> String {
        let end = names[offset...].firstIndex(of: 0) ?? names.endIndex
        return String(decoding: names[offset..<end], as: UTF8.self)
    }

    /// Compares the NUL-terminated names at two offsets of `names`, byte by byte.
    private static func compare(_ names: [UInt8], _ lhs: Int, _ rhs: Int) -> Int {
        var left = lhs, right = rhs
        while true {
            let a = names[left], b = names[right]
            if a != b { return a < b ? -1 : 1 }
            if a == 0 { return 0 }
            left += 1
            right += 1
        }
    }

    /// Compares the NUL-terminated name at `offset` with `bytes` (no NUL).
    private static func compare(_ names: [UInt8], _ offset: Int, _ bytes: [UInt8]) -> Int {
        for (index, byte) in bytes.enumerated() {
            let stored = names[offset + index]
            if stored != byte { return stored < byte ? -1 : 1 }
        }
        return names[offset + bytes.count] == 0 ? 0 : 1
    }
}
