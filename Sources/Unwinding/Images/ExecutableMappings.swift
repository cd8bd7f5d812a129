import ObjectFiles
import PostmortemCore

/// Where the program's own binary lay in a core that lists no mapped files (qemu-user's cores, which hold no `NT_FILE`
/// and no code pages): its binary (`-e`, else the path the auxiliary vector's `AT_EXECFN` names, beside the core when
/// relative) placed by `AT_ENTRY`, the address its entry point ran at.
enum ExecutableMappings {
    static let entryType: UInt64 = 9 // AT_ENTRY
    static let fileNameType: UInt64 = 31 // AT_EXECFN

    /// The executable found and where it was loaded.
    struct Placed {
        /// Its binary.
        var object: ObjectFile
        /// Runtime address less file address.
        var bias: UInt64
        /// Its segments as a kernel's `NT_FILE` would list them.
        var mappings: [CoreMapping]
    }

    /// The executable of `core` (`executable` when given) and where it was loaded; `nil` when it cannot be placed.
    static func placed(in core: CoreFile, executable: String?) -> Placed? {
        guard let entry = core.auxiliaryVector[entryType] else { return nil }
        var named = executable
        if named == nil, let name = core.auxiliaryVector[fileNameType].flatMap({ cString(at: $0, in: core.memory) }) {
            named = name.hasPrefix("/") ? name : FilePath.directory(of: core.path) + "/" + name
        }
        // Absolute, as the kernel's NT_FILE paths are.
        guard let given = named else { return nil }
        let path = given.hasPrefix("/") ? given : FileSystem.realPath(given)
        guard let object = try? ObjectFileReader.read(path: path, architecture: core.architecture.objectArchitecture),
            let header = FileSystem.read(path, offset: 0, count: 32), header.count == 32
        else { return nil }
        let fileEntry = CoreFile.word(header, at: 24)
        let bias = entry &- fileEntry
        return Placed(object: object, bias: bias, mappings: segmentMappings(of: object, path: path, bias: bias))
    }

    /// The loaded segments of `object` (read from `path`) moved by `bias`, page-aligned as the kernel maps them.
    static func segmentMappings(of object: ObjectFile, path: String, bias: UInt64) -> [CoreMapping] {
        let page: UInt64 = 4096
        return object.segments.map { segment in
            let start = (bias &+ segment.virtualAddress.rawValue) & ~(page - 1)
            return CoreMapping(
                start: start, end: bias &+ segment.virtualAddress.rawValue &+ segment.memorySize,
                fileOffset: segment.fileOffset & ~(page - 1), path: path)
        }
    }

    /// The NUL-terminated string at `address` (at most 4 KB), read in pieces of 256 bytes (the last may end at the
    /// stack's top, so a shorter piece is tried byte by byte).
    static func cString(at address: UInt64, in memory: any MemoryReader) -> String? {
        var bytes: [UInt8] = []
        var cursor = address
        while bytes.count < 4096 {
            let piece = memory.read(256, at: cursor) ?? memory.read(1, at: cursor)
            guard let piece, !piece.isEmpty else { return nil }
            if let end = piece.firstIndex(of: 0) { return String(decoding: bytes + piece[..<end], as: UTF8.self) }
            bytes += piece
            cursor &+= UInt64(piece.count)
        }
        return nil
    }
}
