import PostmortemCore

/// Where a symbol store keeps a module's file: `NAME/DEBUGID/FILE`, `FILE` being `NAME` with `.pdb` cut and `.sym`
/// added (the layout Breakpad's tools, Tecken and minidump-stackwalk's `--symbols-path` and `--symbols-url` use).
package enum SymbolStoreLayout {
    /// The file name of `module`'s symbol file: `xul.pdb` is `xul.sym`, `libc.so.6` is `libc.so.6.sym`.
    package static func fileName(forModule module: String) -> String {
        (module.lowercased().hasSuffix(".pdb") ? String(module.dropLast(4)) : module) + ".sym"
    }

    /// The path of `module`'s symbol file of build `debugID` below a store.
    package static func relativePath(module: String, debugID: String) -> String {
        "\(module)/\(debugID)/\(fileName(forModule: module))"
    }
}

extension SymbolFileText {
    /// Writes `file` to `path` beside it and renames it into place (a reader of a store never sees half of one),
    /// creating the folders it needs.
    /// - Throws: ``PostmortemCore/FileSystem/Failure`` when it cannot be written.
    package static func write(_ file: BreakpadSymbolFile, toPath path: String) throws(FileSystem.Failure) {
        try FileSystem.createDirectories(FilePath.directory(of: path))
        let writer = try FileSystem.AtomicFile(path: path)
        var failure: FileSystem.Failure?
        write(file) { bytes in
            guard failure == nil else { return }
            do throws(FileSystem.Failure) { try writer.append(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
        try writer.commit()
    }
}
