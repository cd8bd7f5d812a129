import DWARF
import ObjectFiles
import PostmortemCore
import Testing

@testable import Symbolication

/// A packed unit searched in place, including when its bytes are damaged.
@Suite("Packed units")
struct FlatUnitTests {
    static let contents = UnitContents(
        functions: [
            FunctionRecord(
                name: "outer", linkageName: "_Z5outerv", ranges: [AddressRange(lowerBound: 0x1000, upperBound: 0x1100)],
                parent: nil, depth: 0, isInlined: false, callFile: nil, callLine: 0, callColumn: 0, declarationLine: 3),
            FunctionRecord(
                name: "inner", linkageName: nil, ranges: [AddressRange(lowerBound: 0x1010, upperBound: 0x1020)],
                parent: 0, depth: 1, isInlined: true, callFile: "/src/a.c", callLine: 7, callColumn: 2,
                declarationLine: 1)
        ],
        lineTable: LineTable(
            sequences: [
                LineSequence(
                    rows: [
                        LineRow(address: FileAddress(0x1000), file: 0, line: 3, column: 1),
                        LineRow(address: FileAddress(0x1010), file: 0, line: 1, column: 5)
                    ], endAddress: FileAddress(0x1100)),
                LineSequence(
                    rows: [LineRow(address: FileAddress(0x2000), file: 0, line: 9, column: 1)],
                    endAddress: FileAddress(0x2040))
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
        let field = { (index: Int) in
            Int(bytes[8 + index * 4]) | Int(bytes[9 + index * 4]) << 8 | Int(bytes[10 + index * 4]) << 16
        }
        let sequences = FlatUnit.headerSize + field(0) + field(1)
        // The sequence table's base (u64) now lies far above everything; the first sequence's start, end and furthest end
        // and the second's furthest end (narrow u32 offsets from the base) reach the top: a search for 0x2050 walks back
        // from the second sequence into the first.
        let damage: [(Int, [UInt8])] = [
            (0, [0, 0] + Array(repeating: 0xFF, count: 6)),
            (FlatRangeTable.headerSize, Array(repeating: 0xFF, count: 12)),
            (FlatRangeTable.headerSize + 16 + 8, Array(repeating: 0xFF, count: 4))
        ]
        for (offset, values) in damage {
            for (index, value) in values.enumerated() { bytes[sequences + offset + index] = value }
        }
        let unit = try #require(FlatUnit(bytes: ImmutableBytes(bytes), range: 0..<bytes.count))
        let sound = try #require(FlatUnit(packing: Self.contents))
        for address in [0, 0x1015, 0x2010, 0x2050, 0xFFFF_FFFF_FFFF_0010, UInt64.max] {
            // A row given back holds the address (it starts at or below it and ends above it), damaged table or not.
            if let hit = unit.row(containing: FileAddress(address)) {
                #expect(
                    hit.row.address.rawValue <= address && address < hit.end.rawValue, "0x\(String(address, radix: 16))"
                )
            }
            // The functions' records were not touched: their chains are the sound unit's.
            #expect(
                unit.functionChain(at: FileAddress(address)).map(\.name)
                    == sound.functionChain(at: FileAddress(address)).map(\.name))
        }
    }

    /// Every byte of a packed unit damaged in turn, and cut short at every length: lookups give answers or none, and
    /// never trap or loop.
    /// A row given back holds the address; a byte "damaged" to the value it had answers as the sound unit.
    @Test func everyDamagedByteIsSurvived() throws {
        let bytes = FlatUnit.encode(Self.contents)
        let sound = try #require(FlatUnit(packing: Self.contents))
        var opened = 0, unchanged = 0
        for index in bytes.indices {
            for value in Set<UInt8>([0x00, 0x7F, 0x80, 0xFF, bytes[index]]) {
                var damaged = bytes
                damaged[index] = value
                guard let unit = FlatUnit(bytes: ImmutableBytes(damaged), range: 0..<damaged.count) else {
                    #expect(damaged != bytes, "the sound bytes were refused")
                    continue
                }
                opened += 1
                for address in [0x1000, 0x1015, 0x1050, 0x2010, 0x2050] {
                    let chain = unit.functionChain(at: FileAddress(UInt64(address)))
                    let hit = unit.row(containing: FileAddress(UInt64(address)))
                    if let hit {
                        #expect(
                            hit.row.address.rawValue <= address && UInt64(address) < hit.end.rawValue,
                            "byte \(index) = \(value): a row that does not hold 0x\(String(address, radix: 16))")
                    }
                    if damaged == bytes {
                        #expect(chain.map(\.name) == sound.functionChain(at: FileAddress(UInt64(address))).map(\.name))
                        #expect(hit?.row.line == sound.row(containing: FileAddress(UInt64(address)))?.row.line)
                    }
                }
                if damaged == bytes {
                    unchanged += 1
                    #expect(FlatUnit.encode(unit.contents()) == bytes)
                } else {
                    _ = unit.contents()
                }
            }
        }
        // Damage was read (not every damaged unit refused), and every undamaged copy answered.
        #expect(
            opened > bytes.count && unchanged == bytes.count,
            "\(opened) opened, \(unchanged) of \(bytes.count) undamaged")
    }

    /// A unit packed, decoded and packed again is the same bytes: the cache writer repacks every unit it stores.
    @Test func decodingGivesBackWhatWasPacked() throws {
        let unit = try #require(FlatUnit(packing: Self.contents))
        let decoded = unit.contents()
        #expect(decoded.functions.map(\.name) == ["outer", "inner"])
        #expect(decoded.functions.map(\.parent) == [nil, 0])
        #expect(decoded.lineTable.sequences == Self.contents.lineTable.sequences)
        #expect(FlatUnit.encode(decoded) == FlatUnit.encode(Self.contents))
    }

    /// A sequence of more rows than one block holds: every row is found by its own address and by the address before
    /// the next one, and ends where the next starts (the block index, and the step from one block to the next).
    @Test func longSequencesAreSearchedByBlock() throws {
        let rows = (0..<100).map {
            LineRow(
                address: FileAddress(0x4000 + UInt64($0) * 6), file: 0, line: UInt32(10 + $0 % 7), column: UInt32($0))
        }
        let contents = UnitContents(
            functions: [],
            lineTable: LineTable(
                sequences: [LineSequence(rows: rows, endAddress: FileAddress(0x4400))], files: ["/src/b.c"]))
        let unit = try #require(FlatUnit(packing: contents))
        for (index, row) in rows.enumerated() {
            let next = index + 1 < rows.count ? rows[index + 1].address : FileAddress(0x4400)
            for address in [row.address, FileAddress(next.rawValue - 1)] {
                let hit = try #require(unit.row(containing: address))
                #expect(hit.row == row && hit.end == next && hit.file == "/src/b.c")
            }
        }
        #expect(unit.contents().lineTable.sequences.first?.rows == rows)
    }
}
