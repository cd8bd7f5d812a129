import DWARF
import ObjectFiles
@testable import Symbolication
import Testing
import PostmortemCore

/// A packed unit searched in place, including when its bytes are damaged.
@Suite("Packed units")
struct FlatUnitTests {
    static let contents = UnitContents(
        functions: [
            FunctionRecord(name: "outer", linkageName: "_Z5outerv", ranges: [AddressRange(lowerBound: 0x1000, upperBound: 0x1100)],
                           parent: nil, depth: 0, isInlined: false, callFile: nil, callLine: 0, callColumn: 0, declarationLine: 3),
            FunctionRecord(name: "inner", linkageName: nil, ranges: [AddressRange(lowerBound: 0x1010, upperBound: 0x1020)],
                           parent: 0, depth: 1, isInlined: true, callFile: "/src/a.c", callLine: 7, callColumn: 2, declarationLine: 1),
        ],
        lineTable: LineTable(sequences: [
            LineSequence(rows: [LineRow(address: FileAddress(0x1000), file: 0, line: 3, column: 1),
                                LineRow(address: FileAddress(0x1010), file: 0, line: 1, column: 5)], endAddress: FileAddress(0x1100)),
            LineSequence(rows: [LineRow(address: FileAddress(0x2000), file: 0, line: 9, column: 1)], endAddress: FileAddress(0x2040)),
        ], files: ["/src/a.c"]))

    @Test func lookupsReadTheChainAndTheRow() throws {
        let unit = try #require(FlatUnit(packing: Self.contents))
        #expect(unit.functionChain(at: FileAddress(0x1015)).map(\.name) == ["outer", "inner"])
        #expect(unit.functionChain(at: FileAddress(0x1050)).map(\.name) == ["outer"])
        #expect(unit.functionChain(at: FileAddress(0x3000)).isEmpty)
        let row = try #require(unit.row(containing: FileAddress(0x1015)))
        #expect(row.row.line == 1 && row.file == "/src/a.c" && row.end == FileAddress(0x1100))
        #expect(unit.row(containing: FileAddress(0x2010))?.row.line == 9)
        #expect(unit.row(containing: FileAddress(0x1800)) == nil)
    }

    /// The first fuzzing find: a damaged sequence table whose earlier sequence starts above the address
    /// looked up (and reaches past it) made the row search subtract past zero.
    @Test func damagedSequenceTableDoesNotTrap() throws {
        var bytes = FlatUnit.encode(Self.contents)
        let sequences = FlatUnit.headerSize + 1 * FlatRangeTable.entrySize + 2 * FlatUnit.recordSize + 2 * FlatUnit.rangeSize
        // The first sequence now starts far above everything and ends at the top, and both "furthest end"
        // fields reach the top: a search for 0x2050 walks back from the second sequence into the first.
        for (offset, value) in [(0, UInt64(0xFFFF_FFFF_FFFF_0000)), (8, .max), (16, .max), (FlatUnit.sequenceSize + 16, .max)] {
            withUnsafeBytes(of: value.littleEndian) { for index in 0..<8 { bytes[sequences + offset + index] = $0[index] } }
        }
        let unit = try #require(FlatUnit(bytes: ImmutableBytes(bytes), range: 0..<bytes.count))
        let sound = try #require(FlatUnit(packing: Self.contents))
        for address in [0, 0x1015, 0x2010, 0x2050, 0xFFFF_FFFF_FFFF_0010, UInt64.max] {
            // A row given back holds the address (it starts at or below it and ends above it), damaged table or not.
            if let hit = unit.row(containing: FileAddress(address)) {
                #expect(hit.row.address.rawValue <= address && address < hit.end.rawValue, "0x\(String(address, radix: 16))")
            }
            // The functions' records were not touched: their chains are the sound unit's.
            #expect(unit.functionChain(at: FileAddress(address)).map(\.name) == sound.functionChain(at: FileAddress(address)).map(\.name))
        }
    }
}
