import PostmortemCore

/// A `.dSYM` bundle: a directory whose `Contents/Resources/DWARF/` holds the DWARF companion file.
package enum DSYMBundle {
    /// The names the dSYM bundle of a binary called `name` goes by: `App.dSYM`, and `App.app.dSYM` (Xcode names an
    /// app's after its bundle).
    package static func bundleNames(for name: String) -> [String] {
        [name + ".dSYM", appBundleName(for: name)]
    }

    /// `App.app.dSYM`: the name of an app's dSYM, after its bundle.
    package static func appBundleName(for name: String) -> String { name + ".app.dSYM" }

    /// True when `path` names a directory ending in `.dSYM`.
    package static func isBundle(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.hasSuffix(".dSYM") && FileSystem.isDirectory(path)
    }

    /// The DWARF file inside the bundle at `path`: the one regular file in `Contents/Resources/DWARF`
    /// (or the one named like the bundle, when there are several).
    /// - Throws: ``ObjectFileError`` when the bundle holds no DWARF file.
    package static func dwarfFile(in path: String) throws(ObjectFileError) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let directory = trimmed + "/Contents/Resources/DWARF"
        let files = regularFiles(in: directory)
        let bundleName = FilePath.fileName(of: trimmed)
        let stem = String(bundleName.dropLast(".dSYM".count))
        for candidate in [stem, stem.hasSuffix(".app") ? String(stem.dropLast(4)) : stem]
        where files.contains(candidate) {
            return directory + "/" + candidate
        }
        guard let only = files.first, files.count == 1 else {
            throw ObjectFileError(
                .malformed, path: trimmed,
                detail: files.isEmpty
                    ? "dSYM bundle has no DWARF file in Contents/Resources/DWARF"
                    : "dSYM bundle holds several DWARF files (\(files.joined(separator: ", "))); name one")
        }
        return directory + "/" + only
    }

    static func regularFiles(in directory: String) -> [String] {
        FileSystem.entries(of: directory).map(\.name).filter { FileSystem.isRegularFile(directory + "/" + $0) }.sorted()
    }
}
