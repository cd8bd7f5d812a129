import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@Suite("ELF identity and layout")
struct ELFReaderTests {
    static let binaries = [
        "sensors-gcc-dwarf5", "sensors-clang-dwarf4", "sensors-clang-gz", "sensors-gcc-dwarf4-gz", "inventory-gcc",
        "inventory-clang", "shapes-swift-O", "libgeometry.so", "sensors-stripped", ".debug/sensors-stripped.debug"
    ]

    @Test(arguments: binaries)
    func buildIDMatchesReadelf(_ name: String) throws {
        let file = try ObjectFileReader.read(path: Fixtures.path(name))
        let readelf = try Fixtures.run("readelf", ["-n", Fixtures.path(name)])
        let expected = try #require(
            readelf.split(separator: "\n").first { $0.contains("Build ID:") }?.split(separator: " ").last)
        #expect(file.buildID?.hex == String(expected))
        #expect(BuildID(hex: String(expected)) == file.buildID)
    }

    @Test(arguments: binaries)
    func loadSegmentsMatchReadelf(_ name: String) throws {
        let file = try ObjectFileReader.read(path: Fixtures.path(name))
        let readelf = try Fixtures.run("readelf", ["-l", "-W", Fixtures.path(name)])
        let loads = readelf.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("LOAD") }
        #expect(file.segments.count == loads.count)
        let firstAddress = loads.first.map { UInt64($0.split(separator: " ")[2].dropFirst(2), radix: 16) } ?? nil
        #expect(file.segments.first?.virtualAddress.rawValue == firstAddress)
        #expect(file.imageBase == FileAddress(0), "PIEs and shared libraries are linked at 0")
        #expect(file.architecture == .x86_64)
        #expect(file.is64Bit)
    }

    @Test func kindsOfFile() throws {
        #expect(try ObjectFileReader.read(path: Fixtures.path("libgeometry.so")).kind == .sharedObject)
        #expect(
            try ObjectFileReader.read(path: Fixtures.path("sensors-gcc-dwarf5")).kind == .positionIndependentExecutable,
            "a PIE is ET_DYN with DF_1_PIE")
        // A debug file keeps no `.dynamic` contents: it reads as what its type says.
        #expect(try ObjectFileReader.read(path: Fixtures.path(".debug/sensors-stripped.debug")).kind == .sharedObject)
        #expect(try ObjectFileReader.read(path: Fixtures.path("sensors-gcc-dwarf5")).hasDWARF)
        #expect(try !ObjectFileReader.read(path: Fixtures.path("sensors-stripped")).hasDWARF)
        #expect(try ObjectFileReader.read(path: Fixtures.path(".debug/sensors-stripped.debug")).hasDWARF)
    }

    @Test(arguments: ["sensors-clang-gz", "sensors-gcc-dwarf4-gz"])
    func compressedDebugSections(_ name: String) throws {
        let file = try ObjectFileReader.read(path: Fixtures.path(name))
        let info = try #require(file.section(named: ".debug_info"))
        #expect(info.isCompressed)
        let contents = try #require(try ObjectFileReader.sectionContents(named: ".debug_info", in: file))
        #expect(UInt64(contents.count) > info.size, "decompressed contents are larger than the compressed section")
    }

    @Test func debugLinkNamesTheDebugFileAndItsCRC() throws {
        let file = try ObjectFileReader.read(path: Fixtures.path("sensors-stripped"))
        let link = try #require(file.debugLink)
        #expect(link.fileName == "sensors-stripped.debug")
        let crc = try Fixtures.run(
            "python3",
            [
                "-c", "import zlib,sys; print(zlib.crc32(open(sys.argv[1],'rb').read()))",
                Fixtures.path(".debug/sensors-stripped.debug")
            ])
        #expect(UInt32(crc.trimmingCharacters(in: .whitespacesAndNewlines)) == link.crc)
    }
}
