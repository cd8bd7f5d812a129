public import ObjectFiles
public import PostmortemCore
import DWARF
import Dispatch

/// Resolves file addresses of one binary (or debug file) to functions, inline chains and source lines.
///
/// Opening reads the binary's headers and finds its debug file when it has no DWARF of its own; then
/// it maps the image's index-cache file when the cache is on and holds a sound one, else reads the debug
/// file's unit list, everything else being read on first use (and the cache file written by
/// ``writeIndexCache()``). Not thread-safe: use one instance from one thread at a time, and ``sibling()``
/// for another thread.
public final class ImageSymbolizer {
    /// The binary or debug file that was opened.
    public let image: ObjectFile
    /// The file the DWARF comes from: ``image`` itself, a separate debug file, or `nil` when none was found.
    public let debugFile: ObjectFile?
    /// The index-cache file lookups read from, when they read one instead of DWARF.
    public var indexCacheFile: String? { cacheFile?.path }
    /// What opening found worth telling the user (a rejected debug file, no debug information, a stale index
    /// file): kept, not reported, so that the caller says it only if it uses this image (a candidate binary that
    /// turns out not to be the log's is opened and dropped).
    public let openingDiagnostics: [Diagnostic]
    /// Where what lookups and index-cache writing find is reported (unreadable DWARF, a damaged unit), when found.
    public let diagnostics: DiagnosticSink

    /// How the image was opened (its slice, where its debug file was looked for, the cache).
    public let options: SymbolizerOptions
    private let demangler = Demangler()
    /// The lookups of the debug file: from its DWARF, or from the index cache.
    private let dwarf: AddressIndex?
    /// The index-cache file lookups read from; `nil` when they read DWARF.
    private let cacheFile: IndexCacheFile?
    /// True while the index cache is on and has no sound file for this image: ``writeIndexCache()`` writes one.
    private var needsCacheFile: Bool

    /// Whether ``writeIndexCache()`` would write a file: the cache is on and has no sound one for this image.
    public var needsIndexCacheFile: Bool { needsCacheFile || (dwarf as? CachedIndex)?.damage != nil }
    private var imageSymbols: SymbolTable?
    private var debugFileSymbols: SymbolTable?
    /// Indexes of the debug file for other threads (libdwarf sessions of their own) that ``readAhead(_:threads:)``
    /// opened; ``sibling()`` takes one over.
    private var spareIndexes: [DWARFIndex] = []
    /// Lookups left that scan the symbol tables in file order before they are sorted.
    private var scansLeft = 8
    /// Demangled names already worked out: a batch meets the same functions again and again.
    private var displayNames: [String: String] = [:]
    /// The image's bytes, mapped once the code at an address is first read (``isSignalTrampoline(at:)``); `.some(nil)`
    /// when it could not be.
    fileprivate var mappedImage: ImmutableBytes??
    /// What ``symbol(named:)`` found for each name asked (a batch of logs names the same symbols over and over).
    private var symbolsByName: [String: Symbol?] = [:]
    /// What ``isSignalTrampoline(at:)`` found at each address asked (every report of a batch asks of the same frames).
    fileprivate var trampolineAnswers: [UInt64: Bool] = [:]

    /// Opens the binary or debug file at `path`: from its index-cache file when ``SymbolizerOptions/indexCache``
    /// is set and has a sound one for the debug file found now, else from that file's DWARF.
    /// - Throws: ``SymbolicationError`` when the file cannot be read as an object file at all.
    /// - Parameter diagnostics: where what lookups and index-cache writing find later is reported.
    public convenience init(path: String, options: SymbolizerOptions = SymbolizerOptions(),
                            diagnostics: DiagnosticSink) throws(SymbolicationError) {
        let image: ObjectFile
        do { image = try ObjectFileReader.read(path: path, architecture: options.architecture) } catch { throw .objectFile(error) }
        self.init(image: image, options: options, diagnostics: diagnostics)
    }

    /// Opens `image`, already read (one slice of a universal file, say), as ``init(path:options:diagnostics:)`` does.
    public init(image: ObjectFile, options: SymbolizerOptions = SymbolizerOptions(), diagnostics: DiagnosticSink) {
        self.options = options
        self.image = image
        self.diagnostics = diagnostics
        let path = image.path
        var notes: [Diagnostic] = []
        var debugFile: ObjectFile? = image.hasDWARF ? image : nil
        if debugFile == nil {
            let lookup = DebugFileLocator(search: options.debugFileSearch, remote: options.remoteDebugFiles).locateDebugFile(for: image)
            for rejection in lookup.rejections {
                notes.append(Diagnostic(subject: rejection.path, message: "not used as debug file of \(path): \(rejection.reason)"))
            }
            debugFile = lookup.debugFile
            if debugFile == nil {
                let remotely = lookup.unavailableRemotely.map { " (\($0))" } ?? ""
                notes.append(Diagnostic(subject: path, message: "no debug information found\(remotely); using the symbol table only"))
            }
        }
        // The cache answers for the debug file found just now, never for one found in another context. An image with
        // no debug information at all has a file of its symbols alone (a large symbol table, libswiftCore's say, takes
        // longer to read from the binary than the lookups take).
        if let cache = options.indexCache {
            let cachedFile = debugFile ?? image
            switch IndexCacheFile.open(cache.path(for: image, debugFile: cachedFile), for: cachedFile) {
            case nil:
                break
            case .success(let file)?:
                // Used now: the last to be evicted when the cache outgrows its limit.
                FileSystem.touch(file.path)
                self.debugFile = debugFile
                cacheFile = file
                dwarf = debugFile.map { debugFile in CachedIndex(file: file) { try? DWARFIndex(object: debugFile) } }
                needsCacheFile = false
                openingDiagnostics = notes
                return
            case .failure(let error)?:
                notes.append(Diagnostic(subject: nil, message: "\(error.description); rebuilding it"))
            }
        }
        cacheFile = nil
        var dwarf: DWARFIndex?
        if let debugFile {
            do { dwarf = try DWARFIndex(object: debugFile) } catch {
                notes.append(Diagnostic(subject: nil, message: "\(error.description); using the symbol table only"))
            }
        }
        self.debugFile = dwarf == nil ? nil : debugFile
        self.dwarf = dwarf
        // An image with readable DWARF gets a cache file, and one without any debug information a file of its symbols;
        // one whose debug file cannot be read gets none.
        needsCacheFile = options.indexCache != nil && (dwarf != nil || debugFile == nil)
        openingDiagnostics = notes
    }

    /// The build-id the image's source files are known by: the debug file's, else the image's.
    public var sourceBuildID: BuildID? { debugFile?.buildID ?? image.buildID }

    /// A second symbolizer of the same image for another thread, sharing this one's symbol tables and
    /// what lookups read: the index-cache file, or the units read from DWARF (which the second one reads
    /// through a libdwarf session of its own); `nil` when that session cannot be opened.
    public func sibling() -> ImageSymbolizer? {
        let index: AddressIndex?
        switch dwarf {
        case let cached as CachedIndex:
            index = CachedIndex(file: cached.file) { [debugFile] in debugFile.flatMap { try? DWARFIndex(object: $0) } }
        case let direct as DWARFIndex:
            // A session opened for reading ahead has read unit headers already: it goes to the sibling.
            guard let sibling = spareIndexes.popLast() ?? (try? direct.sibling()) else { return nil }
            index = sibling
        default:
            index = nil
        }
        return ImageSymbolizer(sharing: self, index: index)
    }

    private init(sharing other: ImageSymbolizer, index: AddressIndex?) {
        options = other.options
        diagnostics = other.diagnostics
        // The first one's opening said all there was to say.
        openingDiagnostics = []
        image = other.image
        debugFile = other.debugFile
        cacheFile = other.cacheFile
        dwarf = index
        needsCacheFile = false
        imageSymbols = other.symbolTable()
        debugFileSymbols = other.debugFileSymbolTable()
    }

    /// Whether ``readAhead(_:threads:)`` has anything to do: lookups read DWARF, not the index cache.
    public var readsAhead: Bool { dwarf is DWARFIndex }

    /// Reads ahead the debug information `addresses` need, when lookups read it from DWARF: every unit they
    /// fall in that no symbolizer sharing this one's units (``sibling()``) has read or is reading, on `threads`
    /// threads at once (this one and others, each reading through a libdwarf session of its own, each unit
    /// once). Meanwhile one of them sorts the symbol tables, which many lookups are about to search. Does
    /// nothing when the index cache answers.
    public func readAhead(_ addresses: [FileAddress], threads: Int = 2) {
        guard let index = dwarf as? DWARFIndex else { return }
        while spareIndexes.count < threads - 1, let spare = try? index.sibling() { spareIndexes.append(spare) }
        let lanes = [index] + spareIndexes.prefix(max(threads - 1, 0))
        // Units read for a few addresses each hold a part of what the index-cache file about to be written needs.
        let partially = !needsCacheFile || !options.writesIndexCacheInRun
        let work = UncheckedSendable { (lane: Int) in
            if lane == 0 {
                _ = self.symbolTable()
                _ = self.debugFileSymbolTable()
            }
            lanes[lane].readAhead(addresses, lane: lane, of: lanes.count, partially: partially)
        }
        DispatchQueue.concurrentPerform(iterations: lanes.count) { lane in work.value(lane) }
    }

    /// Writes the image's index-cache file when the cache is on and there is no sound one yet (or the
    /// one read turned out damaged). Reads every unit the lookups have not read. A failure to write
    /// becomes a note; lookups are not affected.
    /// - Complexity: O(the debug file's DWARF) when a file is written; O(1) otherwise.
    public func writeIndexCache() {
        let cached = dwarf as? CachedIndex
        guard let cache = options.indexCache, needsCacheFile || cached?.damage != nil else { return }
        let index = (dwarf as? DWARFIndex) ?? cached?.fallback
        // With no debug file, the file holds the image's symbols and no units.
        guard index != nil || debugFile == nil else { return }
        let cachedFile = debugFile ?? image
        needsCacheFile = false
        if let damage = cached?.damage { diagnostics.report(subject: nil, damage) }
        let metadata = IndexCacheFile.Metadata(image: image, debugFile: cachedFile)
        let unitRanges: [(AddressRange, UInt32)]
        do throws(DWARFError) { unitRanges = try index?.unitRanges() ?? [] } catch {
            diagnostics.report(subject: nil, "index cache not written: \(error.description)")
            return
        }
        let contents = IndexCacheFile.Contents(
            metadata: metadata, imageSymbols: symbolTable(), debugFileSymbols: debugFileSymbolTable(),
            unitRanges: unitRanges, unitCount: index?.unitCount ?? 0)
        do throws(FileSystem.Failure) {
            try FileSystem.createDirectories(cache.directory)
            try IndexCacheFile.write(contents, unit: { position in
                guard let index else { return .failure(DWARFError(.noDebugInfo, path: cachedFile.path, detail: "")) }
                do throws(DWARFError) {
                    let unit = try index.unitForCache(atPosition: position)
                    // Demangled Swift names are stored: a lookup then demangles none (Swift's demangler takes microseconds
                    // a name, a third of a warm batch). C++ names demangle fast and long: they are left to lookups.
                    return .success(unit.completingNames(index.file.completingNames) { name in
                        guard Demangler.isSwift(name) else { return nil }
                        let shown = demangler.demangle(name)
                        return shown == name ? nil : shown
                    })
                } catch { return .failure(error) }
            }, to: cache.path(for: image, debugFile: cachedFile))
        } catch {
            diagnostics.report(subject: nil, "index cache not written: \(error.description)")
        }
    }

    /// The symbols of the image itself, read on first use, sorted.
    public func symbolTable() -> SymbolTable {
        if let imageSymbols, imageSymbols.isSorted { return imageSymbols }
        let table = imageSymbolsAsRead().sorted()
        imageSymbols = table
        return table
    }

    /// The symbols of the separate debug file (a stripped binary's full `.symtab`), read on first use, sorted.
    private func debugFileSymbolTable() -> SymbolTable {
        if let debugFileSymbols, debugFileSymbols.isSorted { return debugFileSymbols }
        let table = debugFileSymbolsAsRead().sorted()
        debugFileSymbols = table
        return table
    }

    private func imageSymbolsAsRead() -> SymbolTable {
        if let imageSymbols { return imageSymbols }
        let table = cachedSymbols(.imageSymbols) ?? readSymbols(of: image)
        imageSymbols = table
        return table
    }

    private func debugFileSymbolsAsRead() -> SymbolTable {
        if let debugFileSymbols { return debugFileSymbols }
        let table = cachedSymbols(.debugFileSymbols)
            ?? debugFile.flatMap { $0 == image ? nil : readSymbols(of: $0) } ?? SymbolTable(symbols: [])
        debugFileSymbols = table
        return table
    }

    /// Whether this lookup searches the symbol tables as the file lists them: the first few lookups scan them
    /// (sorting a Swift binary's 100,000 symbols costs as much as hundreds of scans), later ones search them sorted.
    private func scansSymbolTables() -> Bool {
        guard scansLeft > 0 else { return false }
        scansLeft -= 1
        return true
    }

    /// The image's symbol table as a lookup searches it (``scansSymbolTables()``).
    private func imageSymbols(scanning: Bool) -> SymbolTable { scanning ? imageSymbolsAsRead() : symbolTable() }

    /// The debug file's symbol table as a lookup searches it (``scansSymbolTables()``).
    private func debugFileSymbols(scanning: Bool) -> SymbolTable { scanning ? debugFileSymbolsAsRead() : debugFileSymbolTable() }

    /// A symbol table from the cache file; `nil` (and the file marked for rebuilding) when it is damaged.
    private func cachedSymbols(_ kind: IndexCacheFile.SectionKind) -> SymbolTable? {
        guard let cacheFile else { return nil }
        if let table = cacheFile.symbolTable(kind) { return table }
        diagnostics.report(subject: cacheFile.path, "damaged symbol table; read from the binary, and the file is rebuilt")
        needsCacheFile = true
        return nil
    }

    private func readSymbols(of file: ObjectFile) -> SymbolTable {
        do { return try ObjectFileReader.symbolTable(of: file) } catch {
            diagnostics.report(subject: nil, "\(error.description); its symbols are not used")
            return SymbolTable(symbols: [])
        }
    }

    /// The symbol that covers `address`: from the image's own table, else from its debug file's.
    public func symbol(containing address: FileAddress) -> (symbol: Symbol, offset: UInt64)? {
        let scanning = scansSymbolTables()
        return imageSymbols(scanning: scanning).symbol(containing: address) ?? debugFileSymbols(scanning: scanning).symbol(containing: address)
    }

    /// The symbol that covers `address` as gdb names it (its minimal symbols): of the aliases that cover it, the
    /// one whose name sorts last, as gdb sorts symbols at one address by name and takes the last.
    public func gdbSymbol(containing address: FileAddress) -> (symbol: Symbol, offset: UInt64)? {
        let scanning = scansSymbolTables()
        for table in [imageSymbols(scanning: scanning), debugFileSymbols(scanning: scanning)] {
            guard let match = table.match(containing: address) else { continue }
            let covering = table.aliases(of: match).filter { $0.size > match.offset || ($0.size == 0 && $0.size == table.symbol(for: match).size) }
            let byName = covering.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            guard var chosen = byName.last else { return (table.symbol(for: match), match.offset) }
            // gdb gives a local symbol's place to the global one before it of the same size (`name.localalias`, a
            // hidden constructor's `C2` alias made local by the link, give way).
            if byName.count > 1, case let previous = byName[byName.count - 2], previous.size == chosen.size,
               chosen.isLocal, !previous.isLocal {
                chosen = previous
            }
            return (chosen, match.offset)
        }
        return nil
    }

    /// The symbol named `name`: from the image's own table, else from its debug file's.
    /// - Complexity: O(symbols) the first time a name is asked, O(1) after.
    public func symbol(named name: String) -> Symbol? {
        if let known = symbolsByName[name] { return known }
        let found = imageSymbolsAsRead().symbol(named: name) ?? debugFileSymbolsAsRead().symbol(named: name)
        symbolsByName[name] = .some(found)
        return found
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
        let scanning = scansSymbolTables()
        let imageTable = imageSymbols(scanning: scanning)
        // The symbol is found without making its strings: most lookups only compare its name with the frame's.
        let imageSymbol = imageTable.match(containing: address).map { (table: imageTable, match: $0) }
        let symbolHit = imageSymbol ?? {
            let debugFileTable = debugFileSymbols(scanning: scanning)
            return debugFileTable.match(containing: address).map { (table: debugFileTable, match: $0) }
        }()
        var frames: [SymbolicatedFrame] = []
        var functionStart: FileAddress?
        var reason: String?
        if let dwarf {
            do {
                if let hit = try dwarf.lookup(address) {
                    frames = self.frames(chain: hit.chain, row: hit.row)
                    functionStart = hit.chain.first?.record.lowestAddress
                }
            } catch {
                reason = error.description
                diagnostics.report(subject: nil, error.description)
            }
        }
        if let symbolHit, frames.isEmpty {
            let symbol = symbolHit.table.symbol(for: symbolHit.match)
            frames = [SymbolicatedFrame(function: displayName(symbol.name), linkageName: symbol.name, file: symbol.sourceFile,
                                        line: 0, column: 0, isInlined: false)]
        } else if let imageSymbol, !isNamed(imageSymbol, frames[frames.count - 1].linkageName) {
            // As llvm-symbolizer does: the outermost frame takes the name in the image's own symbol
            // table, which also tells compiler-made clones (`.cold`, `.isra.0`) from their original.
            let name = imageSymbol.table.symbol(for: imageSymbol.match).name
            frames[frames.count - 1].linkageName = name
            frames[frames.count - 1].function = displayName(name)
        }
        if functionStart == nil { functionStart = symbolHit?.match.address }
        if frames.isEmpty, reason == nil {
            reason = dwarf == nil ? "no symbol covers \(address) and there is no debug information"
                                  : "no function, line or symbol covers \(address)"
        }
        // Every frame's function is the display name of its linkage name: the symbol's is usually the outermost one's.
        let symbolName = symbolHit.map { hit in
            if let outermost = frames.last, isNamed(hit, outermost.linkageName), let function = outermost.function { return function }
            return displayName(hit.table.symbol(for: hit.match).name)
        }
        return AddressResolution(
            address: address, frames: frames, symbol: symbolName, symbolOffset: symbolHit?.match.offset,
            functionStart: functionStart, unresolvedReason: frames.isEmpty ? reason : nil)
    }

    private func isNamed(_ hit: (table: SymbolTable, match: SymbolTable.Match), _ name: String?) -> Bool {
        name.map { hit.table.name(of: hit.match, is: $0) } ?? false
    }

    /// The line-table entry that covers `address`: its source position and the addresses it spans.
    public func lineEntry(at address: FileAddress) -> (file: String?, line: Int, range: AddressRange)? {
        guard let dwarf, let hit = try? dwarf.lookup(address), let found = hit.row else { return nil }
        return (found.file, Int(found.row.line), AddressRange(found.row.address, found.end))
    }

    /// The frames of an inline chain, innermost first. Each record's shown name is worked out once and kept
    /// with it (the index cache may store it demangled already).
    private func frames(chain: [IndexRecord], row: (row: LineRow, file: String?, end: FileAddress)?) -> [SymbolicatedFrame] {
        var location: (file: String?, line: Int, column: Int)? = row.map { ($0.file, Int($0.row.line), Int($0.row.column)) }
        if chain.isEmpty {
            guard let location else { return [] }
            return [SymbolicatedFrame(function: nil, linkageName: nil, file: location.file, line: location.line,
                                      column: location.column, isInlined: false)]
        }
        var frames: [SymbolicatedFrame] = []
        frames.reserveCapacity(chain.count)
        for entry in chain.reversed() {
            let linkageName = entry.record.linkageName ?? entry.record.name
            let function: String?
            if let shown = entry.shownName {
                function = shown
            } else {
                function = (options.demangle ? entry.storedDisplayName : nil) ?? linkageName.map(displayName)
                entry.shownName = .some(function)
            }
            frames.append(SymbolicatedFrame(
                function: function, linkageName: linkageName, file: location?.file,
                line: location?.line ?? 0, column: location?.column ?? 0, isInlined: entry.record.isInlined))
            location = (entry.record.callFile, entry.record.callLine, entry.record.callColumn)
        }
        return frames
    }
}

/// A value handed to threads that the caller keeps from touching it at the same time (each lane of
/// ``ImageSymbolizer/readAhead(_:threads:)`` uses its own index; only lane 0 uses the symbolizer).
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension ImageSymbolizer {
    /// True when the code at `address` is a signal trampoline's (see ``SignalTrampoline``), read from the image.
    public func isSignalTrampoline(at address: FileAddress) -> Bool {
        if let known = trampolineAnswers[address.rawValue] { return known }
        if mappedImage == nil { mappedImage = .some(try? ImmutableBytes(mapping: image.path)) }
        guard case let mapped?? = mappedImage,
              let bytes = ObjectFileReader.loadedBytes(at: address, count: SignalTrampoline.longestSequence, in: image, mapped: mapped) else {
            return false
        }
        let answer = SignalTrampoline.isTrampolineCode(bytes, architecture: image.architecture)
        trampolineAnswers[address.rawValue] = answer
        return answer
    }
}
