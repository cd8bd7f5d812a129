import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@testable import Symbolication

/// The index cache is keyed by what a file holds, not where it is: copies of one build share one index file wherever
/// they are, and two builds that share a build-id, a size and times (the fixtures `sensors-gcc-dwarf5` and
/// `sensors-sibling-cycle`, one DW_AT_sibling apart) never answer from each other's.
@Suite("Index cache keyed by content")
struct IndexCacheContentTests {
    /// `source` copied to `target` with its modification time, as `cp -p` and archives copy.
    static func copy(_ source: String, to target: String) throws {
        let copied = try Command.run("/bin/cp", ["-p", source, target])
        try #require(copied.status == 0, "\(copied.standardError)")
    }

    @Test func copiesOfOneBuildShareOneFile() throws {
        let scratch = Fixtures.scratchDirectory("copies")
        try FileManager.default.createDirectory(atPath: scratch + "/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch + "/b", withIntermediateDirectories: true)
        try Self.copy(Fixtures.path("inventory-gcc"), to: scratch + "/a/inventory")
        try Self.copy(Fixtures.path("inventory-gcc"), to: scratch + "/b/inventory")
        let cache = IndexCache(directory: scratch + "/cache")
        try ImageSymbolizer(path: scratch + "/a/inventory", options: SymbolizerOptions(indexCache: cache))
            .writeIndexCache()
        // The other copy's first run answers from the file the first copy wrote, and writes none.
        let other = try ImageSymbolizer(path: scratch + "/b/inventory", options: SymbolizerOptions(indexCache: cache))
        #expect(other.indexCacheFile != nil)
        #expect(!other.needsIndexCacheFile)
        let uncached = try ImageSymbolizer(path: scratch + "/b/inventory")
        let addresses = try IndexCacheTests.addresses(in: scratch + "/b/inventory")
        #expect(addresses.count > 1_000)
        for address in addresses { #expect(other.resolve(address) == uncached.resolve(address), "\(address)") }
        other.writeIndexCache()
        #expect(try IndexCacheTests.indexFiles(in: cache).count == 1)
    }

    @Test func buildsSharingABuildIDKeepTheirOwnFiles() throws {
        let first = Fixtures.path("sensors-gcc-dwarf5"), second = Fixtures.path("sensors-sibling-cycle")
        // What makes the case: one build-id, one size, one modification time, other bytes.
        let one = try ObjectFileReader.read(path: first), two = try ObjectFileReader.read(path: second)
        try #require(one.buildID != nil && one.buildID == two.buildID)
        try #require(FileSystem.status(first)?.size == FileSystem.status(second)?.size)
        try #require(FileManager.default.contentsEqual(atPath: first, andPath: second) == false)

        let scratch = Fixtures.scratchDirectory("same-build-id")
        let binary = scratch + "/sensors", cache = IndexCache(directory: scratch + "/cache")
        try Self.copy(first, to: binary)
        let written = try ImageSymbolizer(path: binary, options: SymbolizerOptions(indexCache: cache))
        written.writeIndexCache()
        #expect(try ImageSymbolizer(path: binary, options: SymbolizerOptions(indexCache: cache)).indexCacheFile != nil)
        // The other build put in its place, with the same modification time: its content has no file yet.
        try FileManager.default.removeItem(atPath: binary)
        try Self.copy(second, to: binary)
        // The fixtures are built one after the other, so their own times may differ: the first's is given.
        let touched = try Command.run("/usr/bin/touch", ["-r", first, binary])
        try #require(touched.status == 0, "\(touched.standardError)")
        try #require(FileSystem.status(binary)?.modified == FileSystem.status(first)?.modified)
        let replaced = try ImageSymbolizer(path: binary, options: SymbolizerOptions(indexCache: cache))
        #expect(replaced.indexCacheFile == nil)
        #expect(replaced.needsIndexCacheFile)
        replaced.writeIndexCache()
        #expect(try IndexCacheTests.indexFiles(in: cache).count == 2)
        // Each answers from its own file as from its own DWARF.
        for (source, name) in [(second, "the second"), (first, "the first")] {
            if name == "the first" {
                try FileManager.default.removeItem(atPath: binary)
                try Self.copy(first, to: binary)
            }
            let cached = try ImageSymbolizer(path: binary, options: SymbolizerOptions(indexCache: cache))
            #expect(cached.indexCacheFile != nil, "\(name)")
            let uncached = try ImageSymbolizer(path: binary)
            for address in try IndexCacheTests.addresses(in: source) {
                #expect(cached.resolve(address) == uncached.resolve(address), "\(name): \(address)")
            }
        }
    }

    @Test func aPlaceRecordIsReadNotRecomputed() throws {
        let scratch = Fixtures.scratchDirectory("place-record")
        let binary = scratch + "/inventory", cache = IndexCache(directory: scratch + "/cache")
        try Self.copy(Fixtures.path("inventory-gcc"), to: binary)
        let image = try ObjectFileReader.read(path: binary)
        // No index of the build in the cache: nothing is digested for a lookup.
        #expect(cache.contentKey(for: image, debugFile: image, computing: false) == nil)
        let key = try #require(cache.contentKey(for: image, debugFile: image, computing: true))
        let record = cache.placePath(for: image, debugFile: image)
        #expect(PlaceRecord.read(record)?.contentKey == key)
        // A record that says another key is believed while the file is unchanged (it is not digested again)…
        var planted = try #require(PlaceRecord.read(record))
        planted.contentKey = key ^ 1
        try planted.write(to: record)
        #expect(cache.contentKey(for: image, debugFile: image, computing: true) == key ^ 1)
        // …and not once the file changed: then it is digested again.
        let handle = try #require(FileHandle(forWritingAtPath: binary))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let changed = try #require(cache.contentKey(for: image, debugFile: image, computing: true))
        #expect(changed != key && changed != key ^ 1)
    }

    @Test func pruneKeepsAFileWhileACopyOfItsBinaryIsLeft() throws {
        let scratch = Fixtures.scratchDirectory("prune-copies")
        let first = scratch + "/first", second = scratch + "/second", cache = IndexCache(directory: scratch + "/cache")
        try Self.copy(Fixtures.path("inventory-gcc"), to: first)
        try Self.copy(Fixtures.path("inventory-gcc"), to: second)
        for path in [first, second] {
            try ImageSymbolizer(path: path, options: SymbolizerOptions(indexCache: cache)).writeIndexCache()
        }
        #expect(try IndexCacheTests.indexFiles(in: cache).count == 1)
        // The file's metadata names the first copy; the second's place record keeps the file in use.
        try FileManager.default.removeItem(atPath: first)
        let pruned = cache.prune()
        #expect(pruned.count == 1 && pruned.allSatisfy { $0.path.hasSuffix(IndexCache.placeExtension) }, "\(pruned)")
        #expect(try IndexCacheTests.indexFiles(in: cache).count == 1)
        #expect(try ImageSymbolizer(path: second, options: SymbolizerOptions(indexCache: cache)).indexCacheFile != nil)
        try FileManager.default.removeItem(atPath: second)
        #expect(cache.prune().count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory).isEmpty)
    }
}
