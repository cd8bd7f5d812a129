import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@Suite("Mach-O, universal files and dSYM bundles")
struct MachOReaderTests {
    static func apple(_ name: String) -> String { Fixtures.path("../Apple/bin/\(name)") }

    /// `UUID: 4C4C…-… (arm64) PATH` lines of `llvm-dwarfdump --uuid`, by architecture.
    private func llvmUUIDs(_ path: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for line in try Fixtures.run("llvm-dwarfdump", ["--uuid", path]).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            result[String(fields[2].dropFirst().dropLast())] = String(fields[1])
        }
        return result
    }

    @Test(arguments: ["App", "App.dSYM/Contents/Resources/DWARF/App", "App-arm64", "App-x86_64"])
    func slicesAndUUIDsMatchLLVMDwarfdump(_ name: String) throws {
        let images = try ObjectFileReader.readAll(path: Self.apple(name))
        let expected = try llvmUUIDs(Self.apple(name))
        #expect(
            Dictionary(uniqueKeysWithValues: images.map { ($0.architecture.name, $0.uuid?.description ?? "") })
                == expected)
        for image in images {
            #expect(image.format == .machO)
            #expect(image.imageBase == FileAddress(0x1_0000_0000))
            #expect(image.platform == "macos 11.0")
            #expect(image.is64Bit)
        }
    }

    /// 32-bit objects are identified (their DWARF is not resolved: libdwarf reads no 32-bit Mach-O here).
    @Test(arguments: [("sensors-armv7.o", Architecture.armv7), ("sensors-i386.o", Architecture.i386)])
    func thirtyTwoBitObjectsAreIdentified(_ name: String, _ architecture: Architecture) throws {
        let image = try ObjectFileReader.read(path: Self.apple(name))
        #expect(image.architecture == architecture)
        #expect(!image.is64Bit)
        #expect(image.kind == .relocatable)
        #expect(image.hasDWARF)
        let table = try ObjectFileReader.symbolTable(of: image)
        #expect(table.symbol(named: "sample_at")?.kind == .function)
    }

    @Test func dSYMBundlesOpenTheirDWARFFile() throws {
        let images = try ObjectFileReader.readAll(path: Self.apple("App.dSYM"))
        #expect(
            images.map(\.path) == [
                Self.apple("App.dSYM/Contents/Resources/DWARF/App"), Self.apple("App.dSYM/Contents/Resources/DWARF/App")
            ])
        #expect(images.allSatisfy { $0.hasDWARF && $0.kind == .debugCompanion })
        let arm64 = try ObjectFileReader.read(path: Self.apple("App.dSYM"), architecture: .arm64)
        #expect(arm64.slice != nil)
        let lines = try #require(try ObjectFileReader.sectionContents(named: arm64.dwarfSectionName("line"), in: arm64))
        #expect(UInt64(lines.count) == arm64.section(named: "__DWARF,__debug_line")?.size)
    }

    @Test(arguments: [("App-arm64", "arm64"), ("App-x86_64", "x86_64")])
    func symbolsMatchLLVMNm(_ name: String, _ arch: String) throws {
        let table = try ObjectFileReader.symbolTable(of: ObjectFileReader.read(path: Self.apple(name)))
        var checked = 0
        for line in try Fixtures.run("llvm-nm", ["--defined-only", Self.apple(name)]).split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, "tT".contains(fields[1]), let address = UInt64(fields[0], radix: 16) else {
                continue
            }
            var expectedName = String(fields[2])
            if expectedName.hasPrefix("_") { expectedName.removeFirst() }
            #expect(table.symbol(containing: FileAddress(address))?.symbol.name == expectedName)
            checked += 1
        }
        #expect(checked >= 4, "main, sample_at, widget_total and the Objective-C methods")
    }

    @Test func debugFileBesideTheBinaryIsFoundByUUID() throws {
        let binary = try ObjectFileReader.read(path: Self.apple("App"), architecture: .x86_64)
        let lookup = DebugFileLocator().locateDebugFile(for: binary)
        #expect(lookup.debugFile?.uuid == binary.uuid)
        #expect(lookup.debugFile?.architecture == .x86_64)
    }
}
