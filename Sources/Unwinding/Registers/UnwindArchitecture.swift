import ObjectFiles

/// A machine the unwinder walks stacks of: its registers by DWARF number, and which play which part.
package enum UnwindArchitecture: String, Hashable, Sendable, CaseIterable {
    case x86_64
    case arm64
    /// 32-bit x86, as minidumps of Windows and older Linux programs hold it (its cores are not read: their registers
    /// are stored in 4-byte slots).
    case x86
    /// 32-bit ARM (AArch32), as minidumps of Android and embedded Linux programs hold it; walked by call-frame
    /// information only (see ``walksFramePointers``); its cores are not read either.
    case arm

    /// The architecture of ELF `e_machine` (62: x86-64, 183: AArch64); `nil` for others.
    package init?(elfMachine machine: UInt16) {
        switch machine {
        case 62: self = .x86_64
        case 183: self = .arm64
        default: return nil
        }
    }

    /// The object-file architecture of the same name.
    package var objectArchitecture: Architecture {
        switch self {
        case .x86_64: .x86_64
        case .arm64: .arm64
        case .x86: .i386
        case .arm: .arm
        }
    }

    /// How many registers a ``RegisterSet`` holds: every DWARF number up to the program counter's.
    var registerCount: Int {
        switch self {
        case .x86_64: 17
        case .arm64: 33
        case .x86: 9
        case .arm: 16
        }
    }

    /// The DWARF number the program counter is kept under: x86-64's return-address column (16, `rip`), AArch64's `pc` (32).
    package var programCounter: UInt16 {
        switch self {
        case .x86_64: 16
        case .arm64: 32
        case .x86: 8
        case .arm: 15
        }
    }

    /// The stack pointer's DWARF number (`rsp` 7, `sp` 31).
    package var stackPointer: UInt16 {
        switch self {
        case .x86_64: 7
        case .arm64: 31
        case .x86: 4
        case .arm: 13
        }
    }

    /// The frame pointer's DWARF number (`rbp` 6, `x29`).
    package var framePointer: UInt16 {
        switch self {
        case .x86_64: 6
        case .arm64: 29
        case .x86: 5
        case .arm: 11
        }
    }

    /// The register a call leaves the return address in (AArch64's link register `x30`); `nil` on x86-64, where
    /// the call pushes it.
    package var linkRegister: UInt16? {
        switch self {
        case .x86_64, .x86: nil
        case .arm64: 30
        case .arm: 14
        }
    }

    /// The registers a called function must give back as it found them (the SysV ABI's rbx, rbp, r12–r15; AAPCS64's
    /// x19–x29).
    var calleeSaved: [UInt16] {
        switch self {
        case .x86_64: [3, 6, 12, 13, 14, 15]
        case .arm64: Array(19...29)
        case .x86: [3, 5, 6, 7]
        case .arm: Array(4...11)
        }
    }

    /// The size of a return address on the stack.
    var wordSize: UInt64 { self == .x86 || self == .arm ? 4 : 8 }

    /// Whether a frame-pointer chain is followed where call-frame information fails: not on 32-bit ARM, whose
    /// compilers keep the frame pointer in r11 (ARM code) or r7 (Thumb) and lay the frame record out differently
    /// (GCC's saved link register at the frame pointer, Clang's saved frame pointer there).
    var walksFramePointers: Bool { self != .arm }

    /// Return addresses with the bits pointer authentication signs them with cleared (AArch64 keeps 48 address bits
    /// in user space); unchanged on x86-64.
    func strippingAuthentication(_ address: UInt64) -> UInt64 {
        switch self {
        case .x86_64, .x86, .arm: address
        case .arm64: address & 0x0000_ffff_ffff_ffff
        }
    }

    /// The DWARF number of each 8-byte slot of `pr_reg` in `NT_PRSTATUS` (`nil` for slots no CFI names): x86-64's
    /// `user_regs_struct`, AArch64's `user_pt_regs` (x0–x30, sp, pc, pstate).
    var prstatusRegisters: [UInt16?] {
        switch self {
        case .x86_64:
            // r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs
            [15, 14, 13, 12, 6, 3, 11, 10, 9, 8, 0, 2, 1, 4, 5, nil, 16, nil, nil, 7, nil, nil, nil, nil, nil, nil, nil]
        case .arm64:
            (0...32).map { UInt16($0) } + [nil]
        case .x86, .arm:
            []
        }
    }

    /// The register's name, as `readelf -wF` and gdb print it.
    package func name(of register: UInt16) -> String {
        switch self {
        case .x86_64:
            let names = [
                "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14",
                "r15", "rip"
            ]
            return Int(register) < names.count ? names[Int(register)] : "r\(register)"
        case .x86:
            let names = ["eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "eip"]
            return Int(register) < names.count ? names[Int(register)] : "r\(register)"
        case .arm:
            // As minidump-stackwalk names them (r11 the frame pointer, r12 the intra-procedure scratch register).
            let names = [11: "fp", 12: "ip", 13: "sp", 14: "lr", 15: "pc"]
            return names[Int(register)] ?? "r\(register)"
        case .arm64:
            switch register {
            case 29: return "x29"
            case 30: return "x30"
            case 31: return "sp"
            case 32: return "pc"
            default: return "x\(register)"
            }
        }
    }
}
