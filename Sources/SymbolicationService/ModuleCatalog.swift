import ObjectFiles
import PostmortemCore
import Synchronization

/// The binaries and debug files below a server's folders, by Breakpad debug id: listed when the server starts, and
/// again when a request asks for a module not found (at most once every ``relistInterval``), so that files copied in
/// while it runs are found without a restart. A listing reads the headers only of files it has not seen, or that
/// changed since; the rest costs a `stat`. Safe to call from any thread.
package final class ModuleCatalog: Sendable {
    /// A file (or slice of a universal file) that holds a module.
    package struct Module: Hashable, Sendable {
        /// The file's path (the DWARF file inside a `.dSYM` bundle).
        package var path: String
        /// Its file name, as the Symbolication API names modules.
        package var name: String
        /// The slice of a universal file; `nil` for a file of one image.
        package var architecture: Architecture?
        /// Whether it carries DWARF (else only symbols, or a link to a debug file).
        package var hasDWARF: Bool
    }

    private struct State {
        var byID: [String: [Module]] = [:]
        /// What each listed file was when its headers were read, and the ids it gave.
        var seen: [String: (size: UInt64, modified: Int64, ids: [String])] = [:]
        var listedAt: ContinuousClock.Instant?
    }

    /// The folders searched, recursively (8 levels deep).
    package let roots: [String]
    /// The shortest time between two listings that a miss starts.
    package let relistInterval: Duration
    private let state = Mutex(State())
    private static let depth = 8

    /// A catalog of the files below `roots`, empty until ``list()`` (or a first ``find(debugName:debugID:)``).
    package init(roots: [String], relistInterval: Duration = .seconds(2)) {
        self.roots = roots
        self.relistInterval = relistInterval
    }

    /// The number of modules known.
    package var count: Int { state.withLock { $0.byID.values.reduce(0) { $0 + $1.count } } }

    /// Lists the folders now: reads the headers of new and changed files, forgets removed ones.
    package func list() {
        let previous = state.withLock { $0.seen }
        var seen: [String: (size: UInt64, modified: Int64, ids: [String])] = [:]
        var byID: [String: [Module]] = [:]
        for root in roots {
            for path in Self.files(below: root, depth: Self.depth) where seen[path] == nil {
                guard let status = FileSystem.status(path) else { continue }
                var modules: [(String, Module)] = []
                if let known = previous[path], known.size == status.size, known.modified == status.modified {
                    modules = state.withLock { current in
                        known.ids.flatMap { id in (current.byID[id] ?? []).filter { $0.path == path }.map { (id, $0) } }
                    }
                } else {
                    modules = Self.modules(in: path)
                }
                seen[path] = (status.size, status.modified, modules.map(\.0))
                for (id, module) in modules { byID[id, default: []].append(module) }
            }
        }
        state.withLock {
            $0.byID = byID
            $0.seen = seen
            $0.listedAt = .now
        }
    }

    /// The module a request names: the files of debug id `debugID`, the one named `debugName` and holding DWARF
    /// first. On a miss the folders are listed again (unless they were a moment ago) and asked once more.
    package func find(debugName: String, debugID: String) -> Module? {
        guard let id = BreakpadDebugID.normalized(debugID) else { return nil }
        if let found = lookup(debugName: debugName, id: id) { return found }
        let stale = state.withLock { state in state.listedAt.map { $0.duration(to: .now) >= relistInterval } ?? true }
        guard stale else { return nil }
        list()
        return lookup(debugName: debugName, id: id)
    }

    /// Every file of debug id `debugID` (a stripped binary and its debug file share one), listing the folders again on a
    /// miss as ``find(debugName:debugID:)`` does.
    package func modules(debugID: String) -> [Module] {
        guard let id = BreakpadDebugID.normalized(debugID) else { return [] }
        let found = state.withLock { $0.byID[id] ?? [] }
        if !found.isEmpty { return found }
        let stale = state.withLock { state in state.listedAt.map { $0.duration(to: .now) >= relistInterval } ?? true }
        guard stale else { return [] }
        list()
        return state.withLock { $0.byID[id] ?? [] }
    }

    private func lookup(debugName: String, id: String) -> Module? {
        let modules = state.withLock { $0.byID[id] ?? [] }
        // A stripped binary and its debug file share an id: the one with DWARF answers best, then the one named.
        return modules.min { rank($0, debugName) < rank($1, debugName) }
    }

    private func rank(_ module: Module, _ debugName: String) -> Int {
        (module.hasDWARF ? 0 : 2) + (module.name == debugName || module.name == debugName + ".debug" ? 0 : 1)
    }

    /// The images of the object file at `path`, each with its debug id; none for a file that is not one.
    private static func modules(in path: String) -> [(String, Module)] {
        guard let images = try? ObjectFileReader.readAll(path: path) else { return [] }
        let name = dSYMModuleName(of: path) ?? FilePath.fileName(of: path)
        return images.compactMap { image in
            guard let id = BreakpadDebugID.of(image) else { return nil }
            return (
                id,
                Module(
                    path: path, name: name, architecture: images.count > 1 ? image.architecture : nil,
                    hasDWARF: image.hasDWARF)
            )
        }
    }

    /// The module name of a DWARF file inside a dSYM bundle (`App.app.dSYM/Contents/Resources/DWARF/App` is `App`'s).
    private static func dSYMModuleName(of path: String) -> String? {
        guard path.contains(".dSYM/Contents/Resources/DWARF/") else { return nil }
        return FilePath.fileName(of: path)
    }

    /// Regular files below `directory`, into `.dSYM` bundles too; a link to a file is taken (`.build-id` trees are
    /// made of them), a link to a folder is not (one to a folder above would never end).
    private static func files(below directory: String, depth: Int) -> [String] {
        guard depth > 0 else { return [] }
        var files: [String] = []
        for entry in FileSystem.entries(of: directory).sorted(by: { $0.name < $1.name }) {
            let path = FilePath.join(directory, entry.name)
            if entry.isDirectory {
                files += Self.files(below: path, depth: depth - 1)
            } else if entry.isRegularFile || FileSystem.isRegularFile(path) {
                files.append(path)
            }
        }
        return files
    }
}
