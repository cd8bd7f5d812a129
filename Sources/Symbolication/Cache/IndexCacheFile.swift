import DWARF
import ObjectFiles
import PostmortemCore
import Synchronization

/// One index-cache file: everything a lookup in one image needs, so that a later run resolves
/// addresses with no DWARF and no symbol-table work at all. The layout is in `FORMAT.md` beside this file.
///
/// Opening checks the magic, the version, the file size and the checksums of the small sections;
/// symbol tables and units are checked by their own checksums the first time they are used.
final class IndexCacheFile: Sendable {
    /// The format version this code writes and reads; a file of any other version is rebuilt.
    static let version: UInt32 = 8
    static let magic: [UInt8] = Array("PMINDEX\0".utf8)
    static let headerSize = 32
    static let sectionEntrySize = 32
    static let unitEntrySize = 32

    /// The sections of a cache file, by the number that tags them in the section table.
    enum SectionKind: UInt32, CaseIterable {
        case metadata = 1
        case imageSymbols = 2
        case debugFileSymbols = 3
        case unitTable = 4
        case unitDirectory = 5
        case unitData = 6
    }

    /// Where each section lies and its checksum, by kind. A fixed table rather than a dictionary: the first use of a
    /// `Dictionary` keyed by a new type makes the Swift runtime look up the key's `Hashable` conformance, a scan of
    /// every conformance record in the binary (about 100,000 instructions, a tenth of a lookup with a warm cache).
    private struct SectionTable {
        /// Indexed by raw value, which runs from 1 to the number of kinds.
        private var entries: [(range: Range<Int>, checksum: UInt64)?] = Array(
            repeating: nil, count: SectionKind.allCases.count + 1)

        subscript(kind: SectionKind) -> (range: Range<Int>, checksum: UInt64)? {
            get { entries[Int(kind.rawValue)] }
            set { entries[Int(kind.rawValue)] = newValue }
        }
    }

    /// What the file says about where it came from.
    struct Metadata: Hashable {
        var imagePath = ""
        /// The debug file's real path, size and modification time when the file was built: a debug file
        /// that has changed since makes the cache stale.
        var debugFilePath: String?
        var debugFileSize: UInt64 = 0
        var debugFileModified: Int64 = 0
        /// The key of the debug file's and image's content (``IndexCache/contentKey(for:debugFile:computing:)``): the
        /// file answers for any copy of them, wherever it is.
        var contentKey: UInt64 = 0
        /// The same of the dwz common file the names were completed from, if any: a file built without it (or
        /// with another) has other names.
        var supplementaryFilePath: String?
        var supplementaryFileSize: UInt64 = 0
        var supplementaryFileModified: Int64 = 0

        init() {}

        init(image: ObjectFile, debugFile: ObjectFile, supplementary: ObjectFile?, contentKey: UInt64) {
            self.contentKey = contentKey
            imagePath = FileSystem.realPath(image.path)
            debugFilePath = FileSystem.realPath(debugFile.path)
            let status = FileSystem.status(debugFile.path)
            debugFileSize = status?.size ?? 0
            debugFileModified = status?.modified ?? 0
            if let supplementary {
                supplementaryFilePath = FileSystem.realPath(supplementary.path)
                let status = FileSystem.status(supplementary.path)
                supplementaryFileSize = status?.size ?? 0
                supplementaryFileModified = status?.modified ?? 0
            }
        }

        /// Whether the file was built with `supplementary` as it is now (or without one, and none is given).
        func matches(supplementary: ObjectFile?) -> Bool {
            guard let supplementary else { return supplementaryFilePath == nil }
            let status = FileSystem.status(supplementary.path)
            return supplementaryFilePath == FileSystem.realPath(supplementary.path)
                && status?.size == supplementaryFileSize
                && status?.modified == supplementaryFileModified
        }
    }

    let path: String
    let bytes: ImmutableBytes
    let metadata: Metadata
    private let sections: SectionTable
    let unitTable: FlatRangeTable
    let unitCount: Int
    /// The debug file's bytes, where the names stored in place are (``InPlaceStrings``); `nil` when the file was
    /// opened without them (names in place then read as missing).
    let debugFileBytes: ImmutableBytes?

    /// Whether checksums are compared; off only to exercise the readers on damaged bytes (fuzzing).
    private let verifiesChecksums: Bool
    /// Whether each unit's checksum has matched, by position: symbolizers on two threads share the file, and a
    /// unit both read is checked once (checking reads all of its bytes).
    private let checkedUnits: Mutex<[Bool]>

    /// Opens and checks the cache file at `path`; names stored in place are read from `debugFilePath` (a copy of the
    /// debug file the file was built from), else from the one its metadata names, mapped when `mapsDebugFile` (else
    /// they read as missing).
    /// - Throws: a one-line reason when the file is missing, of another version, truncated or damaged.
    init(path: String, debugFilePath: String? = nil, mapsDebugFile: Bool = true, verifyingChecksums: Bool = true)
        throws(IndexCacheError)
    {
        verifiesChecksums = verifyingChecksums
        self.path = path
        do { bytes = try ImmutableBytes(mapping: path) } catch {
            throw IndexCacheError(path: path, reason: error.detail)
        }
        guard bytes.count >= Self.headerSize, bytes.bytes(0..<8) == Self.magic else {
            throw IndexCacheError(path: path, reason: "not an index-cache file")
        }
        let version = bytes.u32(at: 8)
        guard version == Self.version else {
            throw IndexCacheError(
                path: path, reason: "format version \(version), this postmortem reads version \(Self.version)")
        }
        let sectionCount = Int(bytes.u32(at: 12))
        guard bytes.u64(at: 16) == UInt64(bytes.count) else {
            throw IndexCacheError(path: path, reason: "truncated: \(bytes.count) bytes of \(bytes.u64(at: 16))")
        }
        let tableEnd = Self.headerSize + sectionCount * Self.sectionEntrySize
        guard sectionCount <= 64, tableEnd <= bytes.count,
            !verifyingChecksums || bytes.checksum(Self.headerSize..<tableEnd) == bytes.u64(at: 24)
        else {
            throw IndexCacheError(path: path, reason: "damaged section table")
        }
        var sections = SectionTable()
        for index in 0..<sectionCount {
            let entry = Self.headerSize + index * Self.sectionEntrySize
            let offset = bytes.u64(at: entry + 8), length = bytes.u64(at: entry + 16)
            guard let kind = SectionKind(rawValue: bytes.u32(at: entry)), offset <= UInt64(bytes.count),
                length <= UInt64(bytes.count) - offset
            else { throw IndexCacheError(path: path, reason: "damaged section table") }
            sections[kind] = (Int(offset)..<Int(offset + length), bytes.u64(at: entry + 24))
        }
        for kind in [SectionKind.metadata, .unitTable, .unitDirectory] {
            guard let section = sections[kind], !verifyingChecksums || bytes.checksum(section.range) == section.checksum
            else {
                throw IndexCacheError(path: path, reason: "damaged or missing section \(kind)")
            }
        }
        self.sections = sections
        guard let metadata = Self.readMetadata(bytes, sections[.metadata]!.range) else {
            throw IndexCacheError(path: path, reason: "damaged metadata")
        }
        self.metadata = metadata
        debugFileBytes =
            mapsDebugFile ? (debugFilePath ?? metadata.debugFilePath).flatMap { try? ImmutableBytes(mapping: $0) } : nil
        let table = sections[.unitTable]!.range
        unitTable = FlatRangeTable(bytes: bytes, at: table.lowerBound, limit: table.upperBound)
        unitCount = sections[.unitDirectory]!.range.count / Self.unitEntrySize
        checkedUnits = Mutex(Array(repeating: false, count: unitCount))
    }

    /// The cache file at `path` when it is sound and was built from a debug file (and image) of the content
    /// `contentKey` names, as `debugFile` is, else why not; `nil` when there is simply no file yet.
    static func open(_ path: String, for debugFile: ObjectFile, supplementary: ObjectFile?, contentKey: UInt64)
        -> Result<IndexCacheFile, IndexCacheError>?
    {
        guard FileSystem.exists(path) else { return nil }
        let file: IndexCacheFile
        do { file = try IndexCacheFile(path: path, debugFilePath: debugFile.path) } catch { return .failure(error) }
        guard file.metadata.contentKey == contentKey,
            FileSystem.status(debugFile.path)?.size == file.metadata.debugFileSize
        else {
            return .failure(IndexCacheError(path: path, reason: "built from other content than its name says"))
        }
        guard file.metadata.matches(supplementary: supplementary) else {
            return .failure(IndexCacheError(path: path, reason: "stale: its dwz common file changed"))
        }
        // Names stored in place are read from the debug file: it must be there, whole, as recorded.
        guard let bytes = file.debugFileBytes, UInt64(bytes.count) == file.metadata.debugFileSize else {
            return .failure(IndexCacheError(path: path, reason: "its debug file cannot be read"))
        }
        return .success(file)
    }

    /// A symbol table stored in the file, checked against its checksum; `nil` when it is damaged.
    func symbolTable(_ kind: SectionKind) -> SymbolTable? {
        guard let section = sections[kind], !verifiesChecksums || bytes.checksum(section.range) == section.checksum
        else { return nil }
        return SymbolTable(mapping: bytes, in: section.range, names: debugFileBytes)
    }

    /// What is stored for the unit at `position`: the unit, checked against its checksum; the error that
    /// kept it from being read when the file was built; or `nil` when its bytes are damaged.
    func unit(at position: Int) -> Result<FlatUnit, DWARFError>? {
        guard let directory = sections[.unitDirectory]?.range, let data = sections[.unitData]?.range,
            position >= 0, position < unitCount
        else { return nil }
        let entry = directory.lowerBound + position * Self.unitEntrySize
        let offset = bytes.u64(at: entry), length = bytes.u64(at: entry + 8)
        guard offset >= UInt64(data.lowerBound), offset <= UInt64(data.upperBound),
            length <= UInt64(data.upperBound) - offset
        else { return nil }
        let range = Int(offset)..<Int(offset + length)
        if verifiesChecksums, !checkedUnits.withLock({ $0[position] }) {
            guard bytes.checksum(range) == bytes.u64(at: entry + 16) else { return nil }
            checkedUnits.withLock { $0[position] = true }
        }
        if bytes.u32(at: entry + 24) != 0 {
            let message = String(decoding: bytes.bytes(range), as: UTF8.self)
            return .failure(DWARFError(.malformed, path: metadata.debugFilePath ?? metadata.imagePath, detail: message))
        }
        return FlatUnit(bytes: bytes, range: range, inPlace: debugFileBytes).map { .success($0) }
    }

    /// Reads every symbol table and unit the file lists and searches them at the start of every range of
    /// the unit table (at most `limit` of them), as lookups would; returns what could not be read.
    func exercise(limit: Int = 10_000) -> [String] {
        var problems: [String] = []
        let tables = [SectionKind.imageSymbols, .debugFileSymbols].compactMap { kind in
            let table = symbolTable(kind)
            if table == nil { problems.append("symbol table \(kind) cannot be read") }
            return table
        }
        var units: [Int: FlatUnit] = [:]
        for position in 0..<min(unitCount, limit) {
            switch unit(at: position) {
            case .success(let unit): units[position] = unit
            case .failure: break
            case nil: problems.append("unit \(position) cannot be read")
            }
        }
        for index in 0..<min(unitTable.count, limit) {
            let address = FileAddress(unitTable.range(index).start)
            if let unit = units[Int(unitTable.value(index))] {
                _ = unit.functionChain(at: address)
                _ = unit.row(containing: address)
            }
            for table in tables { _ = table.symbol(containing: address) }
        }
        return problems
    }

    // MARK: Writing

    /// What a cache file holds besides its units.
    struct Contents {
        var metadata: Metadata
        var imageSymbols: SymbolTable
        var debugFileSymbols: SymbolTable
        var unitRanges: [(AddressRange, UInt32)]
        var unitCount: Int
        /// Whether the image is its own debug file: its symbols' names are then stored in place.
        var imageIsDebugFile: Bool
    }

    /// Writes a cache file holding `contents` to `path`, atomically. `unit` gives each unit in position
    /// order (its packed bytes with names complete, or the error that kept it from being read) and is
    /// called once per unit, so that only one unit is in memory at a time.
    static func write(_ contents: Contents, unit: (Int) -> Result<[UInt8], DWARFError>, to path: String)
        throws(FileSystem.Failure)
    {
        var table = ByteWriter()
        _ = FlatRangeTable.write(contents.unitRanges, to: &table)
        let fixed: [(SectionKind, [UInt8])] = [
            (.metadata, encodeMetadata(contents.metadata)),
            (.imageSymbols, contents.imageSymbols.encoded(namesInPlace: contents.imageIsDebugFile)),
            (.debugFileSymbols, contents.debugFileSymbols.encoded(namesInPlace: true)), (.unitTable, table.bytes)
        ]
        let sectionCount = SectionKind.allCases.count
        let file = try FileSystem.AtomicFile(path: path)
        try file.append([UInt8](repeating: 0, count: headerSize + sectionCount * sectionEntrySize))
        var entries = ByteWriter()
        func addSection(_ kind: SectionKind, offset: Int, length: Int, checksum: UInt64) {
            entries.u32(kind.rawValue)
            entries.u32(0)
            entries.u64(UInt64(offset))
            entries.u64(UInt64(length))
            entries.u64(checksum)
        }
        func appendAligned(_ bytes: [UInt8]) throws(FileSystem.Failure) {
            try file.append(bytes)
            if file.count % 8 != 0 { try file.append([UInt8](repeating: 0, count: 8 - file.count % 8)) }
        }
        for (kind, bytes) in fixed {
            addSection(kind, offset: file.count, length: bytes.count, checksum: ImmutableBytes.checksum(bytes))
            try appendAligned(bytes)
        }
        let directoryOffset = file.count
        try file.append([UInt8](repeating: 0, count: contents.unitCount * unitEntrySize))
        let dataOffset = file.count
        var directory = ByteWriter()
        for position in 0..<contents.unitCount {
            let (bytes, status): ([UInt8], UInt32) =
                switch unit(position) {
                case .success(let bytes): (bytes, 0)
                case .failure(let error): (Array(error.detail.utf8), 1)
                }
            directory.u64(UInt64(file.count))
            directory.u64(UInt64(bytes.count))
            directory.u64(ImmutableBytes.checksum(bytes))
            directory.u32(status)
            directory.u32(0)
            try appendAligned(bytes)
        }
        try file.overwrite(at: directoryOffset, with: directory.bytes)
        addSection(
            .unitDirectory, offset: directoryOffset, length: directory.count,
            checksum: ImmutableBytes.checksum(directory.bytes))
        addSection(.unitData, offset: dataOffset, length: file.count - dataOffset, checksum: 0)

        var header = ByteWriter()
        header.append(magic)
        header.u32(version)
        header.u32(UInt32(sectionCount))
        header.u64(UInt64(file.count))
        header.u64(ImmutableBytes.checksum(entries.bytes))
        try file.overwrite(at: 0, with: header.bytes + entries.bytes)
        try file.commit()
    }

    // MARK: Metadata

    /// Metadata as `key=value` lines (UTF-8).
    private static func encodeMetadata(_ metadata: Metadata) -> [UInt8] {
        var lines = ["image=\(metadata.imagePath)"]
        if let debugFile = metadata.debugFilePath {
            lines += [
                "debugFile=\(debugFile)", "debugFileSize=\(metadata.debugFileSize)",
                "debugFileModified=\(metadata.debugFileModified)", "content=\(IndexCache.hex(metadata.contentKey))"
            ]
        }
        if let supplementary = metadata.supplementaryFilePath {
            lines += [
                "supplementaryFile=\(supplementary)", "supplementaryFileSize=\(metadata.supplementaryFileSize)",
                "supplementaryFileModified=\(metadata.supplementaryFileModified)"
            ]
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    private static func readMetadata(_ bytes: ImmutableBytes, _ range: Range<Int>) -> Metadata? {
        var metadata = Metadata()
        var isWellFormed = true
        KeyValueLines.forEach(in: bytes.bytes(range)) { key, value in
            guard let value else {
                isWellFormed = false
                return false
            }
            switch key {
            case "image": metadata.imagePath = value
            case "debugFile": metadata.debugFilePath = value
            case "debugFileSize": metadata.debugFileSize = UInt64(value) ?? 0
            case "debugFileModified": metadata.debugFileModified = Int64(value) ?? 0
            case "content": metadata.contentKey = UInt64(value, radix: 16) ?? 0
            case "supplementaryFile": metadata.supplementaryFilePath = value
            case "supplementaryFileSize": metadata.supplementaryFileSize = UInt64(value) ?? 0
            case "supplementaryFileModified": metadata.supplementaryFileModified = Int64(value) ?? 0
            default: break
            }
            return true
        }
        return isWellFormed ? metadata : nil
    }
}

/// Why a cache file was not used: its path and the reason, in one line.
/// Why an index-cache file cannot be used (a file to rebuild).
package struct IndexCacheError: Error, CustomStringConvertible {
    /// The file.
    package var path: String
    /// What is wrong with it.
    package var reason: String
    /// The path and the reason, in one line.
    package var description: String { "\(path): \(reason)" }
}
