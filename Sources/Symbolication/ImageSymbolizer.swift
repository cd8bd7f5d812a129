public import ObjectFiles
import DWARF

/// Resolves file addresses of one binary (or debug file) to functions, inline chains and source lines.
///
/// Opening reads the binary's headers, finds its debug file when it has no DWARF of its own and
/// reads that file's unit list; everything else is read on first use. Not thread-safe: use one
/// instance from one thread at a time.
public final class ImageSymbolizer {
    /// The binary or debug file that was opened.
    public let image: ObjectFile
    /// The file the DWARF comes from: ``image`` itself, a separate debug file, or `nil` when none was found.
    public let debugFile: ObjectFile?
    /// Things worth telling the user about the image (a rejected debug file, unreadable DWARF), one line each.
    public private(set) var notes: [String] = []

    private let options: SymbolizerOptions
    private let demangler = Demangler()
    private let dwarf: DWARFIndex?
    private var imageSymbols: SymbolTable?
    private var debugFileSymbols: SymbolTable?
    /// Demangled names already worked out: a batch meets the same functions again and again.
    private var displayNames: [String: String] = [:]

    /// Opens the binary or debug file at `path`.
    /// - Throws: ``SymbolicationError`` when the file cannot be read as an object file at all.
    public init(path: String, options: SymbolizerOptions = SymbolizerOptions()) throws(SymbolicationError) {
        self.options = options
        do { image = try ObjectFileReader.read(path: path, architecture: options.architecture) } catch { throw .objectFile(error) }

        var debugFile: ObjectFile? = image.hasDWARF ? image : nil
        if debugFile == nil {
            let lookup = DebugFileLocator(search: options.debugFileSearch).locateDebugFile(for: image)
            for rejection in lookup.rejections { notes.append("\(rejection.path): not used as debug file of \(path): \(rejection.reason)") }
            debugFile = lookup.debugFile
            if debugFile == nil { notes.append("\(path): no debug information found; using the symbol table only") }
        }
        var dwarf: DWARFIndex?
        if let debugFile {
            do { dwarf = try DWARFIndex(object: debugFile) } catch {
                notes.append("\(error.description); using the symbol table only")
            }
        }
        self.debugFile = dwarf == nil ? nil : debugFile
        self.dwarf = dwarf
    }

    /// The symbols of the image itself, read on first use.
    public func symbolTable() -> SymbolTable {
        if let imageSymbols { return imageSymbols }
        let table = readSymbols(of: image)
        imageSymbols = table
        return table
    }

    /// The symbols of the separate debug file (a stripped binary's full `.symtab`), read on first use.
    private func debugFileSymbolTable() -> SymbolTable {
        if let debugFileSymbols { return debugFileSymbols }
        let table = debugFile.flatMap { $0 == image ? nil : readSymbols(of: $0) } ?? SymbolTable(symbols: [])
        debugFileSymbols = table
        return table
    }

    private func readSymbols(of file: ObjectFile) -> SymbolTable {
        do { return try ObjectFileReader.symbolTable(of: file) } catch {
            notes.append("\(error.description); its symbols are not used")
            return SymbolTable(symbols: [])
        }
    }

    /// The symbol that covers `address`: from the image's own table, else from its debug file's.
    public func symbol(containing address: FileAddress) -> (symbol: Symbol, offset: UInt64)? {
        symbolTable().symbol(containing: address) ?? debugFileSymbolTable().symbol(containing: address)
    }

    /// The symbol named `name`: from the image's own table, else from its debug file's.
    /// - Complexity: O(symbols).
    public func symbol(named name: String) -> Symbol? {
        symbolTable().symbol(named: name) ?? debugFileSymbolTable().symbol(named: name)
    }

    /// The name to show for a linkage name, per ``SymbolizerOptions/demangle``.
    public func displayName(_ linkageName: String) -> String {
        guard options.demangle else { return linkageName }
        if let known = displayNames[linkageName] { return known }
        let name = demangler.demangle(linkageName)
        displayNames[linkageName] = name
        return name
    }

    /// The section that holds `address`, in the image or its debug file.
    public func section(containing address: FileAddress) -> Section? {
        image.section(containing: address) ?? debugFile?.section(containing: address)
    }

    /// Resolves `address` like `llvm-symbolizer --inlining`: the inline chain innermost first, with the
    /// innermost location from the line table and outer ones from the call sites; the symbol table
    /// when there is no DWARF for the address.
    /// - Complexity: O(log n) once the unit holding `address` has been read; reading it is O(its DIEs and rows).
    public func resolve(_ address: FileAddress) -> AddressResolution {
        guard section(containing: address) != nil else {
            return AddressResolution(
                address: address, frames: [], symbol: nil, symbolOffset: nil, functionStart: nil,
                unresolvedReason: "address \(address) is outside every section of \(image.fileName)")
        }
        let imageSymbol = symbolTable().symbol(containing: address)
        let symbolHit = imageSymbol ?? debugFileSymbolTable().symbol(containing: address)
        var frames: [SymbolicatedFrame] = []
        var functionStart: FileAddress?
        var reason: String?
        if let dwarf {
            do {
                if let unit = try dwarf.unit(at: address) {
                    let chain = unit.functionChain(at: address).map(dwarf.file.completingNames)
                    let row = unit.contents.lineTable.row(containing: address)?.row
                    frames = self.frames(chain: chain, row: row, lineTable: unit.contents.lineTable)
                    functionStart = chain.first?.lowestAddress
                }
            } catch {
                reason = error.description
                notes.append(error.description)
            }
        }
        if let symbolHit, frames.isEmpty {
            let name = symbolHit.symbol.name
            frames = [SymbolicatedFrame(function: displayName(name), linkageName: name, file: symbolHit.symbol.sourceFile,
                                        line: 0, column: 0, isInlined: false)]
        } else if let imageSymbol {
            // As llvm-symbolizer does: the outermost frame takes the name in the image's own symbol
            // table, which also tells compiler-made clones (`.cold`, `.isra.0`) from their original.
            let name = imageSymbol.symbol.name
            frames[frames.count - 1].linkageName = name
            frames[frames.count - 1].function = displayName(name)
        }
        if functionStart == nil { functionStart = symbolHit?.symbol.address }
        if frames.isEmpty, reason == nil {
            reason = dwarf == nil ? "no symbol covers \(address) and there is no debug information"
                                  : "no function, line or symbol covers \(address)"
        }
        return AddressResolution(
            address: address, frames: frames, symbol: symbolHit.map { displayName($0.symbol.name) }, symbolOffset: symbolHit?.offset,
            functionStart: functionStart, unresolvedReason: frames.isEmpty ? reason : nil)
    }

    /// The line-table entry that covers `address`: its source position and the addresses it spans.
    public func lineEntry(at address: FileAddress) -> (file: String?, line: Int, range: AddressRange)? {
        guard let dwarf, let unit = try? dwarf.unit(at: address),
              let found = unit.contents.lineTable.row(containing: address) else { return nil }
        return (unit.contents.lineTable.file(found.row.file), Int(found.row.line), AddressRange(found.row.address, found.end))
    }

    private func frames(chain: [FunctionRecord], row: LineRow?, lineTable: LineTable) -> [SymbolicatedFrame] {
        var location: (file: String?, line: Int, column: Int)? = row.map { (lineTable.file($0.file), Int($0.line), Int($0.column)) }
        if chain.isEmpty {
            guard let location else { return [] }
            return [SymbolicatedFrame(function: nil, linkageName: nil, file: location.file, line: location.line,
                                      column: location.column, isInlined: false)]
        }
        var frames: [SymbolicatedFrame] = []
        for record in chain.reversed() {
            let linkageName = record.linkageName ?? record.name
            frames.append(SymbolicatedFrame(
                function: linkageName.map(displayName), linkageName: linkageName, file: location?.file,
                line: location?.line ?? 0, column: location?.column ?? 0, isInlined: record.isInlined))
            location = (record.callFile, record.callLine, record.callColumn)
        }
        return frames
    }
}
