import PostmortemCore

/// Finding the file dwz moved a debug file's common DWARF to (``SupplementaryLink``).
extension DebugFileLocator {
    /// Looks for the supplementary file `debugFile` links to, in gdb's and elfutils' places: the path as linked
    /// (absolute, or relative to the debug file's folder, the real one too), that path below each debug root (a
    /// Debian package unpacked below `-d ROOT`: `ROOT/usr/lib/debug/.dwz/…`); `.build-id/xx/rest.debug` in each root
    /// for its build-id; below each `-d` folder at any depth, a file of the link's name or of its build-id; last,
    /// the remote source by build-id (debuginfod serves it as `debuginfo`, as elfutils asks for it). A candidate must
    /// have the build-id the link states and DWARF of its own. `nil` lookup when `debugFile` links to none.
    package func locateSupplementaryFile(for debugFile: ObjectFile) -> DebugFileLookup? {
        guard let link = debugFile.supplementaryLink else { return nil }
        var rejections: [DebugFileLookup.Rejection] = []
        var seen: Set<String> = [debugFile.path]
        func consider(_ candidate: String) -> ObjectFile? {
            guard let file = Self.read(candidate, seen: &seen, rejections: &rejections) else { return nil }
            // A DWARF 5 supplementary file states its checksum in its own `.debug_sup`, and may have no build-id.
            let identity = link.kind == .dwarf5 ? file.supplementaryChecksum ?? file.buildID : file.buildID
            if let expected = link.buildID, identity != expected {
                let what = link.kind == .dwarf5 ? "checksum" : "build-id"
                rejections.append(
                    .init(
                        path: candidate,
                        reason: identity.map { "\(what) \($0) does not match \(expected)" }
                            ?? "has no \(what) (expected \(expected))"))
                return nil
            }
            guard file.hasDWARF else {
                rejections.append(.init(path: candidate, reason: "has no DWARF"))
                return nil
            }
            return file
        }
        func found(_ file: ObjectFile, origin: String? = nil) -> DebugFileLookup {
            DebugFileLookup(debugFile: file, rejections: rejections, origin: origin)
        }

        var candidates: [String] = []
        if link.path.hasPrefix("/") {
            candidates.append(link.path)
            for root in search.roots {
                candidates.append(root + link.path)
                // A root that is itself a debug folder (`-d unpacked/usr/lib/debug`) holds the path below it.
                if link.path.hasPrefix(DebugFileSearch.systemRoot + "/") {
                    candidates.append(root + link.path.dropFirst(DebugFileSearch.systemRoot.count))
                }
            }
        } else {
            let directory = FilePath.directory(of: debugFile.path)
            candidates.append(FilePath.join(directory, link.path))
            let realDirectory = FilePath.directory(of: FileSystem.realPath(debugFile.path))
            if realDirectory != directory { candidates.append(FilePath.join(realDirectory, link.path)) }
        }
        if let relative = link.buildID?.debugFileRelativePath {
            for root in search.allRoots { candidates.append(FilePath.join(root, relative)) }
        }
        for candidate in candidates {
            if let file = consider(candidate) { return found(file) }
        }
        for root in search.roots {
            for candidate in Self.candidates(
                below: root, named: [FilePath.fileName(of: link.path)], buildID: link.buildID)
            {
                if let file = consider(candidate) { return found(file) }
            }
        }
        if let buildID = link.buildID {
            for root in search.roots {
                for candidate in search.catalog.files(below: root, buildID: buildID) {
                    if let file = consider(candidate) { return found(file) }
                }
            }
            if let remote {
                switch remote.source.fetch(.debugInfo, of: buildID) {
                case .fetched(let path, let origin):
                    if let file = consider(path) { return found(file, origin: origin) }
                case .unavailable(let reason):
                    return DebugFileLookup(debugFile: nil, rejections: rejections, unavailableRemotely: reason)
                }
            }
        }
        return DebugFileLookup(debugFile: nil, rejections: rejections)
    }
}
