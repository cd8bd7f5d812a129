import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@Suite("Symbol tables")
struct SymbolTableTests {
    /// Every sized function `nm` lists is found at its first and last byte.
    @Test(arguments: ["sensors-gcc-dwarf5", "inventory-gcc", "shapes-swift-O", "libgeometry.so"])
    func everyFunctionIsFoundAcrossItsBytes(_ name: String) throws {
        let file = try ObjectFileReader.read(path: Fixtures.path(name))
        let table = try ObjectFileReader.symbolTable(of: file)
        let nm = try Fixtures.run("nm", ["-S", "--defined-only", Fixtures.path(name)])
        var checked = 0
        for line in nm.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, "tTwW".contains(fields[2]), let start = UInt64(fields[0], radix: 16),
                let size = UInt64(fields[1], radix: 16), size > 0
            else { continue }
            for address in [start, start + size - 1] {
                let hit = try #require(
                    table.symbol(containing: FileAddress(address)), "nothing at \(address) (\(fields[3]))")
                #expect(
                    hit.symbol.address == FileAddress(start),
                    "\(fields[3]) at 0x\(String(address, radix: 16)) found \(hit.symbol.name)")
                #expect(hit.offset == address - start)
            }
            checked += 1
        }
        #expect(checked >= 2, "the test checked too few functions to mean anything")
    }

    @Test func localSymbolsKnowTheirSourceFile() throws {
        let table = try ObjectFileReader.symbolTable(
            of: ObjectFileReader.read(path: Fixtures.path("sensors-gcc-dwarf5")))
        #expect(table.symbol(named: "__do_global_dtors_aux")?.sourceFile == "crtstuff.c")
        #expect(table.symbol(named: "sample_at")?.sourceFile == nil, "global symbols name no file")
    }

    @Test func unsizedSymbolsStopAtTheirSectionsEnd() throws {
        let file = try ObjectFileReader.read(path: Fixtures.path("sensors-gcc-dwarf5"))
        let table = try ObjectFileReader.symbolTable(of: file)
        let initSection = try #require(file.section(named: ".init"))
        let inside = initSection.address
        let past = try #require(initSection.address.advanced(by: initSection.size))
        #expect(table.symbol(containing: inside)?.symbol.name == "_init")
        #expect(table.symbol(containing: past)?.symbol.name != "_init", "_init declares no size but ends with .init")
    }
}
