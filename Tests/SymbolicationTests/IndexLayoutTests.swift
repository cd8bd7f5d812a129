import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@testable import Symbolication

/// The bytes an index-cache file holds for the committed fixtures are pinned to the format version: a change of
/// layout or meaning that keeps the version would let a file an older build wrote be read in the new layout and give
/// wrong answers with every check passing (it happened within version 5).
@Suite("Index cache layout")
struct IndexLayoutTests {
    static let golden = Fixtures.packageRoot.appendingPathComponent("Tests/SymbolicationTests/Golden/index-layout.txt")

    /// Fixtures of each kind of content: C and C++ from gcc and clang, Swift, a binary without DWARF, a Mach-O dSYM.
    static let fixtures: [(name: String, architecture: Architecture?)] = [
        ("inventory-gcc", nil), ("inventory-clang", nil), ("shapes-swift-O", nil), ("sensors-stripped", nil),
        ("../Apple/bin/App.dSYM", .arm64)
    ]

    /// The sections a file's table lists: kind and place.
    static func sections(of bytes: [UInt8]) throws -> [(kind: UInt32, range: Range<Int>)] {
        func integer<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
            bytes[offset..<offset + MemoryLayout<T>.size].reversed().reduce(T(0)) { $0 << 8 | T($1) }
        }
        try #require(bytes.count >= 32)
        let count = Int(integer(UInt32.self, at: 12))
        try #require(bytes.count >= 32 + 32 * count)
        return try (0..<count).map { entry in
            let place = 32 + 32 * entry
            let offset = Int(integer(UInt64.self, at: place + 8)), length = Int(integer(UInt64.self, at: place + 16))
            try #require(offset + length <= bytes.count)
            return (integer(UInt32.self, at: place), offset..<offset + length)
        }
    }

    /// A digest of what a file holds, leaving out what depends on where it was written: the metadata (real paths,
    /// modification times) and the sections' absolute offsets, which move with the metadata's length.
    static func digest(of bytes: [UInt8]) throws -> String {
        var hash = FNV1a()
        for (kind, range) in try sections(of: bytes) {
            hash.add(UInt64(kind))
            switch kind {
            case 1: continue
            case 5:
                // The unit directory: each unit's length, checksum and status, not its absolute offset.
                for unit in stride(from: range.lowerBound, to: range.upperBound, by: 32) {
                    hash.add(bytes[unit + 8..<unit + 32])
                }
            default:
                hash.add(bytes[range])
            }
        }
        return String(hash.value, radix: 16)
    }

    /// What the golden file holds for this build: the version, then each fixture's digest.
    static func layout() throws -> String {
        var lines = ["version \(IndexCacheFile.version)"]
        for (name, architecture) in fixtures {
            let cache = IndexCache(directory: Fixtures.scratchDirectory("layout"))
            let symbolizer = try ImageSymbolizer(
                path: Fixtures.path(name), options: SymbolizerOptions(architecture: architecture, indexCache: cache))
            symbolizer.writeIndexCache()
            let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory).filter {
                $0.hasSuffix(".pmindex")
            }
            try #require(files.count == 1, "\(name): \(files)")
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: cache.directory + "/" + files[0])))
            lines.append("\(name) \(try digest(of: bytes))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("The bytes written for the fixtures change only with the format version")
    func layoutChangesWithTheVersion() throws {
        let actual = try Self.layout()
        let recorded = (try? String(contentsOf: Self.golden, encoding: .utf8)) ?? ""
        if recorded.split(separator: "\n").first == actual.split(separator: "\n").first, recorded != actual {
            // Not rewritable with UPDATE_GOLDEN: the fix is a new version, never a new record of the same one.
            Issue.record(
                """
                index files of version \(IndexCacheFile.version) now hold other bytes than this version's files did: \
                change IndexCacheFile.version (and FORMAT.md's history), then record the new layout with UPDATE_GOLDEN=1
                recorded:
                \(recorded)now:
                \(actual)
                """)
            return
        }
        GoldenFile.check(actual, against: Self.golden)
    }

    @Test("The digest sees a change of one byte in a unit, and not the metadata's")
    func digestSeesUnitBytesOnly() throws {
        let cache = IndexCache(directory: Fixtures.scratchDirectory("layout-digest"))
        try ImageSymbolizer(path: Fixtures.path("inventory-gcc"), options: SymbolizerOptions(indexCache: cache))
            .writeIndexCache()
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: cache.directory).first { $0.hasSuffix(".pmindex") })
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: cache.directory + "/" + name)))
        let sections = try Self.sections(of: bytes)
        let metadata = try #require(sections.first { $0.kind == 1 }?.range),
            units = try #require(sections.first { $0.kind == 6 }?.range)
        try #require(!units.isEmpty)
        var otherMetadata = bytes, otherUnit = bytes
        otherMetadata[metadata.lowerBound + 2] ^= 1
        otherUnit[units.lowerBound + units.count / 2] ^= 1
        #expect(try Self.digest(of: otherMetadata) == Self.digest(of: bytes))
        #expect(try Self.digest(of: otherUnit) != Self.digest(of: bytes))
    }
}

/// The 64-bit FNV-1a hash.
private struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }

    mutating func add(_ number: UInt64) {
        add((0..<8).map { UInt8(truncatingIfNeeded: number >> (8 * $0)) })
    }
}
