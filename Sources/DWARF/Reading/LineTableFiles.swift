/// The file paths of a line table, from the directory and file entries of its header.
enum LineTableFiles {
    /// A header's entries as stored: directory names, and each file's name with its directory index.
    struct Entries {
        var directories: [String] = []
        var files: [(name: String, directory: UInt64)] = []
    }

    /// The unit's file paths, indexed by the numbers rows and `DW_AT_call_file` use: from 0 in DWARF 5,
    /// from 1 before it (index 0 is then empty).
    ///
    /// Paths are joined as llvm-symbolizer joins them: a relative name goes below its include directory,
    /// and a relative include directory below the compile directory (except DWARF 5's directory 0, which
    /// already is the compile directory). Before DWARF 5, directory 0 is the compile directory and the
    /// table's first entry is directory 1.
    static func paths(_ entries: Entries, isVersion5: Bool, compilationDirectory: String) -> [String] {
        var paths: [String] = isVersion5 ? [] : [""]
        for (name, directoryIndex) in entries.files {
            if name.hasPrefix("/") {
                paths.append(name)
                continue
            }
            var includeDirectory = ""
            if isVersion5 {
                if directoryIndex < UInt64(entries.directories.count) {
                    includeDirectory = entries.directories[Int(directoryIndex)]
                }
            } else if directoryIndex > 0, directoryIndex <= UInt64(entries.directories.count) {
                includeDirectory = entries.directories[Int(directoryIndex) - 1]
            }
            var components: [String] = []
            if !isVersion5 || directoryIndex != 0, !includeDirectory.hasPrefix("/") {
                components.append(compilationDirectory)
            }
            components += [includeDirectory, name]
            paths.append(joinPath(components))
        }
        return paths
    }

    /// Joins path components with `/`, skipping empty ones, as llvm's `sys::path::append` does.
    static func joinPath(_ components: [String]) -> String {
        var path = ""
        for component in components where !component.isEmpty {
            if !path.isEmpty, !path.hasSuffix("/"), !component.hasPrefix("/") { path += "/" }
            path += component
        }
        return path
    }
}
