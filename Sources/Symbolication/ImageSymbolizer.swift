import DWARF
import Dispatch
public import ObjectFiles
public import PostmortemCore
import Synchronization

/// Resolves file addresses of one binary (or debug file) to functions, inline chains and source lines.
///
/// Opening reads the binary's headers and finds its debug file when it has no DWARF of its own; then
/// it maps the image's index-cache file when the cache is on and holds a sound one, else reads the debug
/// file's unit list, everything else being read on first use (and the cache file written by
/// ``writeIndexCache()``). One instance serves every thread: lookups change nothing but memos, each behind a lock
/// held only to read or store it, and the DWARF is read in place with no lock held.
public final class ImageSymbolizer: Sendable {
    /// What is said of an image with no debug information anywhere (its names come from its symbol table alone):
    /// the line a command that prints reports gathers into one for all such images.
    package static let symbolTableOnly = "no debug information found; using the symbol table only"

    /// The binary or debug file that was opened.
    public let image: ObjectFile
    /// The file the DWARF comes from: ``image`` itself, a separate debug file, or `nil` when none was found.
    public let debugFile: ObjectFile?
    /// The file dwz moved the debug file's common DIEs and strings to (its `.gnu_debugaltlink` or `.debug_sup`), when
    /// it has one and it was found.
    public let supplementaryFile: ObjectFile?
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
    /// Demangles in the style the options ask for (``SymbolizerOptions/swiftNames``), with buffers every thread
    /// shares: a batch demangles thousands of names.
    let demangler: Demangler
    /// The lookups of the debug file: from its DWARF, or from the index cache.
    let dwarf: AddressIndex?
    /// The index-cache file lookups read from; `nil` when they read DWARF.
    let cacheFile: IndexCacheFile?
    /// True while the index cache is on and has no sound file for this image: ``writeIndexCache()`` writes one.
    let needsCacheFile: Atomic<Bool>

    /// Whether ``writeIndexCache()`` would write a file: the cache is on and has no sound one for this image.
    package var needsIndexCacheFile: Bool {
        needsCacheFile.load(ordering: .relaxed) || (dwarf as? CachedIndex)?.damage != nil
    }
    /// The image's and its debug file's symbol tables, read on first use (``ImageSymbolizer+SymbolTables``).
    let symbolTables = Mutex(SymbolTables())
    /// Lookups left that scan the symbol tables in file order before they are sorted.
    let scansLeft = Atomic(LookupTuning.scansBeforeSorting)
    /// Names as shown, worked out once (``ImageSymbolizer+Names``).
    let shownNames = ShownNames()
    /// Answers a batch of logs asks for again and again: symbols by name, whether code is a signal trampoline.
    let answers = Mutex(RepeatedAnswers())
    /// The addresses of the image's and its debug file's allocated sections, as disjoint ranges in address order:
    /// every lookup first checks that its address lies in one.
    let sectionAddresses: [AddressRange]

    /// Opens the binary or debug file at `path`: from its index-cache file when ``SymbolizerOptions/indexCache``
    /// is set and has a sound one for the debug file found now, else from that file's DWARF.
    /// - Throws: ``SymbolicationError`` when the file cannot be read as an object file at all.
    /// - Parameter diagnostics: where what lookups and index-cache writing find later is reported.
    public convenience init(
        path: String, options: SymbolizerOptions = SymbolizerOptions(),
        diagnostics: DiagnosticSink
    ) throws(SymbolicationError) {
        let image: ObjectFile
        do { image = try ObjectFileReader.read(path: path, architecture: options.architecture) } catch {
            throw .objectFile(error)
        }
        // A core's segments are memory, not code to look addresses up in: it is unwound, not resolved.
        if image.kind == .core {
            throw .objectFile(
                ObjectFileError(
                    .unknownFormat, path: path, detail: "an ELF core file, which postmortem symbolicate unwinds"))
        }
        self.init(image: image, options: options, diagnostics: diagnostics)
    }

    /// Opens `image`, already read (one slice of a universal file, say), as ``init(path:options:diagnostics:)`` does.
    public init(image: ObjectFile, options: SymbolizerOptions = SymbolizerOptions(), diagnostics: DiagnosticSink) {
        self.options = options
        demangler = Demangler.sharingBuffers(style: options.swiftNames)
        self.image = image
        self.diagnostics = diagnostics
        let path = image.path
        var notes: [Diagnostic] = []
        var debugFile: ObjectFile? = image.hasDWARF ? image : nil
        if debugFile == nil {
            let lookup = DebugFileLocator(search: options.debugFileSearch, remote: options.remoteDebugFiles)
                .locateDebugFile(for: image)
            for rejection in lookup.rejections {
                notes.append(
                    Diagnostic(
                        subject: rejection.path, message: "not used as debug file of \(path): \(rejection.reason)"))
            }
            debugFile = lookup.debugFile
            if debugFile == nil {
                let remotely = lookup.unavailableRemotely.map { " (\($0))" } ?? ""
                notes.append(
                    Diagnostic(
                        subject: path,
                        message: remotely.isEmpty
                            ? Self.symbolTableOnly
                            : "no debug information found\(remotely); using the symbol table only"))
            }
        }
        let locator = DebugFileLocator(search: options.debugFileSearch, remote: options.remoteDebugFiles)
        let supplementaryFile = debugFile.flatMap { Self.supplementaryFile(of: $0, locator: locator, notes: &notes) }
        self.supplementaryFile = supplementaryFile
        // The cache answers for the debug file found just now, never for one found in another context. An image with
        // no debug information at all has a file of its symbols alone (a large symbol table, libswiftCore's say, takes
        // longer to read from the binary than the lookups take).
        // Its file is the one of the content found: any copy of the build, at any path, shares it.
        if let cache = options.indexCache,
            let contentKey = cache.contentKey(
                for: image, debugFile: debugFile ?? image, computing: false)
        {
            let cachedFile = debugFile ?? image
            switch IndexCacheFile.open(
                cache.path(for: image, contentKey: contentKey), for: cachedFile, supplementary: supplementaryFile,
                contentKey: contentKey)
            {
            case nil:
                break
            case .success(let file)?:
                // Used now: the last to be evicted when the cache outgrows its limit.
                FileSystem.touch(file.path)
                self.debugFile = debugFile
                sectionAddresses = Self.sectionAddresses(of: image, debugFile)
                cacheFile = file
                dwarf = debugFile.map { debugFile in
                    CachedIndex(file: file) { try? DWARFIndex(object: debugFile, supplementary: supplementaryFile) }
                }
                needsCacheFile = Atomic(false)
                openingDiagnostics = notes
                return
            case .failure(let error)?:
                notes.append(Diagnostic(subject: nil, message: "\(error.description); rebuilding it"))
            }
        }
        cacheFile = nil
        var dwarf: DWARFIndex?
        if let debugFile {
            do { dwarf = try DWARFIndex(object: debugFile, supplementary: supplementaryFile) } catch {
                notes.append(Diagnostic(subject: nil, message: "\(error.description); using the symbol table only"))
            }
            if let problem = dwarf?.file.supplementaryProblem {
                notes.append(Diagnostic(subject: debugFile.path, message: problem))
            }
        }
        self.debugFile = dwarf == nil ? nil : debugFile
        sectionAddresses = Self.sectionAddresses(of: image, self.debugFile)
        self.dwarf = dwarf
        // An image with readable DWARF gets a cache file, and one without any debug information a file of its symbols;
        // one whose debug file cannot be read gets none.
        needsCacheFile = Atomic(options.indexCache != nil && (dwarf != nil || debugFile == nil))
        openingDiagnostics = notes
    }

    /// The supplementary file `debugFile` links to, found by `locator`; a note in `notes` when it links to one that is
    /// not found (the names dwz moved there are then missing, never shown as placeholders).
    private static func supplementaryFile(
        of debugFile: ObjectFile, locator: DebugFileLocator, notes: inout [Diagnostic]
    ) -> ObjectFile? {
        guard let lookup = locator.locateSupplementaryFile(for: debugFile), let link = debugFile.supplementaryLink
        else { return nil }
        for rejection in lookup.rejections {
            notes.append(
                Diagnostic(
                    subject: rejection.path,
                    message: "not used as the dwz common file of \(debugFile.path): \(rejection.reason)"))
        }
        if lookup.debugFile == nil {
            let id = link.buildID.map { " (\(link.kind == .dwarf5 ? "checksum" : "build-id") \($0))" } ?? ""
            let remotely = lookup.unavailableRemotely.map { "; \($0)" } ?? ""
            notes.append(
                Diagnostic(
                    subject: debugFile.path,
                    message:
                        "its dwz common file \(link.path)\(id) was not found\(remotely); names it holds are missing"))
        }
        return lookup.debugFile
    }

    /// The build-id the image's source files are known by: the debug file's, else the image's.
    public var sourceBuildID: BuildID? { debugFile?.buildID ?? image.buildID }

    /// Whether ``readAhead(_:threads:)`` has anything to do: lookups read DWARF, not the index cache.
    package var readsAhead: Bool { dwarf is DWARFIndex }

    /// Reads ahead the debug information `addresses` need, when lookups read it from DWARF: every unit they fall in
    /// that no thread has read or is reading, on `threads` threads at once (this one and others, each unit once).
    /// Meanwhile one of them sorts the symbol tables, which many lookups are about to search. Does nothing when the
    /// index cache answers.
    package func readAhead(_ addresses: [FileAddress], threads: Int = 2) {
        guard let index = dwarf as? DWARFIndex else { return }
        let lanes = max(threads, 1)
        // Units read for a few addresses each hold a part of what the index-cache file about to be written needs.
        let partially = !needsCacheFile.load(ordering: .relaxed) || !options.writesIndexCacheInRun
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            if lane == 0 {
                _ = self.symbolTable()
                _ = self.debugFileSymbolTable()
            }
            index.readAhead(addresses, lane: lane, of: lanes, partially: partially)
        }
    }
}
