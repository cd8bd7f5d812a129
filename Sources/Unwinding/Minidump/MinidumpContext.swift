/// A thread's registers as a minidump stores them: the CPU context of Microsoft's layout for x86-64 (`CONTEXT`,
/// 1,232 bytes) and x86 (`CONTEXT` of 32-bit Windows, Breakpad's `MDRawContextX86`, 716 bytes), and of Breakpad's and
/// Crashpad's for ARM64 (`MDRawContextARM64`, and its older form, which keeps the integer registers at the same
/// offsets) and 32-bit ARM (`MDRawContextARM`, 368 bytes).
enum MinidumpContext {
    /// The architecture a context of `size` bytes is for, when the system-info stream does not say.
    static func architecture(contextSize size: Int) -> UnwindArchitecture? {
        switch size {
        case amd64Size: .x86_64
        case arm64Size, arm64OldSize: .arm64
        case x86Size: .x86
        case armSize: .arm
        default: nil
        }
    }

    static let amd64Size = 1232
    static let x86Size = 716
    /// `MDRawContextARM`: flags, r0–r15, cpsr, then the floating-point area (fpscr, 32 double registers, 8 words).
    static let armSize = 4 + 16 * 4 + 4 + 8 + 32 * 8 + 8 * 4
    static let arm64Size = 912
    /// `MDRawContextARM64_Old`: 64-bit flags, 33 integer registers, cpsr, then the floating-point area.
    static let arm64OldSize = 8 + 33 * 8 + 4 + 32 * 16 + 8

    /// The registers of `bytes`, a context of `architecture`; `nil` with the reason when it is too short.
    static func registers(_ bytes: [UInt8], architecture: UnwindArchitecture) -> Result<
        RegisterSet, MinidumpContextFailure
    > {
        var registers = RegisterSet(architecture: architecture)
        switch architecture {
        case .x86_64:
            // CONTEXT: six home words, flags, mxcsr, six segment selectors, eflags, six debug registers, then rax at 120.
            guard bytes.count >= 256 else {
                return .failure(MinidumpContextFailure(size: bytes.count, architecture: architecture))
            }
            // rax rcx rdx rbx rsp rbp rsi rdi r8…r15 rip
            let order: [UInt16] = [0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16]
            for (slot, register) in order.enumerated() {
                registers[register] = CoreFile.word(bytes, at: 120 + slot * 8)
            }
        case .x86:
            // Flags, six debug registers, the 112-byte floating-point save area, four segment selectors, then edi esi
            // ebx edx ecx eax ebp eip at 156, cs and eflags, esp at 196.
            guard bytes.count >= 200 else {
                return .failure(MinidumpContextFailure(size: bytes.count, architecture: architecture))
            }
            let order: [UInt16] = [7, 6, 3, 2, 1, 0, 5, 8]
            for (slot, register) in order.enumerated() {
                registers[register] = UInt64(CoreFile.word32(bytes, at: 156 + slot * 4))
            }
            registers[4] = UInt64(CoreFile.word32(bytes, at: 196))
        case .arm:
            // Flags, then r0–r15 (r13 sp, r14 lr, r15 pc).
            guard bytes.count >= 68 else {
                return .failure(MinidumpContextFailure(size: bytes.count, architecture: architecture))
            }
            for register in 0...15 {
                registers[UInt16(register)] = UInt64(CoreFile.word32(bytes, at: 4 + register * 4))
            }
        case .arm64:
            // Flags and cpsr (or 64-bit flags), then x0–x30, sp, pc.
            guard bytes.count >= 272 else {
                return .failure(MinidumpContextFailure(size: bytes.count, architecture: architecture))
            }
            for register in 0...32 { registers[UInt16(register)] = CoreFile.word(bytes, at: 8 + register * 8) }
        }
        return .success(registers)
    }
}

/// A context too short for its architecture's registers.
struct MinidumpContextFailure: Error, Hashable, Sendable, CustomStringConvertible {
    var size: Int
    var architecture: UnwindArchitecture
    var description: String { "a context of \(size) bytes is too short for \(architecture.rawValue) registers" }
}
