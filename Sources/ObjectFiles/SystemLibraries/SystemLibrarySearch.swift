import PostmortemCore

/// Where this machine keeps the libraries a crash log names by soname alone (`libc.so.6`, `libswiftCore.so`): the
/// dynamic linker's search path (`LD_LIBRARY_PATH`, `/etc/ld.so.cache`, the multiarch and default folders), then the
/// runtime folder of the Swift toolchain on `PATH`. A log from this machine then resolves where its process ran.
package struct SystemLibrarySearch: Sendable {
    /// Folders searched by file name, in order, after the linker cache (a folder that is not there holds nothing).
    package var folders: [String]
    private var cache: LinkerCache
    /// Whether the runtime folder of the Swift toolchain on `PATH` is searched last (found when the search gets there).
    private var searchesSwiftRuntime: Bool

    /// The search of this machine, from its environment.
    package static func standard() -> SystemLibrarySearch {
        var folders: [String] = []
        if let libraryPath = FileSystem.environment("LD_LIBRARY_PATH") {
            folders += libraryPath.utf8.split(separator: UInt8(ascii: ":")).map { String(decoding: $0, as: UTF8.self) }
        }
        let multiarch = [
            "x86_64-linux-gnu", "aarch64-linux-gnu", "i386-linux-gnu", "arm-linux-gnueabihf",
            "riscv64-linux-gnu", "powerpc64le-linux-gnu", "s390x-linux-gnu"
        ]
        for prefix in ["/lib", "/usr/lib"] { folders += multiarch.map { "\(prefix)/\($0)" } }
        folders += ["/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib"]
        return SystemLibrarySearch(folders: folders, cache: LinkerCache(), searchesSwiftRuntime: true)
    }

    /// A search of `folders` and of the dynamic linker's `cache`.
    package init(folders: [String], cache: LinkerCache) {
        self.init(folders: folders, cache: cache, searchesSwiftRuntime: false)
    }

    private init(folders: [String], cache: LinkerCache, searchesSwiftRuntime: Bool) {
        self.folders = folders
        self.cache = cache
        self.searchesSwiftRuntime = searchesSwiftRuntime
    }

    /// The files named `name` on this machine, in the order the dynamic linker would look (each once, and none whose
    /// real path is in `excluded`), each looked at only when the one before was not taken: the first usually is.
    package func candidates(named name: String, excluding excluded: Set<String> = []) -> Candidates {
        guard !name.isEmpty, !name.containsBytes("/") else {
            return Candidates(name: name, pending: [], searchesSwiftRuntime: false, seen: excluded)
        }
        return Candidates(
            name: name, pending: cache.paths(of: name) + folders.map { $0 + "/" + name },
            searchesSwiftRuntime: searchesSwiftRuntime, seen: excluded)
    }

    /// The files of a search, found one at a time.
    package struct Candidates: Sequence, IteratorProtocol {
        let name: String
        var pending: [String]
        var searchesSwiftRuntime: Bool
        /// The real paths given or tried.
        var seen: Set<String>

        /// The next file, or `nil` after the last.
        package mutating func next() -> String? {
            while true {
                if pending.isEmpty {
                    guard searchesSwiftRuntime else { return nil }
                    searchesSwiftRuntime = false
                    guard let folder = SystemLibrarySearch.swiftRuntimeFolder() else { return nil }
                    pending = [folder + "/" + name]
                }
                let path = pending.removeFirst()
                // Only ELF files: `libc.so` in a library folder is often a linker script.
                guard FileSystem.read(path, offset: 0, count: 4) == [0x7f, 0x45, 0x4c, 0x46],
                    seen.insert(FileSystem.realPath(path)).inserted
                else { continue }
                return path
            }
        }
    }

    /// `usr/lib/swift/linux` of the toolchain whose `swift` (or `swiftc`) is first on `PATH`.
    static func swiftRuntimeFolder() -> String? {
        guard let path = FileSystem.environment("PATH") else { return nil }
        for folder in path.utf8.split(separator: UInt8(ascii: ":")).map({ String(decoding: $0, as: UTF8.self) }) {
            for tool in ["swift", "swiftc"] where FileSystem.isRegularFile("\(folder)/\(tool)") {
                let real = FileSystem.realPath("\(folder)/\(tool)")
                guard let slash = real.lastIndex(of: "/") else { continue }
                let runtime = String(real[..<slash]) + "/../lib/swift/linux"
                if FileSystem.isDirectory(runtime) { return FileSystem.realPath(runtime) }
            }
        }
        return nil
    }
}
