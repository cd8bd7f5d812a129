/// One thread of a core: its id, the signal it had pending, and its registers when the core was written
/// (`NT_PRSTATUS`).
package struct CoreThread: Hashable, Sendable {
    /// The thread's id (its `pr_pid`: the kernel's tid).
    package var id: Int32
    /// The signal the thread was handling (`pr_cursig`), 0 for none.
    package var signal: Int32
    /// The general registers, by DWARF register number.
    package var registers: RegisterSet

    /// Where `pr_reg` starts in `struct elf_prstatus` on the 64-bit Linux ABIs: after the siginfo head, the signal
    /// sets, four ids and four `timeval`s.
    static let registersOffset = 112

    /// A thread read from an `NT_PRSTATUS` note's descriptor; `nil` when it is too short for `architecture`'s registers.
    init?(prstatus bytes: [UInt8], architecture: UnwindArchitecture) {
        let layout = architecture.prstatusRegisters
        guard bytes.count >= Self.registersOffset + layout.count * 8 else { return nil }
        signal = Int32(truncatingIfNeeded: UInt16(CoreFile.word32(bytes, at: 12) & 0xffff))
        id = Int32(bitPattern: CoreFile.word32(bytes, at: 32))
        var registers = RegisterSet(architecture: architecture)
        for (slot, register) in layout.enumerated() {
            guard let register else { continue }
            registers[register] = CoreFile.word(bytes, at: Self.registersOffset + slot * 8)
        }
        self.registers = registers
    }
}

/// The program and its command line as the core names them (`NT_PRPSINFO`).
package struct CoreProcessInfo: Hashable, Sendable {
    /// The program's name, at most 15 bytes (`pr_fname`).
    package var name: String
    /// The first 80 bytes of its command line (`pr_psargs`).
    package var arguments: String
    /// The process id.
    package var processID: Int32

    init?(prpsinfo bytes: [UInt8]) {
        // struct elf_prpsinfo on 64-bit Linux: state bytes, flags, uid, gid, then pid, ppid, pgrp, sid; fname at 40.
        guard bytes.count >= 136 else { return nil }
        processID = Int32(bitPattern: CoreFile.word32(bytes, at: 24))
        name = Self.text(bytes[40..<56])
        arguments = Self.text(bytes[56..<136]).trimmingTrailingBlanks()
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

private extension String {
    func trimmingTrailingBlanks() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
