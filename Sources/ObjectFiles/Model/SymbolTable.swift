import PostmortemCore

/// The function and data symbols of an object file, for lookups by address.
///
/// The table is kept compact: addresses, sizes and offsets of NUL-terminated names, either in arrays
/// (read from an object file, the names left in the file's mapping) or in place in a mapped index-cache
/// file (see ``init(mapping:in:)``). A ``Symbol``, with its strings, is made only for what a lookup returns:
/// a Swift binary holds over 100,000 symbols and a lookup needs one.
///
/// A table read from an ELF file keeps the file's order until ``sorted()`` sorts it; lookups in such a table
/// scan it. Sorting a large table costs as much as hundreds of scans, so one who looks up a few addresses
/// never pays for it, and one who looks up many sorts first. Both answer alike.
package struct SymbolTable: Sendable {
    /// One symbol as the table stores it; names are offsets into the names bytes. The fields are laid out widest
    /// first, so that an entry takes 40 bytes, not 48 (a Swift binary's table holds over 100,000).
    struct Entry: Sendable {
        var address: FileAddress
        var size: UInt64
        /// Offset of the NUL-terminated name.
        var name: Int
        /// Offset of the NUL-terminated `STT_FILE` name before a local symbol, or -1.
        var sourceFile: Int
        /// Index into ``sectionNames``, or -1.
        var section: Int32
        var kind: Symbol.Kind
        /// Local to its object file (`STB_LOCAL`): gdb names an address after a global alias before a local one.
        var isLocal: Bool

        init(
            address: FileAddress, size: UInt64, kind: Symbol.Kind, name: Int, section: Int32, sourceFile: Int,
            isLocal: Bool = false
        ) {
            (self.address, self.size, self.kind, self.name, self.section, self.sourceFile) = (
                address, size, kind, name, section, sourceFile
            )
            self.isLocal = isLocal
        }
    }

    /// Where the entries and names are: arrays (in file order or sorted), or the bytes of ``encoded()`` in a mapped file.
    enum Storage: Sendable {
        case arrays(entries: [Entry], names: ImmutableBytes, isSorted: Bool)
        case mapped(bytes: ImmutableBytes, layout: MappedLayout, names: ImmutableBytes, nameRange: Range<Int>)
    }

    /// Where the entries of an encoded table lie, and how wide they are (see ``encoded(namesInPlace:)``).
    struct MappedLayout: Sendable {
        var entries: Int
        var count: Int
        /// What narrow entries' addresses count from.
        var base: UInt64
        var entrySize: Int

        /// The address of the entry at `index` of `bytes`.
        func address(_ index: Int, in bytes: ImmutableBytes) -> FileAddress {
            let offset = entries + index * entrySize
            return FileAddress(entrySize == 24 ? bytes.u64(at: offset) : base &+ UInt64(bytes.u32(at: offset)))
        }
    }

    /// What the table holds, in one object: a lookup hands the table around several times, and a copy of a struct of
    /// these fields retained each of them through the runtime's generic value witnesses (a tenth of a warm lookup).
    private final class Contents: Sendable {
        let storage: Storage
        let sectionNames: [String]
        let sectionRanges: [String: AddressRange]
        // What lookups read, taken out of `storage` once, its bytes not counted (`storage` keeps them alive). Matching on
        // `storage` copies the references it holds, and each copy is a retain and a release on objects that every
        // thread looking up shares, and threads that write one count at once wait for each other's cores.
        /// The entries of a table held in arrays; empty for a mapped one.
        let entries: [Entry]
        /// Whether the entries are bytes of an encoded table (``mappedBytes``, laid out as ``layout`` says).
        let isMapped: Bool
        /// The bytes of a mapped table's entries; the names' bytes for a table in arrays (not read).
        let mappedBytes: Unmanaged<ImmutableBytes>
        let layout: MappedLayout
        /// The bytes names are read from, and the offset their offsets count from.
        let names: Unmanaged<ImmutableBytes>
        let nameBase: Int
        let nameLimit: Int
        let isSorted: Bool

        init(storage: Storage, sectionNames: [String], sectionRanges: [String: AddressRange]) {
            self.storage = storage
            self.sectionNames = sectionNames
            self.sectionRanges = sectionRanges
            switch storage {
            case .arrays(let entries, let names, let isSorted):
                (self.entries, isMapped, nameBase, nameLimit) = (entries, false, 0, names.count)
                self.names = Unmanaged.passUnretained(names)
                (mappedBytes, layout) = (self.names, MappedLayout(entries: 0, count: 0, base: 0, entrySize: 20))
                self.isSorted = isSorted
            case .mapped(let bytes, let layout, let names, let range):
                (entries, isMapped, self.layout) = ([], true, layout)
                (mappedBytes, self.names) = (Unmanaged.passUnretained(bytes), Unmanaged.passUnretained(names))
                (nameBase, nameLimit, isSorted) = (range.lowerBound, range.upperBound, true)
            }
        }

        /// Reads of a mapped table's entries.
        @inline(__always) func withMapped<Result>(_ body: (ImmutableBytes) -> Result) -> Result {
            mappedBytes._withUnsafeGuaranteedRef(body)
        }

        /// Reads of the names.
        @inline(__always) func withNames<Result>(_ body: (ImmutableBytes) -> Result) -> Result {
            names._withUnsafeGuaranteedRef(body)
        }
    }

    private let contents: Contents

    var storage: Storage { contents.storage }
    var sectionNames: [String] { contents.sectionNames }
    /// The address range of each section symbols lie in, which bounds symbols that declare no size.
    var sectionRanges: [String: AddressRange] { contents.sectionRanges }

    /// How many entries the table holds (with any nameless ones a file lists, which lookups skip).
    package var count: Int { contents.isMapped ? contents.layout.count : contents.entries.count }

    /// True when entries are in address order (as lookups by binary search need), false while in file order.
    package var isSorted: Bool { contents.isSorted }

    /// The bytes names are read from, and the offset their offsets count from.
    var nameStorage: (bytes: ImmutableBytes, base: Int, limit: Int) {
        switch storage {
        case .arrays(_, let names, _): (names, 0, names.count)
        case .mapped(_, _, let names, let range): (names, range.lowerBound, range.upperBound)
        }
    }

    /// The entry at `index` (below ``count``).
    func entry(_ index: Int) -> Entry {
        guard contents.isMapped else { return contents.entries[index] }
        let layout = contents.layout, sectionCount = sectionNames.count
        let namesCount = contents.withNames { $0.count }
        return contents.withMapped { bytes in
            let offset = Self.fieldsOffset(index, in: layout)
            let size = bytes.u32(at: offset + 4), name = bytes.u32(at: offset + Self.nameField),
                sourceFile = bytes.u32(at: offset + 12)
            let packed = bytes.u32(at: offset + 16)
            let section = packed & 0xFF_FFFF, flags = packed >> 24
            return Entry(
                address: layout.address(index, in: bytes), size: UInt64(size),
                kind: flags & 1 == 0 ? .function : .object, name: Self.nameOffset(name, within: namesCount),
                section: section == 0xFF_FFFF || Int(section) >= sectionCount ? -1 : Int32(section),
                sourceFile: sourceFile == .max || Int(sourceFile) >= namesCount ? -1 : Int(sourceFile),
                isLocal: flags & 2 != 0)
        }
    }

    /// The offset of the name of the entry at `index` in the names' storage, as ``entry(_:)`` gives it, without decoding
    /// the rest.
    private func nameOffset(_ index: Int) -> Int {
        guard contents.isMapped else { return contents.entries[index].name }
        let layout = contents.layout, namesCount = contents.withNames { $0.count }
        return contents.withMapped { bytes in
            Self.nameOffset(bytes.u32(at: Self.fieldsOffset(index, in: layout) + Self.nameField), within: namesCount)
        }
    }

    /// Where the fields after the address of the mapped entry at `index` start: size, name, source file, and section
    /// with flags, four bytes each.
    private static func fieldsOffset(_ index: Int, in layout: MappedLayout) -> Int {
        layout.entries + index * layout.entrySize + (layout.entrySize - 20)
    }

    /// The name's field among them.
    private static let nameField = 8

    /// A stored name offset, kept within the names' `count` bytes (a damaged one names their end).
    private static func nameOffset(_ stored: UInt32, within count: Int) -> Int {
        Int(min(UInt64(stored), UInt64(count)))
    }

    /// The address of the entry at `index`, without decoding the rest of it.
    private func address(_ index: Int) -> FileAddress {
        guard contents.isMapped else { return contents.entries[index].address }
        let layout = contents.layout
        return contents.withMapped { layout.address(index, in: $0) }
    }

    /// Sorts `symbols` and drops duplicates (the same symbol in `.symtab` and `.dynsym`).
    /// - Parameter sections: the file's sections; a symbol without a size covers no address outside its own.
    package init(symbols: [Symbol], sections: [Section] = []) {
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
                if let known = sectionIndex[name] {
                    section = known
                } else {
                    section = Int32(sectionNames.count)
                    sectionIndex[name] = section
                    sectionNames.append(name)
                }
            }
            return Entry(
                address: symbol.address, size: symbol.size, kind: symbol.kind, name: store(symbol.name),
                section: section, sourceFile: symbol.sourceFile.map(store) ?? -1, isLocal: symbol.isLocal)
        }
        self = SymbolTable(
            fileOrderEntries: entries, names: ImmutableBytes(names), sectionNames: sectionNames, sections: sections
        ).sorted()
    }

    /// A table of `entries` as the file lists them, unsorted; their names are NUL-terminated strings in `names`.
    /// An entry whose name is empty is no symbol: lookups skip it (so that neither a reader nor ``sorted()``
    /// need touch every name to find the empty ones).
    init(fileOrderEntries entries: [Entry], names: ImmutableBytes, sectionNames: [String], sections: [Section]) {
        var ranges: [String: AddressRange] = [:]
        for section in sections where section.isAllocated && ranges[section.name] == nil {
            ranges[section.name] = section.addressRange
        }
        self.init(
            storage: .arrays(entries: entries, names: names, isSorted: false), sectionNames: sectionNames,
            sectionRanges: ranges)
    }

    /// The table in address order, duplicates dropped; `self` when already sorted. Nameless entries stay (lookups
    /// skip them), so that sorting reads no names but those of symbols sharing an address.
    /// - Complexity: O(n log n) the first time.
    package func sorted() -> SymbolTable {
        guard case .arrays(let entries, let names, false) = storage else { return self }
        // By address, then (among symbols at one address) in ``ordered(group:_:)``; equal ones keep their order. In two
        // passes: a plain address sort is most of the work and compares integers only. The entries are copied once, into
        // their sorted places: a Swift binary's table is megabytes, and a copy in between doubled the pages it touched.
        let order = RadixSort.stableOrder(of: entries.map(\.address.rawValue))
        var unique: [Entry] = []
        unique.reserveCapacity(order.count)
        var groupStart = 0
        while groupStart < order.count {
            let address = entries[order[groupStart]].address
            var groupEnd = groupStart + 1
            while groupEnd < order.count, entries[order[groupEnd]].address == address { groupEnd += 1 }
            if groupEnd - groupStart > 1 {
                unique += Self.ordered(group: order[groupStart..<groupEnd].lazy.map { entries[$0] }, names)
            } else {
                unique.append(entries[order[groupStart]])
            }
            groupStart = groupEnd
        }
        return SymbolTable(
            storage: .arrays(entries: unique, names: names, isSorted: true), sectionNames: sectionNames,
            sectionRanges: sectionRanges)
    }

    /// The symbols at one address (given in file order), in the order a lookup prefers them, each name once: the
    /// largest first, and among equal sizes the one later in the file first. This is llvm-symbolizer's choice among
    /// aliases (`raise` over `gsignal`, which `.dynsym` lists before it; a C++ base-object constructor or destructor,
    /// `C2`/`D2`, over its complete-object alias), so that both tools name a frame alike.
    private static func ordered(group: some Collection<Entry>, _ names: ImmutableBytes) -> [Entry] {
        let preferred = group.enumerated().sorted { lhs, rhs in
            lhs.element.size != rhs.element.size ? lhs.element.size > rhs.element.size : lhs.offset > rhs.offset
        }
        // Each name once, its preferred entry kept. A few aliases are compared pairwise; a large group (thousands of
        // labels at one address, in some Swift binaries, whose mangled names share long prefixes) by a hash of each
        // name, names compared only when their hashes are equal: neither in the square of its size nor sorted.
        guard preferred.count > 16 else {
            var unique: [Entry] = []
            for (_, entry) in preferred where !unique.contains(where: { compare(names, $0.name, entry.name) == 0 }) {
                unique.append(entry)
            }
            return unique
        }
        var unique: [Entry] = []
        var byHash: [UInt64: [Int]] = [:]
        byHash.reserveCapacity(preferred.count)
        for (_, entry) in preferred {
            let hash = names.checksum(names.stringRange(at: entry.name))
            if let same = byHash[hash], same.contains(where: { compare(names, unique[$0].name, entry.name) == 0 }) {
                continue
            }
            byHash[hash, default: []].append(unique.count)
            unique.append(entry)
        }
        return unique
    }

    /// A table over storage whose entries are already sorted and unique (the bytes of ``encoded()``).
    init(storage: Storage, sectionNames: [String], sectionRanges: [String: AddressRange]) {
        contents = Contents(storage: storage, sectionNames: sectionNames, sectionRanges: sectionRanges)
    }

    /// The symbol that covers `address`, and how far into it the address lies.
    ///
    /// A symbol with a size covers exactly its bytes; one without covers everything up to the
    /// next symbol's address, but not past the end of its section.
    /// - Complexity: O(log n) when sorted; O(n) in file order.
    package func symbol(containing address: FileAddress) -> (symbol: Symbol, offset: UInt64)? {
        match(containing: address).map { (symbol(for: $0), $0.offset) }
    }

    /// A symbol found by address whose strings are not made yet (most lookups only compare its name).
    package struct Match: Sendable {
        let entry: Entry
        /// How far into the symbol the address lies.
        package let offset: UInt64
        /// Where the symbol starts.
        package var address: FileAddress { entry.address }
    }

    /// The symbol that covers `address`, as ``symbol(containing:)`` finds it, without making its strings.
    package func match(containing address: FileAddress) -> Match? {
        if !contents.isSorted, case .arrays(let entries, let names, _) = storage {
            guard let (groupAddress, group) = Self.fileOrderGroup(before: address, in: entries, names: names) else {
                return nil
            }
            return match(containing: address, in: group, at: groupAddress)
        }
        guard let (groupAddress, group) = sortedGroup(before: address) else { return nil }
        return match(containing: address, in: group.lazy.map(entry).filter(hasName), at: groupAddress)
    }

    /// Whether `entry` is a symbol: one with an empty name is not (see ``init(fileOrderEntries:names:sectionNames:sections:)``).
    private func hasName(_ entry: Entry) -> Bool {
        // An encoded table holds named entries only; its names may be in place in a large file, whose pages need not
        // be read to tell.
        if contents.isMapped { return true }
        let offset = contents.nameBase + entry.name
        return contents.withNames { $0.u8(at: offset) } != 0
    }

    /// Of the symbols at `groupAddress` (in ``ordered(group:_:)``), the one that covers `address`.
    private func match(containing address: FileAddress, in group: some Sequence<Entry>, at groupAddress: FileAddress)
        -> Match?
    {
        let offset = address.rawValue - groupAddress.rawValue
        if let sized = group.first(where: { $0.size > offset }) { return Match(entry: sized, offset: offset) }
        if let unsized = group.first(where: { $0.size == 0 && isInOwnSection(address, $0) }) {
            return Match(entry: unsized, offset: offset)
        }
        return nil
    }

    /// Every named symbol that starts where `match`'s does (its aliases), in the order a lookup prefers them.
    package func aliases(of match: Match) -> [Symbol] {
        if case .arrays(let entries, let names, false) = storage {
            return (Self.fileOrderGroup(before: match.address, in: entries, names: names)?.1 ?? []).map {
                symbol(for: $0)
            }
        }
        guard let (groupAddress, group) = sortedGroup(before: match.address), groupAddress == match.address else {
            return []
        }
        return group.lazy.map(entry).filter(hasName).map { symbol(for: $0) }
    }

    /// The symbol `match` found, with its strings.
    package func symbol(for match: Match) -> Symbol {
        symbol(for: match.entry)
    }

    /// Whether the symbol `match` found is named `name`, compared in place.
    package func name(of match: Match, is name: String) -> Bool {
        var name = name
        let offset = contents.nameBase + match.entry.name
        return name.withUTF8 { wanted in contents.withNames { $0.stringEquals(at: offset, wanted) } }
    }

    /// In a table in file order: the named symbols at the highest address at or below `address`, in ``ordered(group:_:)``.
    private static func fileOrderGroup(before address: FileAddress, in entries: [Entry], names: ImmutableBytes) -> (
        FileAddress, [Entry]
    )? {
        var best: FileAddress?
        var group: [Entry] = []
        for entry in entries where entry.address <= address && best.map({ entry.address >= $0 }) ?? true {
            guard names.u8(at: entry.name) != 0 else { continue }
            if best.map({ entry.address > $0 }) ?? true {
                best = entry.address
                group = [entry]
            } else if entry.address == best {
                group.append(entry)
            }
        }
        guard let best else { return nil }
        guard group.count > 1 else { return (best, group) }
        return (best, ordered(group: group, names))
    }

    /// In a sorted table: the positions of the symbols at the highest address at or below `address` that has a
    /// named one (the nameless among them are the caller's to skip).
    private func sortedGroup(before address: FileAddress) -> (FileAddress, Range<Int>)? {
        var groupEnd = firstIndex(after: address)
        // `groupEnd` is the first symbol past `address`; the group before it shares one address. A group of
        // nameless entries alone is no group: the one before it answers.
        while groupEnd > 0 {
            let groupAddress = self.address(groupEnd - 1)
            // Only damaged bytes (a cache file read without its checksums) can put a higher address before.
            guard groupAddress <= address else { return nil }
            var groupStart = groupEnd - 1
            while groupStart > 0, self.address(groupStart - 1) == groupAddress { groupStart -= 1 }
            if (groupStart..<groupEnd).contains(where: { hasName(entry($0)) }) {
                return (groupAddress, groupStart..<groupEnd)
            }
            groupEnd = groupStart
        }
        return nil
    }

    /// In a sorted table: the position of the first symbol above `address` (``count`` when there is none).
    private func firstIndex(after address: FileAddress) -> Int {
        var low = 0, high = count
        if contents.isMapped {
            let layout = contents.layout
            contents.withMapped { bytes in
                while low < high {
                    let middle = (low + high) / 2
                    if layout.address(middle, in: bytes) <= address { low = middle + 1 } else { high = middle }
                }
            }
        } else {
            let entries = contents.entries
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].address <= address { low = middle + 1 } else { high = middle }
            }
        }
        return low
    }

    /// The symbol named `name`, for `info line FUNCTION`-style lookups: of several, the one at the lowest
    /// address (a sized one before one without a size), whether the table is sorted or not.
    /// - Complexity: O(n).
    package func symbol(named name: String) -> Symbol? {
        let wanted = Array(name.utf8)
        guard !wanted.isEmpty else { return nil }
        let (bytes, base, _) = nameStorage
        var found: Entry?
        for index in 0..<count where bytes.stringEquals(at: base + nameOffset(index), wanted) {
            let entry = entry(index)
            if isSorted { return symbol(for: entry) }
            if let best = found, (best.address, best.size == 0 ? 1 : 0) <= (entry.address, entry.size == 0 ? 1 : 0) {
                continue
            }
            found = entry
        }
        return found.map(symbol(for:))
    }

    private func isInOwnSection(_ address: FileAddress, _ entry: Entry) -> Bool {
        guard entry.section >= 0, let range = sectionRanges[sectionNames[Int(entry.section)]] else { return true }
        return range.contains(address) || (range.isEmpty && range.lowerBound == address)
    }

    private func symbol(for entry: Entry) -> Symbol {
        Symbol(
            name: string(at: entry.name), address: entry.address, size: entry.size, kind: entry.kind,
            sectionName: entry.section >= 0 ? sectionNames[Int(entry.section)] : nil,
            sourceFile: entry.sourceFile >= 0 ? string(at: entry.sourceFile) : nil, isLocal: entry.isLocal)
    }

    private func string(at offset: Int) -> String {
        let start = contents.nameBase + offset, limit = contents.nameLimit
        return contents.withNames { $0.string(at: start, limit: limit) }
    }

    /// Compares the NUL-terminated names at two offsets of `names`, byte by byte (a missing byte reads as NUL).
    private static func compare(_ names: ImmutableBytes, _ lhs: Int, _ rhs: Int) -> Int {
        var left = lhs, right = rhs
        while true {
            let a = names.u8(at: left), b = names.u8(at: right)
            if a != b { return a < b ? -1 : 1 }
            if a == 0 { return 0 }
            left += 1
            right += 1
        }
    }
}
