import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@testable import Symbolication

/// The index cache: a file written on first use answers exactly as the DWARF does, and a damaged,
/// truncated, stale or older file is noticed, never trusted, and rebuilt.
@Suite("Index cache")
struct IndexCacheTests {
    /// Addresses across the code of an image: every byte of a small one; of a larger one, each function's
    /// start, a byte in, its middle and last byte.
    static func addresses(in path: String, architecture: Architecture? = nil) throws -> [FileAddress] {
        let image = try ObjectFileReader.read(path: path, architecture: architecture)
        let table = try ObjectFileReader.symbolTable(of: image)
        var addresses: [FileAddress] = []
        for section in image.sections where section.isAllocated && section.name.contains("text") {
            let range = section.addressRange
            if range.size <= 1 << 16 {
                addresses += (0..<range.size).compactMap { range.lowerBound.advanced(by: $0) }
                continue
            }
            var address = range.lowerBound
            while address < range.upperBound {
                addresses.append(address)
                guard let hit = table.symbol(containing: address), hit.symbol.size > 0 else {
                    address = address.advanced(by: 7) ?? range.upperBound
                    continue
                }
                let size = hit.symbol.size
                for offset in [1, size / 2, size - 1] where offset > 0 && offset < size {
                    if let inside = hit.symbol.address.advanced(by: offset) { addresses.append(inside) }
                }
                address = hit.symbol.address.advanced(by: size) ?? range.upperBound
            }
        }
        return addresses
    }

    static let fixtures: [(name: String, architecture: Architecture?)] = [
        ("inventory-gcc", nil), ("inventory-clang", nil), ("inventory-gcc-typeunits5", nil), ("shapes-swift-O", nil),
        ("sensors-gcc-dwarf2", nil), ("sensors-stripped", nil), ("libgeometry.so", nil),
        ("../Apple/bin/App.dSYM", Architecture(name: "arm64")), ("../Apple/bin/App", Architecture(name: "x86_64"))
    ]

    @Test(arguments: fixtures.map(\.name))
    func cachedAnswersEqualTheDWARFs(_ name: String) throws {
        let architecture = Self.fixtures.first { $0.name == name }?.architecture ?? nil
        let path = Fixtures.path(name)
        let cache = IndexCache(directory: Fixtures.scratchDirectory("cache"))
        let addresses = try Self.addresses(in: path, architecture: architecture)
        try #require(addresses.count > 100)

        let fromDWARFLog = DiagnosticLog(), writerLog = DiagnosticLog(), readerLog = DiagnosticLog()
        let fromDWARF = try ImageSymbolizer(
            path: path, options: SymbolizerOptions(architecture: architecture), diagnostics: fromDWARFLog.sink)
        let expected = addresses.map(fromDWARF.resolve)
        let expectedLines = addresses.map {
            fromDWARF.lineEntry(at: $0).map { "\($0.file ?? "-"):\($0.line) \($0.range)" }
        }

        let writer = try ImageSymbolizer(
            path: path, options: SymbolizerOptions(architecture: architecture, indexCache: cache),
            diagnostics: writerLog.sink)
        #expect(writer.indexCacheFile == nil)
        _ = writer.resolve(addresses[addresses.count / 2])
        writer.writeIndexCache()
        #expect(writer.notes(with: writerLog) == fromDWARF.notes(with: fromDWARFLog))

        let reader = try ImageSymbolizer(
            path: path, options: SymbolizerOptions(architecture: architecture, indexCache: cache),
            diagnostics: readerLog.sink)
        #expect(reader.indexCacheFile != nil, "the second open did not use the cache: \(reader.notes(with: readerLog))")
        #expect(reader.notes(with: readerLog) == fromDWARF.notes(with: fromDWARFLog))
        #expect(reader.debugFile?.path == fromDWARF.debugFile?.path)
        var differences = 0
        for (index, address) in addresses.enumerated() {
            let answer = reader.resolve(address)
            if answer != expected[index] {
                differences += 1
                if differences <= 3 {
                    Issue.record("\(address): cached \(answer.frames) vs DWARF \(expected[index].frames)")
                }
            }
        }
        #expect(differences == 0, "\(differences) of \(addresses.count) addresses differ")
        #expect(
            addresses.map { reader.lineEntry(at: $0).map { "\($0.file ?? "-"):\($0.line) \($0.range)" } }
                == expectedLines)
    }

    /// A cache file is no bigger than it needs to be: names the debug file holds are stored as its offsets, numbers
    /// as LEB128, addresses as offsets, and demangled names not at all. Version 4 files (every name copied, Swift's
    /// demangled too, fixed-width fields) were 1 to 3 times the size of the DWARF they stand for. (Not for a program of
    /// a few functions, whose file is mostly its fixed parts and the C runtime's symbols: sensors' is 3.6 KB for 5.4 KB.)
    @Test(arguments: ["shapes-swift-O", "inventory-gcc", "inventory-clang"])
    func cacheFileIsAtMostHalfTheDWARF(_ name: String) throws {
        let path = Fixtures.path(name)
        let cache = IndexCache(directory: Fixtures.scratchDirectory("cache-size"))
        try ImageSymbolizer(path: path, options: SymbolizerOptions(indexCache: cache)).writeIndexCache()
        let image = try ObjectFileReader.read(path: path)
        let key = try #require(cache.contentKey(for: image, debugFile: image, computing: false))
        let file = cache.path(for: image, contentKey: key)
        let size = try #require(FileSystem.status(file)?.size)
        let dwarf = image.sections.filter { $0.name.hasPrefix(".debug_") }.reduce(UInt64(0)) { $0 + $1.size }
        #expect(dwarf > 0 && size * 2 <= dwarf, "\(size) bytes of index for \(dwarf) bytes of DWARF")
        #expect(try IndexCacheFile.open(file, for: image, supplementary: nil, contentKey: key)?.get() != nil)
    }

    /// Builds a cache file for inventory-gcc and returns its path and the answers it must keep giving.
    private func builtCache() throws -> (
        cache: IndexCache, file: String, addresses: [FileAddress], expected: [AddressResolution]
    ) {
        let path = Fixtures.path("inventory-gcc")
        let cache = IndexCache(directory: Fixtures.scratchDirectory("damaged"))
        let addresses = try Self.addresses(in: path)
        let expected = try addresses.map(ImageSymbolizer(path: path).resolve)
        try ImageSymbolizer(path: path, options: SymbolizerOptions(indexCache: cache)).writeIndexCache()
        let files = try Self.indexFiles(in: cache)
        try #require(files.count == 1)
        return (cache, cache.directory + "/" + files[0], addresses, expected)
    }

    /// Damages the cache file, then checks the damage is reported, the answers unchanged, and the file rebuilt.
    private func expectRebuilt(after damage: (inout [UInt8]) -> Void, reported words: String) throws {
        let (cache, file, addresses, expected) = try builtCache()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        damage(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: file))

        let log = DiagnosticLog(), rebuiltLog = DiagnosticLog()
        let symbolizer = try ImageSymbolizer(
            path: Fixtures.path("inventory-gcc"), options: SymbolizerOptions(indexCache: cache),
            diagnostics: log.sink)
        #expect(addresses.map(symbolizer.resolve) == expected)
        symbolizer.writeIndexCache()
        let notes = symbolizer.notes(with: log)
        #expect(notes.contains { $0.contains(words) }, "notes: \(notes)")

        let rebuilt = try ImageSymbolizer(
            path: Fixtures.path("inventory-gcc"), options: SymbolizerOptions(indexCache: cache),
            diagnostics: rebuiltLog.sink)
        #expect(
            rebuilt.indexCacheFile != nil && rebuilt.notes(with: rebuiltLog).isEmpty,
            "not rebuilt: \(rebuilt.notes(with: rebuiltLog))")
        #expect(addresses.map(rebuilt.resolve) == expected)
    }

    @Test func truncatedFileIsRebuilt() throws {
        try expectRebuilt(after: { $0.removeLast($0.count / 3) }, reported: "truncated")
    }

    @Test func olderVersionIsRebuilt() throws {
        try expectRebuilt(after: { $0[8] = 0 }, reported: "format version 0")
    }

    @Test func damagedSectionTableIsRebuilt() throws {
        try expectRebuilt(after: { $0[40] ^= 0x55 }, reported: "damaged section table")
    }

    @Test func damagedUnitIsReadFromDWARFAndRebuilt() throws {
        // A flipped byte near the end lies in the last unit's bytes: only a lookup there notices.
        try expectRebuilt(after: { $0[$0.count - 9] ^= 0x01 }, reported: "is damaged")
    }

    @Test func damagedSymbolTableIsReadFromTheBinaryAndRebuilt() throws {
        // The image's symbol table is the second section; its checksum is checked on first use.
        try expectRebuilt(
            after: { bytes in
                let offset = Int(bytes[32 + 32 + 8]) | Int(bytes[32 + 32 + 9]) << 8 | Int(bytes[32 + 32 + 10]) << 16
                bytes[offset + 30] ^= 0x80
            }, reported: "damaged symbol table")
    }

    @Test func garbageIsNotTrusted() throws {
        try expectRebuilt(
            after: { bytes in bytes = Array(repeating: 0x41, count: 100) }, reported: "not an index-cache file")
    }

    /// The index files in `cache`'s directory (not the place records beside them).
    static func indexFiles(in cache: IndexCache) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cache.directory).filter {
            $0.hasSuffix(IndexCache.fileExtension)
        }
    }

    @Test func changedDebugFileMakesTheCacheStale() throws {
        let scratch = Fixtures.scratchDirectory("stale")
        let binary = scratch + "/sensors-stripped", debugFile = scratch + "/sensors-stripped.debug"
        try FileManager.default.copyItem(atPath: Fixtures.path("sensors-stripped"), toPath: binary)
        try FileManager.default.copyItem(atPath: Fixtures.path(".debug/sensors-stripped.debug"), toPath: debugFile)
        let cache = IndexCache(directory: scratch + "/cache")
        try ImageSymbolizer(path: binary, options: SymbolizerOptions(indexCache: cache)).writeIndexCache()
        #expect(try ImageSymbolizer(path: binary, options: SymbolizerOptions(indexCache: cache)).indexCacheFile != nil)

        // A file touched, not changed, is the same content: its index still answers.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: debugFile)
        #expect(try ImageSymbolizer(path: binary, options: SymbolizerOptions(indexCache: cache)).indexCacheFile != nil)
        // A changed one is other content (bytes after the last section: DWARF, symbols and sections unchanged).
        let handle = try #require(FileHandle(forWritingAtPath: debugFile))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x2A]))
        try handle.close()
        let stale = try ImageSymbolizer(path: binary, options: SymbolizerOptions(indexCache: cache))
        #expect(stale.indexCacheFile == nil)
        #expect(stale.needsIndexCacheFile)
        #expect(stale.resolve(FileAddress(0x12e8)).frames.map(\.function) == ["clamp", "scale", "adjust", "sample_at"])
        stale.writeIndexCache()
        #expect(try Self.indexFiles(in: cache).count == 2, "a file for each content")
    }

    /// An image with no debug information gets a file of its symbols alone: the next symbolizer reads them from it
    /// (no symbol table read from the binary) and answers every address as the binary's own symbol table does.
    @Test func imageWithoutDebugInformationGetsASymbolsFile() throws {
        // The C++ fixture without its DWARF (`objcopy --strip-debug`): its full symbol table stays.
        let scratch = Fixtures.scratchDirectory("symbols-only")
        let binary = scratch + "/inventory-no-dwarf"
        let strip = try Command.run("/usr/bin/objcopy", ["--strip-debug", Fixtures.path("inventory-gcc"), binary])
        try #require(strip.status == 0, "\(strip.standardError)")
        let cache = IndexCache(directory: scratch + "/cache")
        let search = DebugFileSearch(includesSystemRoot: false)
        let first = try ImageSymbolizer(
            path: binary, options: SymbolizerOptions(debugFileSearch: search, indexCache: cache))
        #expect(first.indexCacheFile == nil && first.debugFile == nil)
        first.writeIndexCache()
        #expect(try Self.indexFiles(in: cache).count == 1)

        let cached = try ImageSymbolizer(
            path: binary, options: SymbolizerOptions(debugFileSearch: search, indexCache: cache))
        let uncached = try ImageSymbolizer(path: binary, options: SymbolizerOptions(debugFileSearch: search))
        #expect(cached.indexCacheFile != nil && cached.debugFile == nil)
        var named = 0
        for address in stride(from: UInt64(0x1000), to: 0x3000, by: 7) {
            let answer = cached.resolve(FileAddress(address))
            #expect(answer == uncached.resolve(FileAddress(address)), "0x\(String(address, radix: 16))")
            if answer.symbol != nil { named += 1 }
        }
        #expect(named > 100, "the sweep crosses the binary's functions")
        cached.writeIndexCache()
        #expect(try Self.indexFiles(in: cache).count == 1, "a sound file is not written again")
    }

    @Test func unwritableDirectoryIsANoteNotAFailure() throws {
        let scratch = Fixtures.scratchDirectory("unwritable")
        try Data("a file, not a directory".utf8).write(to: URL(fileURLWithPath: scratch + "/file"))
        let log = DiagnosticLog()
        let symbolizer = try ImageSymbolizer(
            path: Fixtures.path("inventory-gcc"),
            options: SymbolizerOptions(indexCache: IndexCache(directory: scratch + "/file/cache")),
            diagnostics: log.sink)
        let answer = symbolizer.resolve(FileAddress(0x127d))
        symbolizer.writeIndexCache()
        #expect(
            log.diagnostics.contains { $0.message.hasPrefix("index cache not written") },
            "notes: \(symbolizer.notes(with: log))")
        #expect(answer.frames.first?.function == "int warehouse::detail::checked_add<int>(int, int)")
    }

    @Test func clearRemovesEveryFile() throws {
        let (cache, _, _, _) = try builtCache()
        #expect(cache.entries().count == 1)
        #expect(cache.entries().first?.image == Fixtures.path("inventory-gcc"))
        // The index file and the place record of the binary it was built for.
        #expect(cache.clear().removed == 2)
        #expect(cache.entries().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory).isEmpty)
    }
}

/// The cache reader on damaged bytes: with its checksums ignored (as the fuzz target reads them) nothing may
/// trap, and with them every damage must be noticed. (The fuzzing find itself, a sequence starting above the
/// address looked up, is pinned by `FlatUnitTests.damagedSequenceTableDoesNotTrap`: random damage here did
/// not reach it.)
@Suite("Index cache: damaged bytes read anyway")
struct IndexCacheDamageTests {
    @Test func readingDamagedBytesNeverTraps() throws {
        let cache = IndexCache(directory: Fixtures.scratchDirectory("damage"))
        try ImageSymbolizer(path: Fixtures.path("inventory-gcc"), options: SymbolizerOptions(indexCache: cache))
            .writeIndexCache()
        let file = try #require(cache.entries().first).path
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(IndexCache.check(file: file).isEmpty, "the file as written is sound")
        var generator = SeededGenerator(seed: 0x5EED)
        for round in 0..<150 {
            var bytes = original
            // Large values where offsets, counts and addresses lie, and runs of random bytes.
            for _ in 0..<(1 + round % 40) {
                let at = Int.random(in: 32..<bytes.count, using: &generator)
                bytes[at] = round % 3 == 0 ? 0xFF : UInt8.random(in: 0...255, using: &generator)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            _ = IndexCache.check(file: file, ignoringChecksums: true)
            let verified = IndexCache.check(file: file)
            #expect(bytes == original || !verified.isEmpty, "round \(round): damage went unnoticed")
        }
    }
}
