import ObjectFiles
import PostmortemCore
import Testing

@testable import DWARF

/// The line-program decoder on a hand-made program whose every opcode's effect is known, and on every
/// truncation of it. (Real programs of every fixture are checked against llvm-dwarfdump in DWARFFileTests.)
@Suite("Line program reader")
struct LineProgramReaderTests {
    /// A DWARF 4 line table: two files (one in an include directory), then one sequence using special,
    /// standard and extended opcodes.
    static let program: [UInt8] = {
        var body: [UInt8] = [0x00, 0x09, 0x02, 0x00, 0x10, 0, 0, 0, 0, 0, 0] // DW_LNE_set_address 0x1000
        body += [0x05, 0x03] // set_column 3
        body += [0x01] // copy: 0x1000 line 1
        body += [76] // special: address +4, line +2
        body += [0x04, 0x02] // set_file 2
        body += [0x08] // const_add_pc: +17
        body += [0x03, 0x7F] // advance_line -1
        body += [0x01] // copy: 0x1015 line 2
        body += [0x09, 0x10, 0x00] // fixed_advance_pc +16
        body += [0x00, 0x01, 0x01] // end_sequence at 0x1025
        return table(body)
    }()

    /// A table with the header above and the program `body`.
    static func table(_ body: [UInt8]) -> [UInt8] {
        // min_inst, max_ops, default_is_stmt, line_base -5, line_range, opcode_base
        var header: [UInt8] = [1, 1, 1, 0xFB, 14, 13]
        header += [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1] // standard_opcode_lengths
        header += Array("inc\0\0".utf8)
        header += Array("a.c\0".utf8) + [0, 0, 0] + Array("b.h\0".utf8) + [1, 0, 0] + [0]
        let headerLength = UInt32(header.count)
        let afterLength: [UInt8] = [4, 0] + withUnsafeBytes(of: headerLength.littleEndian, Array.init) + header + body
        return withUnsafeBytes(of: UInt32(afterLength.count).littleEndian, Array.init) + afterLength
    }

    static func read(_ bytes: [UInt8]) throws -> LineTable {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(LineProgramReader.Failure) in
                try LineProgramReader(section: buffer, lineStrings: nil, strings: nil).lineTable(
                    at: 0, compilationDirectory: "/src")
            }
        }
        return try result.get()
    }

    @Test func everyOpcodeMovesTheRegistersAsDWARFSays() throws {
        let table = try Self.read(Self.program)
        #expect(table.files == ["", "/src/a.c", "/src/inc/b.h"])
        #expect(table.sequences.count == 1)
        #expect(
            table.sequences.first?.rows == [
                LineRow(address: FileAddress(0x1000), file: 1, line: 1, column: 3),
                LineRow(address: FileAddress(0x1004), file: 1, line: 3, column: 3),
                LineRow(address: FileAddress(0x1015), file: 2, line: 2, column: 3)
            ])
        #expect(table.sequences.first?.endAddress == FileAddress(0x1025))
    }

    /// Cut anywhere, the table either cannot be read (its header is cut) or keeps the rows before the cut.
    @Test func aProgramCutShortKeepsItsFirstRows() throws {
        let full = try #require(try Self.read(Self.program).sequences.first?.rows)
        var readable = 0
        for length in 0..<Self.program.count {
            guard let table = try? Self.read(Array(Self.program[..<length])) else { continue }
            readable += 1
            let rows = table.sequences.flatMap(\.rows)
            #expect(Array(full.prefix(rows.count)) == rows, "cut at \(length)")
        }
        #expect(readable > 20, "cuts inside the program still read the header")
    }

    /// Addresses only grow within a sequence: a row below the one before (damaged DWARF; found by fuzzing, where
    /// packing such a sequence trapped) is dropped, and a sequence ends no lower than its last row.
    @Test func aRowBelowTheOneBeforeIsDropped() throws {
        func setAddress(_ address: UInt8) -> [UInt8] { [0x00, 0x09, 0x02, 0x00, address, 0, 0, 0, 0, 0, 0] }
        var body = setAddress(0x10) + [0x01] // 0x1000 line 1
        body += setAddress(0x08) + [0x01] // 0x0800: below
        body += setAddress(0x11) + [0x01] // 0x1100
        body += setAddress(0x09) + [0x00, 0x01, 0x01] // ends at 0x0900, below its last row
        let table = try Self.read(Self.table(body))
        #expect(
            table.sequences.map(\.rows) == [
                [
                    LineRow(address: FileAddress(0x1000), file: 1, line: 1, column: 0),
                    LineRow(address: FileAddress(0x1100), file: 1, line: 1, column: 0)
                ]
            ])
        #expect(table.sequences.first?.endAddress == FileAddress(0x1100))
    }

    @Test func anOffsetPastTheSectionIsAFailure() {
        #expect(throws: LineProgramReader.Failure.self) { try Self.read([1, 2, 3]) }
        #expect(throws: LineProgramReader.Failure.self) { try Self.read([]) }
    }
}
