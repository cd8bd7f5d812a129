import ObjectFiles

/// The code a signal handler returns to (`__restore_rt` in glibc, `__kernel_rt_sigreturn` in a vDSO, `_sigtramp` on
/// Darwin). In a backtrace taken inside a handler, the frame after it is the instruction the signal interrupted — looked
/// up as it is, not as a return address — and the trampoline frame itself holds the trampoline's first instruction,
/// where the kernel made the handler return to.
package enum SignalTrampoline {
    /// The names trampolines go by in symbol tables, and the line gdb prints in their place.
    package static func isTrampoline(named name: String) -> Bool {
        // Asked of every named frame of every log: a first byte and a length rule out nearly every name before the
        // seven comparisons.
        let utf8 = name.utf8
        guard let first = utf8.first, first == UInt8(ascii: "_") || first == UInt8(ascii: "<"),
            [9, 10, 12, 18, 21, 23].contains(utf8.count)
        else { return false }
        switch name {
        case "__restore_rt", "__restore", "__kernel_rt_sigreturn", "__kernel_sigreturn", "_sigtramp", "__sigtramp",
            "<signal handler called>":
            return true
        default: return false
        }
    }

    /// True when the code at the start of `bytes` is a trampoline's: the `rt_sigreturn` (or `sigreturn`) system call,
    /// as the C libraries and vDSOs of Linux write it for `architecture`. This is how gdb and the unwinders tell a
    /// trampoline where no symbol names it (glibc's is a local symbol, gone from a stripped libc).
    package static func isTrampolineCode(_ bytes: [UInt8], architecture: Architecture) -> Bool {
        sequences(for: architecture).contains { bytes.starts(with: $0) }
    }

    private static func sequences(for architecture: Architecture) -> [[UInt8]] {
        switch architecture {
        // mov $15, %rax; syscall
        case .x86_64, .x86_64h: [[0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05]]
        // mov $173, %eax; int $0x80 (rt_sigreturn), and pop %eax; mov $119, %eax; int $0x80 (sigreturn)
        case .i386: [[0xb8, 0xad, 0x00, 0x00, 0x00, 0xcd, 0x80], [0x58, 0xb8, 0x77, 0x00, 0x00, 0x00, 0xcd, 0x80]]
        // mov x8, #139; svc #0
        case .arm64, .arm64e: [[0x68, 0x11, 0x80, 0xd2, 0x01, 0x00, 0x00, 0xd4]]
        // mov r7, #173; svc #0 (ARM), and movs r7, #173; svc #0 (Thumb)
        case .arm, .armv7, .armv7s, .armv7k:
            [[0xad, 0x70, 0xa0, 0xe3, 0x00, 0x00, 0x00, 0xef], [0xad, 0x27, 0x00, 0xdf]]
        // li a7, 139; ecall
        case .riscv64: [[0x93, 0x08, 0xb0, 0x08, 0x73, 0x00, 0x00, 0x00]]
        default: []
        }
    }

    /// The longest sequence any architecture needs.
    static let longestSequence = 9
}
