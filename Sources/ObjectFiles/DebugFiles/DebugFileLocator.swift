import PostmortemCore

/// Finds the separate debug file of a binary that has no DWARF of its own.
///
/// The order is gdb's: `ROOT/.build-id/xx/rest.debug` for each root (verified by build-id), then the
/// `.gnu_debuglink` name in the binary's directory, in its `.debug/` subdirectory and under
/// `ROOT/<binary's directory>/` (verified by build-id when both files have one, by CRC-32 otherwise); then below each
/// `-d` root the same names at any depth, and any file of the binary's build-id; last, when a remote source is given,
/// the file of the binary's build-id fetched from it (verified by build-id too).
package struct DebugFileLocator: Sendable {
    /// The roots searched, in gdb's order.
    package var search: DebugFileSearch
    /// Where a debug file missing here is fetched from by build-id (debuginfod), if anywhere.
    package var remote: RemoteDebugFileSource?

    /// A locator searching `search`'s roots, then `remote` when given.
    package init(search: DebugFileSearch = DebugFileSearch(), remote: RemoteDebugFileSource? = nil) {
        self.search = search
        self.remote = remote
    }

    /// Looks for the debug file of `binary`. Candidates that exist but belong to another build are
    /// reported in ``DebugFileLookup/rejections``, never used.
    package func locateDebugFile(for binary: ObjectFile) -> DebugFileLookup {
        if binary.format == .machO { return locateDSYM(for: binary) }
        var rejections: [DebugFileLookup.Rejection] = []
        // By real path: a -d folder that holds the binary itself names it another way (`bin/app` for `/tmp/x/bin/app`),
        // and the binary is no candidate for its own debug file.
        var seen: Set<String> = [FileSystem.realPath(binary.path)]
        func consider(_ candidate: String, verify: (ObjectFile) -> String?) -> ObjectFile? {
            guard let file = Self.read(candidate, seen: &seen, rejections: &rejections) else { return nil }
            if let mismatch = verify(file) {
                rejections.append(.init(path: candidate, reason: mismatch))
                return nil
            }
            guard file.hasDWARF else {
                rejections.append(.init(path: candidate, reason: "has no DWARF"))
                return nil
            }
            return file
        }

        if let buildID = binary.buildID, let relative = buildID.debugFileRelativePath {
            for root in search.allRoots {
                if let found = consider(FilePath.join(root, relative), verify: { Self.buildIDMismatch(binary, $0) }) {
                    return DebugFileLookup(debugFile: found, rejections: rejections)
                }
            }
        }
        if let link = binary.debugLink {
            // The folder the binary's path names, and the one it really is in: a library is named by a symlink chain
            // (`libssl.so.3 → libssl.so.3.0.x`, a soname link into another folder), and gdb looks beside the real file.
            let named = FilePath.directory(of: binary.path)
            let absolute = Self.absolute(named)
            let real = FilePath.directory(of: FileSystem.realPath(binary.path))
            let realDiffers = real != absolute && !real.isEmpty
            var candidates = ([named] + (realDiffers ? [real] : [])).flatMap {
                [FilePath.join($0, link.fileName), FilePath.join($0, ".debug/" + link.fileName)]
            }
            for root in search.allRoots {
                for directory in [absolute] + (realDiffers ? [real] : []) {
                    candidates.append(FilePath.join(root + directory, link.fileName))
                }
            }
            for candidate in candidates {
                let found = consider(candidate) { file in
                    if binary.buildID != nil, file.buildID != nil { return Self.buildIDMismatch(binary, file) }
                    guard let crc = CRC32.ofFile(at: file.path) else { return "cannot be read" }
                    return crc == link.crc
                        ? nil : "CRC-32 \(Self.hex(crc)) does not match the debug link's \(Self.hex(link.crc))"
                }
                if let found { return DebugFileLookup(debugFile: found, rejections: rejections) }
            }
        }
        // Below each -d folder at any depth (`objcopy --only-keep-debug app app.debug` then `mv *.debug dbg/`): a
        // `.build-id` tree's file of the binary's build-id, the debug link's name (its CRC checked), `NAME.debug`.
        for root in search.roots {
            for candidate in Self.candidates(below: root, for: binary) {
                let found = consider(candidate) { file in
                    if binary.buildID != nil, file.buildID != nil { return Self.buildIDMismatch(binary, file) }
                    guard let link = binary.debugLink, FilePath.fileName(of: candidate) == link.fileName else {
                        return "neither build-id nor debug link ties it to \(binary.path)"
                    }
                    guard let crc = CRC32.ofFile(at: file.path) else { return "cannot be read" }
                    return crc == link.crc
                        ? nil : "CRC-32 \(Self.hex(crc)) does not match the debug link's \(Self.hex(link.crc))"
                }
                if let found { return DebugFileLookup(debugFile: found, rejections: rejections) }
            }
        }
        // Any other file below a -d folder whose build-id is the binary's: a debug file renamed at will.
        if let buildID = binary.buildID {
            for root in search.roots {
                for candidate in search.catalog.files(below: root, buildID: buildID) {
                    if let found = consider(candidate, verify: { Self.buildIDMismatch(binary, $0) }) {
                        return DebugFileLookup(debugFile: found, rejections: rejections)
                    }
                }
            }
        }
        if let remote, let buildID = binary.buildID {
            switch remote.source.fetch(.debugInfo, of: buildID) {
            case .fetched(let path, let origin):
                if let found = consider(path, verify: { Self.buildIDMismatch(binary, $0) }) {
                    return DebugFileLookup(debugFile: found, rejections: rejections, origin: origin)
                }
            case .unavailable(let reason):
                return DebugFileLookup(debugFile: nil, rejections: rejections, unavailableRemotely: reason)
            }
        }
        return DebugFileLookup(debugFile: nil, rejections: rejections)
    }

    /// The object file at `candidate`, read once a search (`seen`, by real path); `nil` when it is no regular file,
    /// was read before, or cannot be read (a rejection then says why).
    static func read(_ candidate: String, seen: inout Set<String>, rejections: inout [DebugFileLookup.Rejection])
        -> ObjectFile?
    {
        guard FileSystem.isRegularFile(candidate), seen.insert(FileSystem.realPath(candidate)).inserted else {
            return nil
        }
        do { return try ObjectFileReader.read(path: candidate) } catch {
            rejections.append(.init(path: candidate, reason: error.description))
            return nil
        }
    }

    /// The dSYM of a Mach-O image: `App.dSYM` or `App.app.dSYM` beside the binary (or beside its `.app`
    /// bundle), then in each root; used only when it has a slice with the binary's UUID.
    private func locateDSYM(for binary: ObjectFile) -> DebugFileLookup {
        let name = FilePath.fileName(of: binary.path)
        let directory = FilePath.directory(of: binary.path)
        var candidates = [binary.path + ".dSYM", FilePath.join(directory, DSYMBundle.appBundleName(for: name))]
        if let app = Self.appBundle(containing: binary.path) { candidates.append(app + ".dSYM") }
        for root in search.roots { candidates += DSYMBundle.bundleNames(for: name).map { FilePath.join(root, $0) } }
        var rejections: [DebugFileLookup.Rejection] = []
        var seen: Set<String> = []
        for candidate in candidates where DSYMBundle.isBundle(candidate) && seen.insert(candidate).inserted {
            let images: [ObjectFile]
            do { images = try ObjectFileReader.readAll(path: candidate) } catch {
                rejections.append(.init(path: candidate, reason: error.description))
                continue
            }
            if let match = images.first(where: { $0.uuid != nil && $0.uuid == binary.uuid }) {
                return DebugFileLookup(debugFile: match, rejections: rejections)
            }
            let found = images.map { "\($0.uuid?.description ?? "no UUID") (\($0.architecture))" }.joined(
                separator: ", ")
            rejections.append(
                .init(
                    path: candidate,
                    reason:
                        "UUID \(found) does not match the binary's \(binary.uuid?.description ?? "missing UUID") (\(binary.architecture))"
                ))
        }
        return DebugFileLookup(debugFile: nil, rejections: rejections)
    }

    /// Files below `root` (8 levels deep) that may be `binary`'s debug file, nearest first: in a `.build-id` folder at
    /// the binary's build-id path, or named as its debug link names it, or `NAME.debug`, or a copy named as the binary
    /// is (an unstripped build kept beside the shipped one; taken only when its build-id is the binary's).
    static func candidates(below root: String, for binary: ObjectFile) -> [String] {
        let name = FilePath.fileName(of: binary.path)
        let names = Set(
            [binary.debugLink?.fileName, name + ".debug", binary.buildID == nil ? nil : name].compactMap { $0 })
        return candidates(below: root, named: names, buildID: binary.buildID)
    }

    /// Files below `root` (8 levels deep), nearest first, named one of `names` or at `buildID`'s path in a
    /// `.build-id` folder.
    static func candidates(below root: String, named names: Set<String>, buildID: BuildID?) -> [String] {
        let relative = buildID?.debugFileRelativePath.map { "/" + $0 }
        return BinaryLocator.entries(below: root, depth: 8).compactMap { entry in
            if names.contains(entry.name) { return entry.path }
            if let relative, entry.path.hasSuffix(relative), entry.path.dropLast(relative.count).hasSuffix(".build-id")
            {
                return entry.path
            }
            return nil
        }
    }

    private static func buildIDMismatch(_ binary: ObjectFile, _ candidate: ObjectFile) -> String? {
        guard let expected = binary.buildID else { return nil }
        guard let actual = candidate.buildID else { return "has no build-id (expected \(expected))" }
        return actual == expected ? nil : "build-id \(actual) does not match \(expected)"
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }

    /// The `.app` bundle a binary lies in (`/x/App.app` for `/x/App.app/Contents/MacOS/App`), if any.
    static func appBundle(containing path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.dropLast().lastIndex(where: { $0.hasSuffix(".app") }) else { return nil }
        return parts[...index].joined(separator: "/")
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let base = FileSystem.currentDirectory else { return "/" + path }
        return path == "." ? base : FilePath.join(base, path)
    }
}
