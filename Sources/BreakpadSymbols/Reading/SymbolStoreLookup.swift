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
    private let opened = Mutex<[String: SymbolFileIndex?]>([:])
    private let problems: @Sendable (String) -> Void

    /// A lookup in `directories`, saying through `problems` what is wrong with a file found there.
    package init(directories: [String], problems: @escaping @Sendable (String) -> Void) {
        self.directories = directories
        self.problems = problems
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
                do { index = try SymbolFileIndex(path: path) } catch {
                    problems(error.description)
                    index = nil
                }
                index?.problems.forEach { problems("\(path): \($0)") }
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
