import ObjectFiles
import PostmortemCore
import Symbolication

/// A symbol file's index kept in the index cache: its tables written once, then mapped by later runs instead of
/// parsing the text again (a store's largest files run to hundreds of MB). The index file is named by the module's
/// debug id and the symbol file's content, found through a place record of the file's path, as binaries' are.
extension SymbolFileIndex {
    /// Reads the symbol file at `path`: its records from its index file in `cache` when that is current, else parsed.
    /// - Throws: ``SymbolFileError`` when the file cannot be read or does not start with a `MODULE` line.
    package static func open(path: String, cache: IndexCache?) throws(SymbolFileError) -> SymbolFileIndex {
        let mapped = try Self.mapped(path)
        var parser = SymbolFileParser(mapped)
        let module = try moduleLine(&parser, path: path)
        if let cache, let tables = cachedTables(of: mapped, path: path, module: module, in: cache) {
            return SymbolFileIndex(module: module, bytes: mapped, path: path, tables: tables, fromIndexCache: true)
        }
        parser.parseRecords()
        return SymbolFileIndex(
            module: module, bytes: mapped, path: path, tables: SymbolFileTables(&parser), fromIndexCache: false)
    }

    /// Writes the index file of a symbol file parsed in this run to `cache` (the least recently used files go when
    /// the cache would grow past its limit).
    /// - Returns: why it could not be written, in one line; `nil` when it was, or was read from the cache.
    package func writeIndexFile(to cache: IndexCache) -> String? {
        guard !isFromIndexCache else { return nil }
        if let problem = cache.prepare() { return problem }
        let identity = Self.cacheIdentity(of: module)
        guard
            let key = cache.contentKey(
                ofFile: path, identity: identity, computing: true, digest: { bytes.contentDigest() })
        else { return "\(path): cannot be read again to name its index file" }
        let indexPath = cache.path(identity: identity, contentKey: key)
        let metadata = TableFile.Metadata(
            kind: SymbolFileTables.kind, sourcePath: FileSystem.realPath(path), sourceSize: UInt64(bytes.count),
            contentKey: key)
        do throws(FileSystem.Failure) {
            try TableFile.write(metadata: metadata, contents: tables.bytes, tables: tables.ranges, to: indexPath)
        } catch {
            return "\(error.description); the index cache is not used for \(path)"
        }
        cache.evict(keeping: [indexPath])
        return nil
    }

    /// What the names of a module's index files start with: its debug id (letters and digits only).
    static func cacheIdentity(of module: BreakpadModuleLine) -> String {
        "symfile-" + String(module.debugID.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(40))
    }

    /// The tables of the current index file of the symbol file `bytes` at `path`; `nil` when there is none (or it is
    /// damaged, or of another file: it is then rewritten).
    private static func cachedTables(
        of bytes: ImmutableBytes, path: String, module: BreakpadModuleLine, in cache: IndexCache
    ) -> SymbolFileTables? {
        let identity = cacheIdentity(of: module)
        guard
            let key = cache.contentKey(
                ofFile: path, identity: identity, computing: false, digest: { bytes.contentDigest() }),
            let file = try? TableFile(path: cache.path(identity: identity, contentKey: key)),
            file.metadata.contentKey == key, file.metadata.sourceSize == UInt64(bytes.count)
        else { return nil }
        return SymbolFileTables(file)
    }
}
