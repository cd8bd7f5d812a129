import CrashLogs
import ObjectFiles
import PostmortemCore
import Symbolication
import Synchronization

extension SymbolFileIndex: ModuleSymbols {}

/// Finds the symbol files of images in Breakpad symbol stores (`DIR/NAME/DEBUGID/NAME.sym`), by the image's file name
/// and the debug id of its build-id or UUID; each file read once, and kept (a file that cannot be read is reported once
/// through `problems`, then passed over).
package final class SymbolStoreLookup: Sendable {
    /// The stores, searched in order.
    package let directories: [String]
    /// Where the files' indexes are kept between runs; `nil` when every run parses them.
    package let cache: IndexCache?
    /// Whether a file's index is written to ``cache`` as soon as it is parsed (a server, which runs on), rather than
    /// by ``writeIndexFiles()`` at the end of a run.
    private let writesIndexFilesAtOnce: Bool
    private let opened = Mutex<[String: SymbolFileIndex?]>([:])
    private let problems: @Sendable (String) -> Void

    /// A lookup in `directories`, saying through `problems` what is wrong with a file found there; the files' indexes
    /// read from `cache` when it holds them, and written to it as soon as a file is parsed when `writingAtOnce`.
    package init(
        directories: [String], cache: IndexCache? = nil, writingAtOnce: Bool = false,
        problems: @escaping @Sendable (String) -> Void
    ) {
        self.directories = directories
        self.cache = cache
        writesIndexFilesAtOnce = writingAtOnce
        self.problems = problems
    }

    /// Writes the index files of the symbol files this lookup parsed (none were in the cache), once its answers are
    /// out.
    /// - Returns: what could not be written, a line each.
    package func writeIndexFiles() -> [String] {
        guard let cache else { return [] }
        let parsed = opened.withLock { $0.values.compactMap { $0 }.filter { !$0.isFromIndexCache } }
        return parsed.sorted { $0.path < $1.path }.compactMap { $0.writeIndexFile(to: cache) }
    }

    /// The lookup as the symbolicator takes it.
    package var lookup: ModuleSymbolsLookup { { [self] image in self.symbols(of: image) } }

    /// The symbol file of `image`, when a store has one.
    package func symbols(of image: CrashImage) -> SymbolFileIndex? {
        guard let identifier = image.identifier, let debugID = Self.debugID(of: identifier) else { return nil }
        return symbols(names: [image.name] + (image.path.map { [FilePath.fileName(of: $0)] } ?? []), debugID: debugID)
    }

    /// The symbol file of the module a request names by its debug file's name (`libc.so.6`, `app.pdb`) and its Breakpad
    /// debug id, when a store has one.
    package func symbols(debugName: String, debugID: String) -> SymbolFileIndex? {
        guard let id = BreakpadDebugID.normalized(debugID) else { return nil }
        return symbols(names: [debugName], debugID: id)
    }

    /// The `STACK CFI` rows of the module `name` mapped from `path` with `buildID`, when a store has its symbol file and
    /// the file has such records: what a walk through the module goes by when its binary is not at hand.
    package func callFrames(name: String, path: String, buildID: BuildID) -> SymbolFileCallFrames? {
        guard let debugID = BreakpadDebugID.of(buildID: buildID),
            let index = symbols(names: [name, FilePath.fileName(of: path)], debugID: debugID), index.hasCallFrames
        else { return nil }
        return SymbolFileCallFrames(index: index)
    }

    /// The first symbol file of the module known by any of `names` and `debugID`, in the stores' order.
    private func symbols(names: [String], debugID: String) -> SymbolFileIndex? {
        for name in names where !name.isEmpty && !name.contains("/") {
            for directory in directories {
                let path = FilePath.join(directory, SymbolStoreLayout.relativePath(module: name, debugID: debugID))
                if let known = opened.withLock({ $0[path] }) { if let known { return known } else { continue } }
                guard FileSystem.isRegularFile(path) else { continue }
                let index: SymbolFileIndex?
                do { index = try SymbolFileIndex.open(path: path, cache: cache) } catch {
                    problems(error.description)
                    index = nil
                }
                index?.problems.forEach { problems("\(path): \($0)") }
                if writesIndexFilesAtOnce, let cache, let problem = index?.writeIndexFile(to: cache) {
                    problems(problem)
                }
                opened.withLock { $0[path] = index }
                if let index { return index }
            }
        }
        return nil
    }

    /// The Breakpad debug id of a log's image identifier: an ELF build-id, a Mach-O UUID, or a debug id already.
    static func debugID(of identifier: String) -> String? {
        let hex = identifier.replacing("-", with: "")
        if hex.utf8.count == 32, let uuid = MachUUID(string: identifier) { return BreakpadDebugID.of(uuid: uuid) }
        if let normalized = BreakpadDebugID.normalized(hex), hex.utf8.count == 33 { return normalized }
        return BuildID(hex: hex).flatMap { BreakpadDebugID.of(buildID: $0) }
    }
}
