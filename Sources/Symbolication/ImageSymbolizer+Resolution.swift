import DWARF
import ObjectFiles
import PostmortemCore

/// Resolving addresses: the inline chain from the debug information, the symbol table where there is none.
extension ImageSymbolizer {
    /// Resolves `address` like `llvm-symbolizer --inlining`: the inline chain innermost first, with the
    /// innermost location from the line table and outer ones from the call sites; the symbol table
    /// when there is no DWARF for the address.
    /// - Complexity: O(log n) once the unit holding `address` has been read; reading it is O(its DIEs and rows).
    public func resolve(_ address: FileAddress) -> AddressResolution {
        guard isInSection(address) else {
            return AddressResolution(
                address: address, frames: [], symbol: nil, symbolOffset: nil, functionStart: nil,
                unresolvedReason: .outsideSections(address: address, image: image.fileName))
        }
        let scanning = scansSymbolTables()
        // Each table is held once, and matches apart from it: a table copied into tuples counted its contents again for
        // each copy, a count that every thread writes.
        let imageTable = imageSymbols(scanning: scanning)
        // The symbol is found without making its strings: most lookups only compare its name with the frame's.
        let imageMatch = imageTable.match(containing: address)
        let debugFileTable = imageMatch == nil ? debugFileSymbols(scanning: scanning) : nil
        let symbolMatch = imageMatch ?? debugFileTable?.match(containing: address)
        let symbolTable = imageMatch == nil ? debugFileTable : imageTable
        var frames: [SymbolicatedFrame] = []
        var functionStart: FileAddress?
        var reason: UnresolvedReason?
        if dwarf != nil {
            do {
                if let hit = try dwarf?.lookup(address, naming: self) {
                    frames = self.frames(chain: hit.chain, row: hit.row)
                    // The function's entry: its first range as the DWARF lists them (a function split into a `.cold`
                    // part, which the linker may place below it, enters at its main part).
                    functionStart = hit.chain.first?.record.ranges.first?.lowerBound
                }
            } catch {
                reason = .unreadableDebugInformation(error.description)
                diagnostics.report(subject: nil, error.description)
            }
        }
        if let symbolMatch, let symbolTable, frames.isEmpty {
            let symbol = symbolTable.symbol(for: symbolMatch)
            frames = [
                SymbolicatedFrame(
                    function: displayName(symbol.name), linkageName: symbol.name, file: symbol.sourceFile,
                    line: 0, column: 0, isInlined: false)
            ]
        } else if let imageMatch, !isNamed(imageMatch, in: imageTable, frames[frames.count - 1].linkageName) {
            // As llvm-symbolizer does: the outermost frame takes the name in the image's own symbol
            // table, which also tells compiler-made clones (`.cold`, `.isra.0`) from their original.
            let name = imageTable.symbol(for: imageMatch).name
            frames[frames.count - 1].linkageName = name
            frames[frames.count - 1].function = displayName(name)
        }
        // The outermost frame is named after the image's symbol that covers the address, when one does (above): its
        // offset counts from that symbol, as `name+offset` reads.
        if let imageMatch, !frames.isEmpty { functionStart = imageMatch.address }
        if functionStart == nil { functionStart = symbolMatch?.address }
        if frames.isEmpty, reason == nil {
            reason = .notCovered(address: address, hasDebugInformation: dwarf != nil)
        }
        // Every frame's function is the display name of its linkage name: the symbol's is usually the outermost one's.
        var symbolName: String?
        if let symbolMatch, let symbolTable {
            if let outermost = frames.last, isNamed(symbolMatch, in: symbolTable, outermost.linkageName),
                let function = outermost.function
            {
                symbolName = function
            } else {
                symbolName = displayName(symbolTable.symbol(for: symbolMatch).name)
            }
        }
        return AddressResolution(
            address: address, frames: frames, symbol: symbolName, symbolOffset: symbolMatch?.offset,
            functionStart: functionStart, unresolvedReason: frames.isEmpty ? reason : nil)
    }

    func isNamed(_ match: SymbolTable.Match, in table: SymbolTable, _ name: String?) -> Bool {
        name.map { table.name(of: match, is: $0) } ?? false
    }

    /// The line-table entry that covers `address`: its source position and the addresses it spans.
    public func lineEntry(at address: FileAddress) -> (file: String?, line: Int, range: AddressRange)? {
        guard let dwarf, let hit = try? dwarf.lookup(address, naming: self), let found = hit.row else {
            return nil
        }
        return (found.file, Int(found.row.line), AddressRange(found.row.address, found.end))
    }

    /// The frames of an inline chain, innermost first, each named as its record is shown.
    func frames(chain: [IndexRecord], row: (row: LineRow, file: String?, end: FileAddress)?) -> [SymbolicatedFrame] {
        var location: (file: String?, line: Int, column: Int)? = row.map {
            ($0.file, Int($0.row.line), Int($0.row.column))
        }
        if chain.isEmpty {
            guard let location else { return [] }
            return [
                SymbolicatedFrame(
                    function: nil, linkageName: nil, file: location.file, line: location.line,
                    column: location.column, isInlined: false)
            ]
        }
        var frames: [SymbolicatedFrame] = []
        frames.reserveCapacity(chain.count)
        for entry in chain.reversed() {
            let linkageName = entry.record.linkageName ?? entry.record.name
            frames.append(
                SymbolicatedFrame(
                    function: entry.shownName, linkageName: linkageName, file: location?.file,
                    line: location?.line ?? 0, column: location?.column ?? 0, isInlined: entry.record.isInlined))
            location = (entry.record.callFile, entry.record.callLine, entry.record.callColumn)
        }
        return frames
    }
}
