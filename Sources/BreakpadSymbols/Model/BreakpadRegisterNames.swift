import ObjectFiles

/// The names Breakpad's `STACK CFI` records give DWARF register numbers, per architecture (Breakpad's and Mozilla
/// dump_syms' tables): `$rsp` on x86-64, `sp` on AArch64.
enum BreakpadRegisterNames {
    private static let x86_64 = [
        "$rax", "$rdx", "$rcx", "$rbx", "$rsi", "$rdi", "$rbp", "$rsp", "$r8", "$r9", "$r10", "$r11",
        "$r12", "$r13", "$r14", "$r15", "$rip", "$xmm0", "$xmm1", "$xmm2", "$xmm3", "$xmm4", "$xmm5",
        "$xmm6", "$xmm7", "$xmm8", "$xmm9", "$xmm10", "$xmm11", "$xmm12", "$xmm13", "$xmm14", "$xmm15",
        "$st0", "$st1", "$st2", "$st3", "$st4", "$st5", "$st6", "$st7", "$mm0", "$mm1", "$mm2", "$mm3",
        "$mm4", "$mm5", "$mm6", "$mm7", "$rflags", "$es", "$cs", "$ss", "$ds", "$fs", "$gs",
        "$unused1", "$unused2", "$fs.base", "$gs.base", "$unused3", "$unused4", "$tr", "$ldtr",
        "$mxcsr", "$fcw", "$fsw"
    ]

    private static let i386 = [
        "$eax", "$ecx", "$edx", "$ebx", "$esp", "$ebp", "$esi", "$edi", "$eip", "$eflags", "$unused1",
        "$st0", "$st1", "$st2", "$st3", "$st4", "$st5", "$st6", "$st7", "$unused2", "$unused3",
        "$xmm0", "$xmm1", "$xmm2", "$xmm3", "$xmm4", "$xmm5", "$xmm6", "$xmm7", "$mm0", "$mm1", "$mm2",
        "$mm3", "$mm4", "$mm5", "$mm6", "$mm7", "$fcw", "$fsw", "$mxcsr", "$es", "$cs", "$ss", "$ds",
        "$fs", "$gs", "$unused4", "$unused5", "$tr", "$ldtr"
    ]

    private static let arm64: [String] =
        (0...30).map { "x\($0)" } + ["sp"] + Array(repeating: "", count: 32) + (0...31).map { "v\($0)" }

    private static let arm: [String] =
        (0...12).map { "r\($0)" } + ["sp", "lr", "pc"] + (0...7).map { "f\($0)" } + ["fps", "cpsr"]
        + Array(repeating: "", count: 38) + (0...31).map { "s\($0)" } + (0...7).map { "f\($0)" }

    /// The names of `architecture`'s registers by DWARF number; `nil` for an architecture Breakpad names none of.
    private static func table(of architecture: Architecture) -> [String]? {
        switch architecture {
        case .x86_64, .x86_64h: x86_64
        case .i386: i386
        case .arm64, .arm64e, .arm64_32: arm64
        case .arm, .armv7, .armv7s, .armv7k: arm
        default: nil
        }
    }

    /// The name of DWARF register `number` on `architecture`; `nil` when Breakpad has none for it.
    static func name(_ number: UInt16, on architecture: Architecture) -> String? {
        guard let table = table(of: architecture), Int(number) < table.count, !table[Int(number)].isEmpty else {
            return nil
        }
        return table[Int(number)]
    }

    /// Whether the return address is in a register on `architecture` (a link register), so that a function's first
    /// row names it even when its CFI does not.
    static func returnsThroughRegister(_ architecture: Architecture) -> Bool {
        switch architecture {
        case .arm64, .arm64e, .arm64_32, .arm, .armv7, .armv7s, .armv7k: true
        default: false
        }
    }

    /// Breakpad's name for `architecture` on a `MODULE` line.
    static func moduleArchitecture(_ architecture: Architecture) -> String {
        switch architecture {
        case .i386: "x86"
        case .armv7, .armv7s, .armv7k: "arm"
        default: architecture.name
        }
    }

    /// The architecture a `MODULE` line names; `nil` for one whose registers this table does not name.
    static func architecture(ofModule name: String) -> Architecture? {
        switch name {
        case "x86_64": .x86_64
        case "x86": .i386
        case "arm64": .arm64
        case "arm": .arm
        default: nil
        }
    }

    /// The DWARF number of the register Breakpad calls `name` on `architecture` (with or without its `$`, as files
    /// written by other tools spell AArch64's); `nil` for no register of it.
    static func number(of name: String, on architecture: Architecture) -> UInt16? {
        guard let table = table(of: architecture) else { return nil }
        let bare = name.hasPrefix("$") ? String(name.dropFirst()) : name
        guard !bare.isEmpty, let index = table.firstIndex(where: { $0 == name || $0 == bare || $0 == "$" + bare })
        else { return nil }
        return UInt16(index)
    }

    /// The DWARF column of the return address (`.ra`) on `architecture`: `rip` (16) on x86-64, `eip` (8) on x86, the
    /// link register on ARM (`x30`, `lr`).
    static func returnAddressRegister(_ architecture: Architecture) -> UInt16? {
        switch architecture {
        case .x86_64, .x86_64h: 16
        case .i386: 8
        case .arm64, .arm64e, .arm64_32: 30
        case .arm, .armv7, .armv7s, .armv7k: 14
        default: nil
        }
    }
}
