import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

/// Compressed debug sections (`SHF_COMPRESSED` with zlib or zstd) decompressed as binutils decompresses them, and a
/// damaged one refused with its reason, never read as garbage.
@Suite("Compressed sections")
struct CompressedSectionTests {
    /// A fixture compressed with zlib by gcc (`-gz`), and one compressed with zstd by objcopy.
    static func compressedFiles() throws -> [(kind: String, path: String)] {
        let scratch = Fixtures.scratchDirectory("compressed-sections")
        let zstd = scratch + "/sensors-zstd"
        _ = try Fixtures.run(
            "objcopy", ["--compress-debug-sections=zstd", Fixtures.path("sensors-gcc-dwarf5"), zstd])
        return [("zlib", Fixtures.path("sensors-gcc-dwarf4-gz")), ("zstd", zstd)]
    }

    /// The raw bytes of section `name` in the ELF file at `path`, as readelf places it.
    static func rawSection(_ name: String, of path: String) throws -> (offset: Int, size: Int) {
        let table = try Fixtures.run("readelf", ["-SW", path])
        guard let line = table.split(separator: "\n").first(where: { $0.contains(" \(name) ") }) else {
            throw SectionMissing(description: "\(path) has no \(name)")
        }
        let fields = line.split(separator: "]", maxSplits: 1)[1].split(separator: " ")
        guard fields.count > 4, let offset = Int(fields[3], radix: 16), let size = Int(fields[4], radix: 16) else {
            throw SectionMissing(description: "readelf's line is not as expected: \(line)")
        }
        return (offset, size)
    }

    @Test func sectionsDecompressAsObjcopyDecompressesThem() throws {
        for (kind, path) in try Self.compressedFiles() {
            let object = try ObjectFileReader.read(path: path)
            let decompressedCopy = Fixtures.scratchDirectory("compressed-sections") + "/\(kind)-decompressed"
            _ = try Fixtures.run("objcopy", ["--decompress-debug-sections", path, decompressedCopy])
            let plain = try Data(contentsOf: URL(fileURLWithPath: decompressedCopy))
            let mapped = try ImmutableBytes(mapping: path)
            var compared = 0
            for section in object.sections where section.isCompressed {
                let ours = try ObjectFileReader.decompressedSection(section, of: object, mapped: mapped)
                let theirs = try Self.rawSection(section.name, of: decompressedCopy)
                #expect(ours.count == theirs.size, "\(kind) \(section.name)")
                #expect(
                    Array(ours.reader.bytes) == Array(plain[theirs.offset..<theirs.offset + theirs.size]),
                    "\(kind) \(section.name)")
                compared += 1
            }
            #expect(compared >= 3, "\(kind): only \(compared) compressed sections")
        }
    }

    /// Flipped bytes in the middle of zlib's data, and a declared size one byte off either way: each refused, in words.
    @Test func aDamagedSectionIsRefusedWithItsReason() throws {
        for (kind, path) in try Self.compressedFiles() {
            let object = try ObjectFileReader.read(path: path)
            let section = try #require(object.sections.first { $0.name == ".debug_info" && $0.isCompressed })
            let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let start = Int(section.fileOffset), headerSize = 24
            func attempt(_ change: (inout [UInt8]) -> Void) -> String {
                var bytes = file
                change(&bytes)
                do {
                    _ = try ObjectFileReader.decompressedSection(section, of: object, mapped: ImmutableBytes(bytes))
                    return "decompressed"
                } catch { return error.description }
            }
            let middle = start + headerSize + (Int(section.size) - headerSize) / 2
            // zlib's Adler-32 covers every byte; the zstd frames objcopy writes carry no checksum, so flipped
            // literals decode to other bytes unseen (libzstd's own verdict): only its sizes are checked here.
            if kind == "zlib" {
                let damaged = attempt { bytes in for offset in middle..<middle + 8 { bytes[offset] ^= 0x5A } }
                #expect(damaged.contains("cannot be decompressed") && damaged.contains(kind), "\(kind): \(damaged)")
            }
            let declared = Int(
                UInt64(littleEndian: file[start + 8..<start + 16].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
            )
            for wrong in [declared - 1, declared + 1] {
                let said = attempt { bytes in
                    withUnsafeBytes(of: UInt64(wrong).littleEndian) {
                        bytes.replaceSubrange(start + 8..<start + 16, with: $0)
                    }
                }
                #expect(said.contains("cannot be decompressed"), "\(kind), \(wrong) of \(declared) bytes: \(said)")
                #expect(
                    said.contains(String(wrong)) || said.contains("more than"), "\(kind), \(wrong) bytes: \(said)")
            }
            #expect(attempt { _ in } == "decompressed", "\(kind): the unchanged section")
        }
    }
}

private struct SectionMissing: Error, CustomStringConvertible {
    var description: String
}
