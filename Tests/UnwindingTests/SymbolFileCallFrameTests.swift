import BreakpadSymbols
import DWARF
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@testable import Unwinding

/// The `STACK CFI` records of a symbol file read back as rows an unwinder goes by: the same rows as the binary's own
/// frame sections give, and Breakpad's postfix rules evaluated as Breakpad evaluates them.
@Suite("Call frames from symbol files")
struct SymbolFileCallFrameTests {
    /// The symbol file `postmortem dump-syms` writes of `binary`, read for lookups.
    static func symbolFile(of binary: ObjectFile) throws -> SymbolFileIndex {
        let (file, _) = try SymbolFileBuilder(binary: binary, debugFile: nil, generator: "test").build()
        var bytes: [UInt8] = []
        SymbolFileText.write(file) { bytes += $0 }
        return try SymbolFileIndex(bytes: ImmutableBytes(bytes), path: binary.fileName + ".sym")
    }

    /// Whether `row` says anything only a DWARF expression can (a PLT entry's CFA): Breakpad's records leave such rules
    /// out, as dump_syms does, and the row before goes on holding in the symbol file.
    static func usesExpressions(_ row: CallFrameRow) -> Bool {
        if case .expression = row.canonicalFrameAddress { return true }
        return row.rules.values.contains { rule in
            switch rule {
            case .savedAtExpression, .isExpression: true
            default: false
            }
        }
    }

    /// At every instruction-sized step through each fixture's code, the symbol file's row states the binary's row: its
    /// CFA and every register's rule (a rule the binary's CFI gives no register stays its value in both).
    @Test(arguments: ["inventory-gcc", "sensors-clang-dwarf5", "shapes-swift-O", "libgeometry.so"])
    func symbolFileRowsAreTheBinarysRows(_ fixture: String) throws {
        let binary = try ObjectFileReader.read(path: Fixtures.path(fixture))
        let rows = SymbolFileCallFrames(index: try Self.symbolFile(of: binary))
        let table = try CallFrameTable(object: binary)
        let base = binary.segments.first?.virtualAddress.rawValue ?? 0
        var compared = 0, missing = 0, differing: [String] = []
        for section in binary.sections where section.isExecutable && section.size > 0 {
            var address = section.address.rawValue
            while address < section.addressRange.upperBound.rawValue {
                defer { address += 1 }
                guard let expected = try table.row(at: FileAddress(address)), !Self.usesExpressions(expected) else {
                    continue
                }
                guard let actual = try rows.row(at: FileAddress(address - base)) else {
                    missing += 1
                    continue
                }
                compared += 1
                // A register an epilogue restores (DWARF's `DW_CFA_restore`) has no record in Breakpad's text, so the
                // symbol file goes on saying where it was saved, which still holds its value: accepted.
                let restored = actual.rules.filter { expected.rules[$0.key] == nil }.allSatisfy { rule in
                    if case .savedAt = rule.value { true } else { false }
                }
                if actual.canonicalFrameAddress != expected.canonicalFrameAddress
                    || actual.returnAddressRegister != expected.returnAddressRegister
                    || expected.rules.contains(where: { actual.rule(of: $0.key) != $0.value }) || !restored
                {
                    if differing.count < 5 {
                        differing.append("0x\(String(address, radix: 16)): \(actual) is not \(expected)")
                    }
                }
            }
        }
        #expect(compared > 300, "\(fixture): rows compared")
        #expect(missing * 100 <= compared, "\(fixture): \(missing) rows of the binary are missing from the symbol file")
        #expect(differing.isEmpty, "\(fixture): \(differing)")
    }

    /// Rules past a register plus a constant become DWARF expressions of the same operations: registers read, `+ - * /
    /// %`, `^` a word read from memory and `@` an alignment; `.cfa` first in a register's rule is the CFA.
    @Test func postfixRulesEvaluateAsBreakpadEvaluatesThem() throws {
        let text = """
            MODULE Linux x86_64 000000000000000000000000000000000 test
            STACK CFI INIT 1000 40 .cfa: $rsp 24 + 16 @ .ra: .cfa -8 + ^ $rbx: $rbp 16 - ^ $rbp: .cfa 2 * 3 % $r12: .undef
            STACK CFI 1010 .cfa: $rbp 16 + $r13: $r14
            STACK CFI 1020 .cfa: $rbp 16 - $rbx: .cfa 24 - ^ $r15: .cfa 8 -

            """
        let index = try SymbolFileIndex(bytes: ImmutableBytes(Array(text.utf8)), path: "test.sym")
        let rows = SymbolFileCallFrames(index: index)
        var registers = RegisterSet(architecture: .x86_64)
        registers[7] = 0x7ffc_0000_1008 // rsp
        registers[6] = 0x7ffc_0000_2000 // rbp
        let memory = CFIExpressionTests.Memory(words: [0x7ffc_0000_1ff0: 0x1234, 0x7ffc_0000_1018: 0x5555_0000_0042])

        let first = try #require(try rows.row(at: FileAddress(0x1008)))
        guard case .expression(let cfaBytes) = first.canonicalFrameAddress else {
            Issue.record("the aligned CFA is an expression: \(first.canonicalFrameAddress)")
            return
        }
        let cfa = try CFIExpression(bytes: cfaBytes).evaluate(registers: registers, memory: memory)
        #expect(cfa == (0x7ffc_0000_1008 + 24) & ~15)
        #expect(first.rule(of: 16) == .savedAt(cfaOffset: -8))
        #expect(first.returnAddressRegister == 16)
        #expect(first.rule(of: 12) == .undefined)
        guard case .savedAtExpression(let rbxBytes) = first.rule(of: 3),
            case .isExpression(let rbpBytes) = first.rule(of: 6)
        else {
            Issue.record("rbx and rbp are expressions: \(first.rules)")
            return
        }
        #expect(
            try CFIExpression(bytes: rbxBytes).evaluate(registers: registers, memory: memory, initial: cfa)
                == 0x7ffc_0000_1ff0)
        #expect(
            try CFIExpression(bytes: rbpBytes).evaluate(registers: registers, memory: memory, initial: cfa) == (cfa * 2)
                % 3)

        // From 0x1010 on, the change: the CFA from rbp, r13 in r14; the other rules as before. Past the function, none.
        let second = try #require(try rows.row(at: FileAddress(0x1010)))
        #expect(second.canonicalFrameAddress == .register(6, offset: 16))
        #expect(second.rule(of: 13) == .inRegister(14))
        #expect(second.rule(of: 16) == .savedAt(cfaOffset: -8))
        #expect(second.start == FileAddress(0x1010))
        // `N -` subtracts, in a CFA rule and in a register's.
        let third = try #require(try rows.row(at: FileAddress(0x1030)))
        #expect(third.canonicalFrameAddress == .register(6, offset: -16))
        #expect(third.rule(of: 3) == .savedAt(cfaOffset: -24))
        #expect(third.rule(of: 15) == .isCFA(offset: -8))
        #expect(try rows.row(at: FileAddress(0x1040)) == nil)
        #expect(try rows.row(at: FileAddress(0xfff)) == nil)
    }

    /// A row whose return address has a rule that cannot be read is no row, nor is one without a CFA rule; a row with
    /// no `.ra` rule is the outermost frame's (dump_syms leaves an undefined return address out).
    @Test func unreadableRulesGiveNoRow() throws {
        let text = """
            MODULE Linux x86_64 000000000000000000000000000000000 test
            STACK CFI INIT 1000 10 .cfa: $rsp 8 +
            STACK CFI INIT 2000 10 .cfa: $nosuch 8 + .ra: .cfa -8 + ^
            STACK CFI INIT 3000 10 .ra: .cfa -8 + ^
            STACK CFI INIT 4000 10 .cfa: $rsp 8 + .ra: $rsp .cfa +
            STACK CFI INIT 5000 10 .cfa: $rsp 8 + .ra: .cfa -8 + ^ .cfa

            """
        let rows = SymbolFileCallFrames(
            index: try SymbolFileIndex(bytes: ImmutableBytes(Array(text.utf8)), path: "test.sym"))
        #expect(try rows.row(at: FileAddress(0x1000))?.rule(of: 16) == .undefined)
        for address: UInt64 in [0x2000, 0x3000, 0x4000, 0x5000] {
            #expect(try rows.row(at: FileAddress(address)) == nil, "0x\(String(address, radix: 16))")
        }
    }
}
