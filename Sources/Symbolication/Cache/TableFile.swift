import ObjectFiles
import PostmortemCore

/// An index-cache file of tables read in place: what a Breakpad symbol file's index keeps (its records as fixed-size
/// numbers), so that a later run maps it instead of parsing the text again. The cache knows the container (which
/// file it indexes, its kind, its checksums); the tables' meaning belongs to the module that writes them.
///
/// Layout, little-endian: the magic `PMTABLE\0`; the version (u32) and the number of tables (u32); the content key of
/// the indexed file (u64); the size of the indexed file (u64); the length of the metadata text (u64); the checksum
/// (u64) of the bytes from the version to the end of the table directory, this field read as 0; the metadata text
/// (the kind, a NUL, the indexed file's real path, a NUL), padded to 8 bytes; the table directory, per table its
/// offset, length and checksum (u64 each); the tables, each at a multiple of 8 bytes.
package struct TableFile: Sendable {
    /// The format version this code writes and reads; a file of any other version is rebuilt.
    static let version: UInt32 = 1
    static let magic: [UInt8] = Array("PMTABLE\0".utf8)
    static let headerSize = 48
    static let directoryEntrySize = 24
    /// Where the checksum field is.
    private static let checksumOffset = 40

    /// What the file indexes.
    package struct Metadata: Hashable, Sendable {
        /// What the tables are (`breakpad-symbols`): a file of another kind is not read.
        package var kind: String
        /// The indexed file's real path when the file was written.
        package var sourcePath: String
        /// The indexed file's size.
        package var sourceSize: UInt64
        /// The key of the indexed file's content (``IndexCache/contentKey(ofFile:identity:computing:digest:)``).
        package var contentKey: UInt64

        /// Metadata of the tables of `kind` indexing the file at `sourcePath`.
        package init(kind: String, sourcePath: String, sourceSize: UInt64, contentKey: UInt64) {
            self.kind = kind
            self.sourcePath = sourcePath
            self.sourceSize = sourceSize
            self.contentKey = contentKey
        }
    }

    /// What the file indexes.
    package let metadata: Metadata
    /// The file's bytes, mapped.
    package let bytes: ImmutableBytes
    /// Where each table lies in ``bytes``, in the order they were written.
    package let tables: [Range<Int>]

    /// Whether the file at `path` starts as a table file does.
    static func isTableFile(_ path: String) -> Bool {
        FileSystem.read(path, offset: 0, count: magic.count) == magic
    }

    /// Maps the file at `path` and checks it whole: magic, version, sizes, the header's and every table's checksum.
    /// - Throws: ``IndexCacheError`` naming what is wrong (a file to rebuild).
    package init(path: String) throws(IndexCacheError) {
        let bytes: ImmutableBytes
        do { bytes = try ImmutableBytes(mapping: path) } catch {
            throw IndexCacheError(path: path, reason: error.detail)
        }
        try self.init(bytes: bytes, path: path, verifyingTables: true)
    }

    /// Reads the header only (what `postmortem cache info` lists).
    static func metadata(path: String) throws(IndexCacheError) -> Metadata {
        let bytes: ImmutableBytes
        do { bytes = try ImmutableBytes(mapping: path) } catch {
            throw IndexCacheError(path: path, reason: error.detail)
        }
        return try TableFile(bytes: bytes, path: path, verifyingTables: false).metadata
    }

    private init(bytes: ImmutableBytes, path: String, verifyingTables: Bool) throws(IndexCacheError) {
        func failure(_ reason: String) -> IndexCacheError { IndexCacheError(path: path, reason: reason) }
        guard bytes.count >= Self.headerSize, bytes.bytes(0..<Self.magic.count) == Self.magic else {
            throw failure("not an index file of tables (no PMTABLE header)")
        }
        let version = bytes.u32(at: 8)
        guard version == Self.version else {
            throw failure(
                "written by another version of postmortem (format \(version), this one reads \(Self.version))")
        }
        let tableCount = Int(bytes.u32(at: 12))
        let metadataLength = bytes.u64(at: 32)
        let directoryStart = Self.headerSize + Self.padded(Int(clamping: metadataLength))
        guard tableCount <= 64, metadataLength <= 1 << 16,
            directoryStart + tableCount * Self.directoryEntrySize <= bytes.count
        else { throw failure("truncated or damaged (its header does not fit the file)") }
        let directoryEnd = directoryStart + tableCount * Self.directoryEntrySize
        guard bytes.u64(at: Self.checksumOffset) == Self.headerChecksum(bytes.bytes(0..<directoryEnd)) else {
            throw failure("damaged (its header's checksum does not match)")
        }
        let text = bytes.bytes(Self.headerSize..<Self.headerSize + Int(metadataLength)).split(
            separator: 0, omittingEmptySubsequences: false)
        guard text.count >= 2 else { throw failure("damaged (its metadata is not KIND and PATH)") }
        metadata = Metadata(
            kind: String(decoding: text[0], as: UTF8.self), sourcePath: String(decoding: text[1], as: UTF8.self),
            sourceSize: bytes.u64(at: 24), contentKey: bytes.u64(at: 16))
        var tables: [Range<Int>] = []
        for number in 0..<tableCount {
            let entry = directoryStart + number * Self.directoryEntrySize
            let offset = bytes.u64(at: entry), length = bytes.u64(at: entry + 8)
            guard offset <= UInt64(bytes.count), length <= UInt64(bytes.count) - offset else {
                throw failure("truncated (table \(number) ends past the end of the file)")
            }
            let range = Int(offset)..<Int(offset + length)
            if verifyingTables, bytes.checksum(range) != bytes.u64(at: entry + 16) {
                throw failure("damaged (table \(number)'s checksum does not match)")
            }
            tables.append(range)
        }
        self.bytes = bytes
        self.tables = tables
    }

    /// Writes `tables` (ranges of `contents`) with `metadata` to `path`, atomically.
    /// - Throws: what made writing fail.
    package static func write(
        metadata: Metadata, contents: ImmutableBytes, tables: [Range<Int>], to path: String
    ) throws(FileSystem.Failure) {
        var text = Array(metadata.kind.utf8) + [0] + Array(metadata.sourcePath.utf8) + [0]
        let metadataLength = text.count
        text += [UInt8](repeating: 0, count: padded(text.count) - text.count)
        let directoryStart = headerSize + text.count
        var offset = directoryStart + tables.count * directoryEntrySize
        var directory: [UInt8] = []
        for table in tables {
            directory +=
                littleEndian(UInt64(offset)) + littleEndian(UInt64(table.count))
                + littleEndian(contents.checksum(table))
            offset += padded(table.count)
        }
        var header = magic + littleEndian(version) + littleEndian(UInt32(tables.count))
        header += littleEndian(metadata.contentKey) + littleEndian(metadata.sourceSize)
        header += littleEndian(UInt64(metadataLength)) + littleEndian(UInt64(0))
        var head = header + text + directory
        let checksum = littleEndian(headerChecksum(head))
        head.replaceSubrange(checksumOffset..<checksumOffset + 8, with: checksum)
        let file = try FileSystem.AtomicFile(path: path)
        try file.append(head)
        // A table is copied out a few MB at a time: the whole index is never held twice.
        let chunk = 4 << 20
        for table in tables {
            var start = table.lowerBound
            while start < table.upperBound {
                let end = min(start + chunk, table.upperBound)
                try file.append(contents.bytes(start..<end))
                start = end
            }
            try file.append([UInt8](repeating: 0, count: padded(table.count) - table.count))
        }
        try file.commit()
    }

    /// The header's checksum: of everything up to the end of the directory, the checksum field read as 0.
    private static func headerChecksum(_ head: [UInt8]) -> UInt64 {
        var head = head
        for index in checksumOffset..<min(checksumOffset + 8, head.count) { head[index] = 0 }
        return ImmutableBytes.checksum(Array(head[8...]))
    }

    private static func padded(_ count: Int) -> Int { (count + 7) & ~7 }

    private static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
