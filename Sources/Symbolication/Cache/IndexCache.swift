import ObjectFiles
import PostmortemCore

/// The directory of index-cache files, one per image and debug file.
public struct IndexCache: Hashable, Sendable {
    /// The name every cache file ends with.
    package static let fileExtension = ".pmindex"

    /// Where the files are; made when the first file is written.
    public var directory: String
    /// A directory that must exist before ``directory`` is made below it (the home directory of `~/.cache/postmortem`):
    /// a missing home is never created. `nil` when any missing parent may be made.
    package var requiredParent: String?
    /// The most bytes the files may take together; the least recently used go first when more would.
    public var limit: UInt64

    /// The default of ``limit``: room for a dozen indexes of large server binaries.
    public static let defaultLimit: UInt64 = 2 << 30

    /// The cache in `directory`.
    public init(directory: String, requiredParent: String? = nil, limit: UInt64 = IndexCache.defaultLimit) {
        self.directory = directory
        self.requiredParent = requiredParent
        self.limit = limit
    }

    /// `$POSTMORTEM_CACHE_DIR`, else `$XDG_CACHE_HOME/postmortem`, else `~/.cache/postmortem`; `nil`
    /// when none of these variables is set. `$POSTMORTEM_CACHE_LIMIT` (bytes, or with a `K`, `M` or `G` suffix)
    /// sets the limit.
    public static func standard() -> IndexCache? {
        let limit = FileSystem.environment("POSTMORTEM_CACHE_LIMIT").flatMap(parseSize) ?? defaultLimit
        if let directory = FileSystem.environment("POSTMORTEM_CACHE_DIR") {
            return IndexCache(directory: directory, limit: limit)
        }
        if let base = FileSystem.environment("XDG_CACHE_HOME") {
            return IndexCache(directory: base + "/postmortem", requiredParent: base, limit: limit)
        }
        if let home = FileSystem.environment("HOME") {
            return IndexCache(directory: home + "/.cache/postmortem", requiredParent: home, limit: limit)
        }
        return nil
    }

    /// `1048576`, `512K`, `200M`, `2G` (powers of 1024; a trailing `B` or `iB` allowed); `nil` for anything else.
    package static func parseSize(_ text: String) -> UInt64? {
        var digits = Substring(text.uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits = digits.dropLast(suffix.count); break }
        let shift: UInt64
        switch digits.last {
        case "K": shift = 10
        case "M": shift = 20
        case "G": shift = 30
        case "T": shift = 40
        default: shift = 0
        }
        if shift > 0 { digits = digits.dropLast() }
        guard let value = UInt64(digits), value <= UInt64.max >> shift else { return nil }
        return value << shift
    }

    /// The name every place record ends with (``IndexCache/placePath(for:debugFile:)``).
    package static let placeExtension = ".pmplace"

    /// The cache file of `image` whose debug file (the image itself when it has its DWARF) and image have the content
    /// `contentKey` names (``contentKey(for:debugFile:computing:)``): named by the image's build-id or UUID for people,
    /// and by content, so that copies of one build anywhere share one file and two builds that share a build-id do not.
    package func path(for image: ObjectFile, contentKey: UInt64) -> String {
        directory + "/" + Self.identityName(of: image) + "-" + Self.hex(contentKey) + Self.fileExtension
    }

    /// The index file of the file whose index files are named by `identity` (`symfile-<DEBUGID>` for a Breakpad symbol
    /// file) and whose content `contentKey` names (``contentKey(ofFile:identity:computing:digest:)``).
    package func path(identity: String, contentKey: UInt64) -> String {
        directory + "/" + identity + "-" + Self.hex(contentKey) + Self.fileExtension
    }

    /// `uuid-<UUID>`, `buildid-<hex>` or `image`: what starts the names of an image's files.
    static func identityName(of image: ObjectFile) -> String {
        image.uuid.map { "uuid-\($0)" } ?? image.buildID.map { "buildid-\($0.hex)" } ?? "image"
    }

    /// Sixteen hex digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// One file in the cache, as `postmortem cache info` lists it.
    package struct Entry: Hashable, Sendable {
        /// The file's path.
        package var path: String
        /// The file's size in bytes.
        package var size: UInt64
        /// The image the file indexes (its real path when it was written); `nil` when the file cannot be used.
        package var image: String?
        /// Why the file cannot be used (damaged, truncated, another version); `nil` when it can.
        package var problem: String?
    }

    /// The cache files in the directory, by name.
    package func entries() -> [Entry] {
        FileSystem.entries(of: directory).filter { !$0.isDirectory && $0.name.hasSuffix(Self.fileExtension) }
            .map(\.name).sorted().map { name in
                let path = directory + "/" + name
                let size = FileSystem.status(path)?.size ?? 0
                if TableFile.isTableFile(path) {
                    do throws(IndexCacheError) {
                        let metadata = try TableFile.metadata(path: path)
                        return Entry(path: path, size: size, image: metadata.sourcePath, problem: nil)
                    } catch {
                        return Entry(path: path, size: size, image: nil, problem: error.reason)
                    }
                }
                do throws(IndexCacheError) {
                    let file = try IndexCacheFile(path: path, mapsDebugFile: false)
                    return Entry(path: path, size: size, image: file.metadata.imagePath, problem: nil)
                } catch {
                    return Entry(path: path, size: size, image: nil, problem: error.reason)
                }
            }
    }

    /// What is wrong with the cache file at `path`: it is opened and checked, then every symbol table and
    /// unit it lists is read and searched as lookups would. Empty when the file is sound.
    /// - Parameter ignoringChecksums: read the bytes whatever their checksums say (to exercise the readers
    ///   on damaged files; lookups never do this).
    package static func check(file path: String, ignoringChecksums: Bool = false) -> [String] {
        do throws(IndexCacheError) {
            if TableFile.isTableFile(path) {
                _ = try TableFile(path: path)
                return []
            }
            return try IndexCacheFile(path: path, verifyingChecksums: !ignoringChecksums).exercise()
        } catch {
            return [error.description]
        }
    }

    /// Removes every cache file and place record (and leftover temporary file) in the directory.
    /// - Returns: how many files were removed, and the paths that could not be.
    public func clear() -> (removed: Int, failed: [String]) {
        var removed = 0
        var failed: [String] = []
        for entry in FileSystem.entries(of: directory)
        where !entry.isDirectory
            && (entry.name.contains(Self.fileExtension) || entry.name.contains(Self.placeExtension))
        {
            let path = directory + "/" + entry.name
            if FileSystem.remove(path) { removed += 1 } else { failed.append(path) }
        }
        return (removed, failed)
    }
}
