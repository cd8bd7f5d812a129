import PostmortemCore

/// Where the binaries a crash log names may be on this machine (beside ``DebugFileLocator``, which finds the debug
/// file of a binary in hand), in the order they are tried: the path as written when
/// absolute (after the `-o` binary, when it has the image's name); beside the log; below each `-d` folder (by name, debug
/// files by name too, and by build-id in `.build-id` trees); then the system's libraries. Each candidate is only a
/// candidate: the symbolicator checks it against what the log says before it uses it.
package final class BinaryLocator {
    /// A file that may be an image's binary, and how it was found (for the notes that reject it).
    package struct Candidate: Hashable {
        package var path: String
        package var origin: String

        package init(path: String, origin: String) {
            self.path = path
            self.origin = origin
        }
    }

    private let debugPaths: [String]
    private let object: String?
    /// Listings shared with other locators, when the caller keeps them (a server's); else this locator lists each folder
    /// once.
    private let sharedListings: DebugPathListings?
    private var systemSearch: SystemLibrarySearch?
    /// What each debug path holds (its entries and its subdirectories', 8 levels deep, in search order): listed
    /// once per run, not once per image looked for.
    private var debugPathEntries: [String: [(name: String, path: String)]] = [:]

    package init(debugPaths: [String], object: String?, sharedListings: DebugPathListings? = nil) {
        self.debugPaths = debugPaths
        self.object = object
        self.sharedListings = sharedListings
    }

    /// The existing files that may be the binary of the image a log calls `name` (at `path`, of build-id or UUID
    /// `identity`, when the log says), each once, in the order to try them; and where they were looked for, in
    /// words (for the reason a frame stays unresolved when none fits).
    /// - Parameter logDirectory: the log's folder; `nil` for standard input, whose relative paths are taken from the
    ///   current directory.
    package func candidates(
        name: String, path imagePath: String?, identity: ImageIdentifier?,
        logDirectory: String?
    ) -> (candidates: [Candidate], searched: [String]) {
        var found: [Candidate] = []
        var seen = Set<String>()
        func consider(_ path: String, _ origin: String) {
            guard FileSystem.isRegularFile(path) || DSYMBundle.isBundle(path) else { return }
            if seen.insert(FileSystem.realPath(path)).inserted { found.append(Candidate(path: path, origin: origin)) }
        }
        var searched: [String] = []
        // The -o binary, for frames that name it (a log that lists no images: Crashlytics', an address list's).
        if let object,
            Set([name, name + ".debug"] + DSYMBundle.bundleNames(for: name)).contains(FilePath.fileName(of: object))
        {
            consider(object, "given as the object")
        }
        if let path = imagePath, path.hasPrefix("/") {
            consider(path, "as the log names it")
            searched.append(path)
        }
        let besideLog = logDirectory ?? "."
        let besideNames =
            (imagePath.map { $0.hasPrefix("/") ? [] : [$0] } ?? []) + [name] + DSYMBundle.bundleNames(for: name)
        for relative in besideNames { consider(Self.join(besideLog, relative), "beside the log") }
        searched.append(logDirectory.map { "beside the log (\($0))" } ?? "in the current directory")
        let debugNames = Set([name, name + ".debug"] + DSYMBundle.bundleNames(for: name))
        let relativeBuildID = identity?.buildID?.debugFileRelativePath
        for root in debugPaths {
            if let relativeBuildID {
                consider(Self.join(root, relativeBuildID), "by build-id below \(root)")
                consider(Self.join(root, String(relativeBuildID.dropLast(".debug".count))), "by build-id below \(root)")
            }
            for path in entries(named: debugNames, below: root) { consider(path, "below \(root)") }
        }
        searched.append(
            debugPaths.isEmpty ? "below the debug folders (none given)" : "below " + debugPaths.joined(separator: ", "))
        if Self.searchesSystemLibraries(name: name, path: imagePath) { searched.append("in the system's libraries") }
        return (found, searched)
    }

    /// The system's libraries that may be the binary of the image `name` (at `path`), other than those of `tried`
    /// (what ``candidates(name:path:identity:logDirectory:)`` gave): to try when none of those fits. Apart because
    /// finding them reads the dynamic linker's cache and lists its folders, which the common case (the library at
    /// the path the log names) never needs.
    package func systemLibraryCandidates(name: String, path imagePath: String?, excluding tried: [Candidate])
        -> SystemLibraryCandidates
    {
        guard Self.searchesSystemLibraries(name: name, path: imagePath) else {
            return SystemLibraryCandidates(paths: nil)
        }
        if systemSearch == nil { systemSearch = SystemLibrarySearch.standard() }
        return SystemLibraryCandidates(
            paths: systemSearch?.candidates(named: name, excluding: Set(tried.map { FileSystem.realPath($0.path) })))
    }

    /// The system's libraries of ``systemLibraryCandidates(name:path:excluding:)``, each found when the one before was
    /// not taken.
    package struct SystemLibraryCandidates: Sequence, IteratorProtocol {
        var paths: SystemLibrarySearch.Candidates?

        /// The next library, or `nil` after the last.
        package mutating func next() -> Candidate? {
            while let path = paths?.next() {
                guard FileSystem.isRegularFile(path) else { continue }
                return Candidate(path: path, origin: "in the system's libraries")
            }
            return nil
        }
    }

    /// Whether an image `name` at `path` may be one of this machine's libraries: an ELF library named by a relative
    /// path, by a system folder's path, or by none.
    private static func searchesSystemLibraries(name: String, path imagePath: String?) -> Bool {
        // The vDSO is the kernel's, mapped into every process: never a file of a library folder.
        guard !name.hasPrefix("linux-vdso"), !name.hasPrefix("linux-gate") else { return false }
        return isELFName(name) && (imagePath.map { !$0.hasPrefix("/") || isSystemLibraryPath($0) } ?? true)
    }

    /// Files and `.dSYM` bundles below `root` whose name is one of `names`, nearest first.
    private func entries(named names: Set<String>, below root: String) -> [String] {
        if debugPathEntries[root] == nil {
            debugPathEntries[root] =
                sharedListings?.entries(below: root) { Self.entries(below: $0, depth: 8) }
                ?? Self.entries(below: root, depth: 8)
        }
        return debugPathEntries[root, default: []].filter { names.contains($0.name) }.map(\.path)
    }

    /// The entries of `directory`, then those of its subdirectories (sorted; `.dSYM` bundles not entered).
    /// Every entry below `directory`, `depth` levels deep (`.dSYM` bundles not entered), each folder's before its
    /// subfolders': nearest first.
    static func entries(below directory: String, depth: Int) -> [(name: String, path: String)] {
        guard depth > 0 else { return [] }
        var entries: [(name: String, path: String)] = []
        var subdirectories: [String] = []
        for entry in FileSystem.entries(of: directory) {
            let path = join(directory, entry.name)
            entries.append((entry.name, path))
            if entry.isDirectory, !entry.name.hasSuffix(".dSYM") { subdirectories.append(path) }
        }
        for subdirectory in subdirectories.sorted() {
            entries += Self.entries(below: subdirectory, depth: depth - 1)
        }
        return entries
    }

    /// True for names of shared libraries (`libc.so.6`, `ld-linux-x86-64.so.2`): a Mach-O log's images are never among
    /// this machine's libraries, and neither is a program.
    private static func isELFName(_ name: String) -> Bool { name.containsBytes(".so") }

    /// True for a path in the folders Linux distributions keep libraries in: a log that names one came from a system
    /// laid out like this one (an Android `/system/lib64` or a path of the log's own making did not).
    private static func isSystemLibraryPath(_ path: String) -> Bool {
        ["/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/"].contains { path.hasPrefix($0) }
    }

    /// A log's relative name (`./tally`) joined to a folder, without its `./`.
    private static func join(_ directory: String, _ name: String) -> String {
        if name.hasPrefix("./") { return join(directory, String(name.dropFirst(2))) }
        return FilePath.join(directory, name)
    }
}
