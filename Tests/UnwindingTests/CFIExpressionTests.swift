import Testing

@testable import Unwinding

/// The expressions CFI uses, evaluated over registers and memory.
@Suite("CFI expressions")
struct CFIExpressionTests {
    struct Memory: MemoryReader {
        var words: [UInt64: UInt64]
        func read(_ count: Int, at address: UInt64) -> [UInt8]? {
            guard let word = words[address], count <= 8 else { return nil }
            return (0..<count).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) }
        }
        func word(at address: UInt64) -> UInt64? { words[address] }
        func isExecutable(_ address: UInt64) -> Bool? { nil }
    }

    var registers: RegisterSet {
        var set = RegisterSet(architecture: .x86_64)
        set[7] = 0x7ffc_0000_1000 // rsp
        set[16] = 0x5555_5555_502b // rip
        return set
    }

    /// The CFA of a PLT entry, as ld writes it: rsp + 8, plus 8 more once the entry has pushed its index
    /// (`DW_OP_breg7 8; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_lit11; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus`).
    @Test func pltCanonicalFrameAddress() throws {
        let bytes: [UInt8] = [0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22]
        var set = registers
        #expect(
            try CFIExpression(bytes: bytes).evaluate(registers: set, memory: Memory(words: [:])) == 0x7ffc_0000_1000
                + 16)
        set[16] = 0x5555_5555_5026 // before the push: offset 6 in the 16-byte entry
        #expect(
            try CFIExpression(bytes: bytes).evaluate(registers: set, memory: Memory(words: [:])) == 0x7ffc_0000_1000 + 8
        )
    }

    /// glibc's `__restore_rt`: the CFA is read from the `ucontext` on the stack (`DW_OP_breg7 160; DW_OP_deref`).
    @Test func signalFrameReadsMemory() throws {
        let memory = Memory(words: [0x7ffc_0000_1000 + 160: 0x7ffc_0000_2000])
        #expect(
            try CFIExpression(bytes: [0x77, 0xa0, 0x01, 0x06]).evaluate(registers: registers, memory: memory)
                == 0x7ffc_0000_2000)
        #expect(throws: CFIExpression.Failure.unreadableMemory(0x7ffc_0000_1000 + 168)) {
            try CFIExpression(bytes: [0x77, 0xa8, 0x01, 0x06]).evaluate(registers: registers, memory: memory)
        }
    }

    /// A branch back to itself ends at the operation limit; an unknown operation and an empty stack are refused.
    @Test func hostileExpressions() {
        #expect(throws: CFIExpression.Failure.tooLong) {
            try CFIExpression(bytes: [0x31, 0x28, 0xfc, 0xff]).evaluate(
                registers: registers, memory: Memory(words: [:]))
        }
        #expect(throws: CFIExpression.Failure.unsupported(0x50)) {
            try CFIExpression(bytes: [0x50]).evaluate(registers: registers, memory: Memory(words: [:]))
        }
        #expect(throws: CFIExpression.Failure.malformed) {
            try CFIExpression(bytes: [0x22]).evaluate(registers: registers, memory: Memory(words: [:]))
        }
        #expect(throws: CFIExpression.Failure.unknownRegister(3)) {
            try CFIExpression(bytes: [0x73, 0x00]).evaluate(registers: registers, memory: Memory(words: [:]))
        }
    }
}
