import BreakpadSymbols
import Foundation
import ObjectFiles
import PostmortemCore
import Symbolication
import TestSupport
import Testing

/// A symbol file's index written to the index cache and mapped back answers every question as the parse it was written
/// from: functions, inline chains, lines, public symbols and call-frame rows, at every record's edges. A damaged or
/// stale index file is not used.
@Suite("Symbol-file indexes in the index cache")
struct SymbolFileIndexCacheTests {
    /// The symbol file `postmortem dump-syms` writes of `fixture`, written to `directory`.
    static func writeSymbolFile(of fixture: String, to directory: String) throws -> String {
        let binary = try ObjectFileReader.read(path: Fixtures.path(fixture))
        let (file, _) = try SymbolFileBuilder(binary: binary, debugFile: binary, generator: "test").build()
        var bytes: [UInt8] = []
        SymbolFileText.write(file) { bytes += $0 }
        let path = directory + "/" + fixture + ".sym"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: ["inventory-gcc", "sensors-clang-dwarf5", "shapes-swift-O", "libgeometry.so"])
    func aCachedIndexAnswersAsTheParse(_ fixture: String) throws {
        let directory = Fixtures.scratchDirectory("symfile-cache-\(fixture)")
        let cache = IndexCache(directory: directory + "/cache")
        let path = try Self.writeSymbolFile(of: fixture, to: directory)

        let parsed = try SymbolFileIndex.open(path: path, cache: cache)
        #expect(!parsed.isFromIndexCache)
        #expect(parsed.writeIndexFile(to: cache) == nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory).filter {
            $0.hasSuffix(".pmindex")
        }
        #expect(files.count == 1 && files[0].hasPrefix("symfile-\(parsed.module.debugID)-"), "\(files)")

        let cached = try SymbolFileIndex.open(path: path, cache: cache)
        #expect(cached.isFromIndexCache)
        #expect(cached.module == parsed.module)
        // Every record's edges, and a few thousand offsets spread over the code between (the lines inside functions).
        let edges = parsed.sampleOffsets
        let low = try #require(edges.min()), high = try #require(edges.max())
        let spread = stride(from: low, through: high, by: Int(max(1, (high - low) / 4000)))
        let offsets = Set(edges.flatMap { [$0, $0 &+ 1, $0 &- 1] } + spread)
        try #require(offsets.count > 500, "\(fixture): only \(offsets.count) offsets")
        var differing: [String] = []
        let parsedRows = SymbolFileCallFrames(index: parsed), cachedRows = SymbolFileCallFrames(index: cached)
        for offset in offsets.sorted() {
            if parsed.resolve(offset) != cached.resolve(offset) {
                differing.append("resolve 0x\(String(offset, radix: 16))")
            }
            if try parsedRows.row(at: FileAddress(offset)) != cachedRows.row(at: FileAddress(offset)) {
                differing.append("row 0x\(String(offset, radix: 16))")
            }
        }
        #expect(differing.isEmpty, "\(fixture): \(differing.count) of \(offsets.count) differ: \(differing.prefix(5))")
        // Answers with frames at all: the comparison above is not of two empty indexes.
        let named = offsets.filter { !(parsed.resolve($0).frames.isEmpty) }.count
        #expect(named > offsets.count / 3, "\(fixture): \(named) of \(offsets.count) named")
    }

    /// An index file whose bytes changed (one byte of a table) fails its checksum and is not used: the symbol file is
    /// parsed again and the file rewritten. A symbol file that changed is not answered from the old file's index.
    @Test func aDamagedOrStaleIndexFileIsNotUsed() throws {
        let directory = Fixtures.scratchDirectory("symfile-cache-damaged")
        let cache = IndexCache(directory: directory + "/cache")
        let path = try Self.writeSymbolFile(of: "sensors-clang-dwarf5", to: directory)
        #expect(try SymbolFileIndex.open(path: path, cache: cache).writeIndexFile(to: cache) == nil)
        let indexName = try #require(
            try FileManager.default.contentsOfDirectory(atPath: cache.directory).first { $0.hasSuffix(".pmindex") })
        let indexPath = cache.directory + "/" + indexName
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: indexPath)))
        bytes[bytes.count - 64] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: indexPath))
        #expect(!IndexCache.check(file: indexPath).isEmpty)

        let reparsed = try SymbolFileIndex.open(path: path, cache: cache)
        #expect(!reparsed.isFromIndexCache)
        #expect(reparsed.writeIndexFile(to: cache) == nil)
        #expect(IndexCache.check(file: indexPath).isEmpty)
        #expect(try SymbolFileIndex.open(path: path, cache: cache).isFromIndexCache)

        // Another function's name, same size: the place record's fingerprint no longer matches, the content key
        // differs, and the old index (whose name ranges would read the new text) is not the one read.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let function = try #require(text.split(separator: "\n").first { $0.hasPrefix("FUNC ") })
        let renamed = String(function.dropLast()) + (function.last == "x" ? "y" : "x")
        text = text.replacingOccurrences(of: String(function), with: renamed)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let changed = try SymbolFileIndex.open(path: path, cache: cache)
        #expect(!changed.isFromIndexCache)
    }
}
