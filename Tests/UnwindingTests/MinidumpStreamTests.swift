import Foundation
import ObjectFiles
import TestSupport
import Testing

@testable import Unwinding

/// Minidump streams most writers leave out: Breakpad's LinuxDsoDebug (the dynamic linker's list) read from a dump
/// Breakpad wrote, checked against the same dump's copy of `/proc/PID/maps`; ThreadInfoList written here, whole and
/// with sizes that lie.
@Suite("Minidump streams")
struct MinidumpStreamTests {
    /// rust-minidump's `linux-mini.dmp` (MIT): Breakpad's Linux writer, a 64-bit program and six libraries.
    @Test func theLoadersListAgreesWithTheDumpsOwnMaps() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/minidumps/rust-minidump/linux-mini.dmp")
            .path
        let dump = try MinidumpFile(path: path)
        let libraries = try #require(dump.linux.loaderLibraries)
        #expect(libraries.count == Int(dump.linux.loaderLibraryCount ?? 0))
        // /proc/PID/maps: start, offset and the inode of each file mapping.
        let maps = (dump.linux.maps ?? "").split(separator: "\n").compactMap {
            line -> (start: UInt64, end: UInt64, offset: UInt64, inode: String)? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, let bounds = Optional(fields[0].split(separator: "-")), bounds.count == 2,
                let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16),
                let offset = UInt64(fields[2], radix: 16)
            else { return nil }
            return (start, end, offset, String(fields[4]))
        }
        let named = libraries.filter { $0.name.hasPrefix("/") }
        #expect(named.count >= 6, "\(libraries)")
        for library in named {
            // A library's bias is where its file's first page was mapped, and its dynamic section lies in a mapping of
            // the same file.
            let first = try #require(
                maps.first { $0.start == library.bias && $0.offset == 0 },
                "\(library.name) at 0x\(String(library.bias, radix: 16))")
            #expect(
                maps.contains { $0.inode == first.inode && (($0.start)..<($0.end)).contains(library.dynamicAddress) },
                "\(library.name)")
        }
        let loader = try #require(named.first { $0.name.contains("/ld-linux") })
        #expect(dump.linux.loaderBase == loader.bias)
        #expect(dump.warnings.isEmpty, "\(dump.warnings)")
    }

    /// A dump of two threads whose ThreadInfoList gives each a start address and creation time.
    static func dump(infoCount claimed: UInt32, infoEntries: Int) -> [UInt8] {
        var builder = MinidumpBuilder(streamCount: 2)
        builder.stream(.threadList) { out in
            out.u32(2)
            for id in [101, 102] as [UInt32] {
                out.u32(id)
                out.zeros(12)
                out.u64(0)
                out.u64(0x7ffc_0000_0000)
                out.u32(0); out.u32(0) // no stack bytes
                out.u32(0); out.u32(0) // no context
            }
        }
        builder.stream(.threadInfoList) { out in
            out.u32(12) // header size
            out.u32(64) // entry size
            out.u32(claimed)
            for index in 0..<infoEntries {
                out.u32([101, 102][index % 2])
                out.zeros(12) // dump flags, dump error, exit status
                out.u64(0x01db_0000_0000_0000 + UInt64(index)) // creation time
                out.zeros(24) // exit, kernel and user times
                out.u64(0x5555_0000_1000 + UInt64(index) * 0x100) // start address
                out.u64(1) // affinity
            }
        }
        return builder.file(timeStamp: 0)
    }

    @Test func threadInfoGivesEachThreadItsStartAddress() throws {
        let dump = try MinidumpFile(bytes: ImmutableBytes(Self.dump(infoCount: 2, infoEntries: 2)), path: "infos.dmp")
        #expect(dump.threads.map(\.startAddress) == [0x5555_0000_1000, 0x5555_0000_1100])
        #expect(dump.threads.map(\.createTime) == [0x01db_0000_0000_0000, 0x01db_0000_0000_0001])
        #expect(!dump.warnings.contains { $0.contains("ThreadInfoList") }, "\(dump.warnings)")
    }

    /// A count larger than the stream holds: the entries that fit are read, and one line names the stream.
    @Test func aThreadInfoListThatClaimsMoreThanItHoldsIsReadAsFarAsItGoes() throws {
        let dump = try MinidumpFile(
            bytes: ImmutableBytes(Self.dump(infoCount: 1_000_000, infoEntries: 1)), path: "lying.dmp")
        #expect(dump.threads.map(\.startAddress) == [0x5555_0000_1000, nil])
        #expect(dump.warnings.contains { $0.contains("ThreadInfoList") && $0.contains("1000000") }, "\(dump.warnings)")
    }

    /// `MINIDUMP_STRING`s (module paths, CSD versions) decode as the standard library decodes UTF-16: ASCII, two- and
    /// three-byte characters, a pair of surrogates, and lone surrogates (each replaced by U+FFFD).
    @Test func minidumpStringsDecodeAsTheStandardLibraryDecodesUTF16() {
        let texts: [[UInt16]] = [
            Array("/usr/lib/libc.so.6".utf16), Array("/home/zoë/Ünïcode/日本語.so".utf16),
            Array("emoji 🧯 in a path".utf16), [0x61, 0xD800, 0x62], [0xDC00], [0x61, 0xD83E], [0xD83E, 0xD83E, 0xDDEF],
            []
        ]
        for units in texts {
            var bytes: [UInt8] = [0, 0, 0, 0]
            withUnsafeBytes(of: UInt32(units.count * 2).littleEndian) { bytes += $0 }
            for unit in units { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            let decoded = MinidumpBytes(storage: ImmutableBytes(bytes)).utf16String(at: 4)
            #expect(decoded == String(decoding: units, as: UTF16.self), "\(units)")
        }
    }
}
