import ObjectFiles
import PostmortemCore
import Synchronization

/// The image's and its debug file's symbol tables as read so far: each read on first use and scanned in file order
/// for the first few lookups, then sorted once.
struct SymbolTables: Sendable {
    var image: SymbolTable?
    var debugFile: SymbolTable?
}

/// The image's and its debug file's symbol tables: read on first use, scanned in file order for the first few lookups, sorted after.
extension ImageSymbolizer {
    /// The symbols of the image itself, read on first use, sorted.
    package func symbolTable() -> SymbolTable {
        sortedTable(\.image) { imageSymbolsAsRead() }
    }

    /// The symbols of the separate debug file (a stripped binary's full `.symtab`), read on first use, sorted.
    func debugFileSymbolTable() -> SymbolTable {
        sortedTable(\.debugFile) { debugFileSymbolsAsRead() }
    }

    /// The table at `slot`, sorted: sorted once, by the first thread to need it sorted (another one meanwhile sorts
    /// it too and keeps the first stored).
    private func sortedTable(_ slot: WritableKeyPath<SymbolTables, SymbolTable?>, asRead: () -> SymbolTable)
        -> SymbolTable
    {
        if let known = symbolTables.withLock({ $0[keyPath: slot] }), known.isSorted { return known }
        let sorted = asRead().sorted()
        return symbolTables.withLock { tables in
            if let known = tables[keyPath: slot], known.isSorted { return known }
            tables[keyPath: slot] = sorted
            return sorted
        }
    }

    func imageSymbolsAsRead() -> SymbolTable {
        tableAsRead(\.image) { cachedSymbols(.imageSymbols) ?? readSymbols(of: image) }
    }

    func debugFileSymbolsAsRead() -> SymbolTable {
        tableAsRead(\.debugFile) {
            cachedSymbols(.debugFileSymbols) ?? debugFile.flatMap { $0 == image ? nil : readSymbols(of: $0) }
                ?? SymbolTable(symbols: [])
        }
    }

    /// The table at `slot` as read (sorted, once it has been): read once, by the first thread to need it.
    private func tableAsRead(_ slot: WritableKeyPath<SymbolTables, SymbolTable?>, read: () -> SymbolTable)
        -> SymbolTable
    {
        if let known = symbolTables.withLock({ $0[keyPath: slot] }) { return known }
        let table = read()
        return symbolTables.withLock { tables in
            if let known = tables[keyPath: slot] { return known }
            tables[keyPath: slot] = table
            return table
        }
    }

    /// Whether this lookup searches the symbol tables as the file lists them: the first few lookups scan them
    /// (``LookupTuning/scansBeforeSorting``), later ones search them sorted.
    func scansSymbolTables() -> Bool {
        guard scansLeft.load(ordering: .relaxed) > 0 else { return false }
        return scansLeft.wrappingSubtract(1, ordering: .relaxed).newValue >= 0
    }

    /// The image's symbol table as a lookup searches it (``scansSymbolTables()``).
    func imageSymbols(scanning: Bool) -> SymbolTable { scanning ? imageSymbolsAsRead() : symbolTable() }

    /// The debug file's symbol table as a lookup searches it (``scansSymbolTables()``).
    func debugFileSymbols(scanning: Bool) -> SymbolTable {
        scanning ? debugFileSymbolsAsRead() : debugFileSymbolTable()
    }

    func readSymbols(of file: ObjectFile) -> SymbolTable {
        var problems: [String] = []
        defer { for problem in problems { diagnostics.report(subject: file.path, problem) } }
        do { return try ObjectFileReader.symbolTable(of: file, problems: &problems) } catch {
            diagnostics.report(subject: nil, "\(error.description); its symbols are not used")
            return SymbolTable(symbols: [])
        }
    }

    /// The symbol that covers `address`: from the image's own table, else from its debug file's.
    package func symbol(containing address: FileAddress) -> (symbol: Symbol, offset: UInt64)? {
        let scanning = scansSymbolTables()
        return imageSymbols(scanning: scanning).symbol(containing: address)
            ?? debugFileSymbols(scanning: scanning).symbol(containing: address)
    }

    /// The symbol that covers `address` as gdb names it (its minimal symbols): of the aliases that cover it, the
    /// one whose name sorts last, as gdb sorts symbols at one address by name and takes the last.
    package func gdbSymbol(containing address: FileAddress) -> (symbol: Symbol, offset: UInt64)? {
        let scanning = scansSymbolTables()
        for table in [imageSymbols(scanning: scanning), debugFileSymbols(scanning: scanning)] {
            guard let match = table.match(containing: address) else { continue }
            let covering = table.aliases(of: match).filter {
                $0.size > match.offset || ($0.size == 0 && $0.size == table.symbol(for: match).size)
            }
            let byName = covering.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            guard var chosen = byName.last else { return (table.symbol(for: match), match.offset) }
            // gdb gives a local symbol's place to the global one before it of the same size (`name.localalias`, a
            // hidden constructor's `C2` alias made local by the link, give way).
            if byName.count > 1, case let previous = byName[byName.count - 2], previous.size == chosen.size,
                chosen.isLocal, !previous.isLocal
            {
                chosen = previous
            }
            return (chosen, match.offset)
        }
        return nil
    }

    /// The symbol named `name`: from the image's own table, else from its debug file's.
    /// - Complexity: O(symbols) the first time a name is asked, O(1) after.
    package func symbol(named name: String) -> Symbol? {
        if let known = answers.withLock({ $0.symbolsByName[name] }) { return known }
        let found = imageSymbolsAsRead().symbol(named: name) ?? debugFileSymbolsAsRead().symbol(named: name)
        answers.withLock { $0.symbolsByName[name] = .some(found) }
        return found
    }

    /// The section that holds `address`, in the image or its debug file.
    package func section(containing address: FileAddress) -> Section? {
        image.section(containing: address) ?? debugFile?.section(containing: address)
    }

    /// Whether `address` lies in a section of the image or its debug file that ``section(containing:)`` would find.
    /// - Complexity: O(log n) in the sections.
    package func isInSection(_ address: FileAddress) -> Bool {
        var low = 0, high = sectionAddresses.count
        while low < high {
            let middle = (low + high) / 2
            if sectionAddresses[middle].upperBound <= address { low = middle + 1 } else { high = middle }
        }
        return low < sectionAddresses.count && sectionAddresses[low].lowerBound <= address
    }

    /// The allocated, non-empty sections' addresses of `image` and `debugFile`, overlapping ranges joined.
    static func sectionAddresses(of image: ObjectFile, _ debugFile: ObjectFile?) -> [AddressRange] {
        let ranges = (image.sections + (debugFile?.sections ?? [])).filter { $0.isAllocated && $0.size > 0 }
            .map(\.addressRange).sorted { $0.lowerBound < $1.lowerBound }
        var joined: [AddressRange] = []
        for range in ranges {
            if let last = joined.last, range.lowerBound <= last.upperBound {
                joined[joined.count - 1].upperBound = max(last.upperBound, range.upperBound)
            } else {
                joined.append(range)
            }
        }
        return joined
    }
}
