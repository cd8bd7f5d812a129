import DWARF
import ObjectFiles
import PostmortemCore
import Synchronization

/// Writing the image's index-cache file.
extension ImageSymbolizer {
    /// Writes the image's index-cache file when the cache is on and there is no sound one yet (or the
    /// one read turned out damaged). Reads every unit the lookups have not read. A failure to write
    /// becomes a note; lookups are not affected.
    /// - Complexity: O(the debug file's DWARF) when a file is written; O(1) otherwise.
    public func writeIndexCache() {
        let cached = dwarf as? CachedIndex
        guard let cache = options.indexCache, needsCacheFile.load(ordering: .relaxed) || cached?.damage != nil else {
            return
        }
        let index = (dwarf as? DWARFIndex) ?? cached?.fallback
        // With no debug file, the file holds the image's symbols and no units.
        guard index != nil || debugFile == nil else { return }
        let cachedFile = debugFile ?? image
        // One thread writes the file; another one asking meanwhile finds nothing left to do.
        guard needsCacheFile.exchange(false, ordering: .relaxed) || cached?.damage != nil else { return }
        guard let contentKey = cache.contentKey(for: image, debugFile: cachedFile, computing: true) else {
            diagnostics.report(subject: cachedFile.path, "index cache not written: the file cannot be read")
            return
        }
        let path = cache.path(for: image, contentKey: contentKey)
        // Another process sharing the folder (a second server, a run beside this one, a run on a copy of the build)
        // may have written a sound file since this image was opened: the first complete file stays, and the work is
        // not done twice.
        if cached == nil,
            case .success? = IndexCacheFile.open(
                path, for: cachedFile, supplementary: supplementaryFile, contentKey: contentKey)
        {
            return
        }
        if let damage = cached?.damage { diagnostics.report(subject: nil, damage) }
        let metadata = IndexCacheFile.Metadata(
            image: image, debugFile: cachedFile, supplementary: supplementaryFile, contentKey: contentKey)
        let unitRanges: [(AddressRange, UInt32)]
        do throws(DWARFError) { unitRanges = try index?.unitRanges() ?? [] } catch {
            diagnostics.report(subject: nil, "index cache not written: \(error.description)")
            return
        }
        let contents = IndexCacheFile.Contents(
            metadata: metadata, imageSymbols: symbolTable(), debugFileSymbols: debugFileSymbolTable(),
            unitRanges: unitRanges, unitCount: index?.unitCount ?? 0, imageIsDebugFile: cachedFile == image)
        // Names the debug file holds are stored as its offsets; without its bytes, every name is copied.
        let inPlace =
            index == nil
            ? nil
            : (try? ImmutableBytes(mapping: cachedFile.path)).map { InPlaceStrings(debugFile: cachedFile, bytes: $0) }
        do throws(FileSystem.Failure) {
            try FileSystem.createDirectories(cache.directory)
            try IndexCacheFile.write(
                contents,
                unit: { position in
                    guard let index else {
                        return .failure(DWARFError(.noDebugInfo, path: cachedFile.path, detail: ""))
                    }
                    do throws(DWARFError) {
                        // Packed again with every name complete, so that lookups follow no name reference; names are not
                        // demangled ahead (a file of Swift's demangled names was larger than the DWARF).
                        var unit = try index.unitForCache(atPosition: position).contents()
                        unit.functions = unit.functions.map(index.file.completingNames)
                        return .success(FlatUnit.encode(unit, inPlace: inPlace))
                    } catch { return .failure(error) }
                }, to: path)
        } catch {
            diagnostics.report(subject: nil, "index cache not written: \(error.description)")
        }
    }

    /// The path of the image's index-cache file (its content digested when no place record knows it); `nil` with no
    /// cache, or when the files cannot be read.
    package func indexCachePath() -> String? {
        guard let cache = options.indexCache else { return nil }
        let cachedFile = debugFile ?? image
        return cache.contentKey(for: image, debugFile: cachedFile, computing: true).map {
            cache.path(for: image, contentKey: $0)
        }
    }

    /// A symbol table from the cache file; `nil` (and the file marked for rebuilding) when it is damaged.
    func cachedSymbols(_ kind: IndexCacheFile.SectionKind) -> SymbolTable? {
        guard let cacheFile else { return nil }
        if let table = cacheFile.symbolTable(kind) { return table }
        diagnostics.report(
            subject: cacheFile.path, "damaged symbol table; read from the binary, and the file is rebuilt")
        needsCacheFile.store(true, ordering: .relaxed)
        return nil
    }
}
