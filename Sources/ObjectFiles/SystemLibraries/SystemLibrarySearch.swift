import PostmortemCore

/// Where this machine keeps the libraries a crash log names by soname alone (`libc.so.6`, `libswiftCore.so`): the
/// dynamic linker's search path (`LD_LIBRARY_PATH`, `/etc/ld.so.cache`, the multiarch and default folders), then the
/// runtime folder of the Swift toolchain on `PATH`. A log from this machine then resolves where its process ran.
package struct SystemLibrarySearch: Sendable {
    /// Folders searched by file name, in order, after the linker cache.
    package var folders: [String]
    private var cache: LinkerCache

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
        if let swiftRuntime = swiftRuntimeFolder() { folders.append(swiftRuntime) }
        return SystemLibrarySearch(folders: folders.filter(FileSystem.isDirectory), cache: LinkerCache())
    }

    /// A search of `folders` and of the dynamic linker's `cache`.
    package init(folders: [String], cache: LinkerCache) {
        self.folders = folders
        self.cache = cache
    }

    /// The files named `name` on this machine, in the order the dynamic linker would look (each once).
    package func candidates(named name: String) -> [String] {
        guard !name.isEmpty, !name.contains("/") else { return [] }
        var seen = Set<String>()
        var found: [String] = []
        // Only ELF files: `libc.so` in a library folder is often a linker script.
        for path in cache.paths(of: name) + folders.map({ $0 + "/" + name })
        where FileSystem.read(path, offset: 0, count: 4) == [0x7f, 0x45, 0x4c, 0x46] {
            if seen.insert(FileSystem.realPath(path)).inserted { found.append(path) }
        }
        return found
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
