/// The signal that ended a process, as the core's `NT_SIGINFO` gives it.
package struct CoreSignal: Hashable, Sendable {
    /// The signal number (`si_signo`).
    package var number: Int32
    /// Why it was raised (`si_code`): `SEGV_MAPERR`, `BUS_ADRALN`, `SI_USER`, …
    package var code: Int32?
    /// The address that faulted, for the signals that have one (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP).
    package var faultAddress: UInt64?

    /// A signal of `number`, with its code and fault address when known.
    package init(number: Int32, code: Int32?, faultAddress: UInt64?) {
        self.number = number
        self.code = code
        self.faultAddress = faultAddress
    }

    init?(siginfo bytes: [UInt8]) {
        guard bytes.count >= 24 else { return nil }
        number = Int32(bitPattern: CoreFile.word32(bytes, at: 0))
        code = Int32(bitPattern: CoreFile.word32(bytes, at: 8))
        // si_addr lies after signo, errno, code and the union's padding; only the fault signals fill it, and only
        // when the kernel raised them (a positive code).
        faultAddress = Self.faultSignals.contains(number) && (code ?? 0) > 0 ? CoreFile.word(bytes, at: 16) : nil
    }

    static let faultSignals: Set<Int32> = [4, 5, 7, 8, 11]

    /// The signal's name (`SIGSEGV`), or its number.
    package var name: String {
        Self.names[number].map { "SIG" + $0 } ?? "signal \(number)"
    }

    /// The code's name and meaning (`SEGV_MAPERR: address not mapped to object`), when the code is one the kernel
    /// sets for this signal or one any signal can carry.
    package var codeDescription: String? {
        guard let code else { return nil }
        if let known = Self.codes[number]?[code] { return known }
        return Self.senderCodes[code]
    }

    private static let names: [Int32: String] = [
        1: "HUP", 2: "INT", 3: "QUIT", 4: "ILL", 5: "TRAP", 6: "ABRT", 7: "BUS", 8: "FPE", 9: "KILL", 10: "USR1",
        11: "SEGV", 12: "USR2", 13: "PIPE", 14: "ALRM", 15: "TERM", 16: "STKFLT", 17: "CHLD", 18: "CONT", 19: "STOP",
        20: "TSTP", 21: "TTIN", 22: "TTOU", 23: "URG", 24: "XCPU", 25: "XFSZ", 26: "VTALRM", 27: "PROF", 28: "WINCH",
        29: "IO", 30: "PWR", 31: "SYS"
    ]

    private static let codes: [Int32: [Int32: String]] = [
        11: [
            1: "SEGV_MAPERR: address not mapped to object", 2: "SEGV_ACCERR: invalid permissions for mapped object",
            3: "SEGV_BNDERR: failed address bound checks", 4: "SEGV_PKUERR: failed protection key checks",
            5: "SEGV_ACCADI", 6: "SEGV_ADIDERR", 7: "SEGV_ADIPERR", 8: "SEGV_MTEAERR", 9: "SEGV_MTESERR",
            10: "SEGV_CPERR"
        ],
        7: [
            1: "BUS_ADRALN: invalid address alignment", 2: "BUS_ADRERR: nonexistent physical address",
            3: "BUS_OBJERR: object-specific hardware error", 4: "BUS_MCEERR_AR", 5: "BUS_MCEERR_AO"
        ],
        4: [
            1: "ILL_ILLOPC: illegal opcode", 2: "ILL_ILLOPN: illegal operand", 3: "ILL_ILLADR: illegal addressing mode",
            4: "ILL_ILLTRP: illegal trap", 5: "ILL_PRVOPC: privileged opcode", 6: "ILL_PRVREG: privileged register",
            7: "ILL_COPROC: coprocessor error", 8: "ILL_BADSTK: internal stack error"
        ],
        8: [
            1: "FPE_INTDIV: integer divide by zero", 2: "FPE_INTOVF: integer overflow",
            3: "FPE_FLTDIV: floating-point divide by zero",
            4: "FPE_FLTOVF: floating-point overflow", 5: "FPE_FLTUND: floating-point underflow",
            6: "FPE_FLTRES: floating-point inexact result",
            7: "FPE_FLTINV: invalid floating-point operation", 8: "FPE_FLTSUB: subscript out of range"
        ],
        5: [1: "TRAP_BRKPT: breakpoint", 2: "TRAP_TRACE: trace trap", 3: "TRAP_BRANCH", 4: "TRAP_HWBKPT"]
    ]

    private static let senderCodes: [Int32: String] = [
        0: "SI_USER: sent by kill()", 0x80: "SI_KERNEL: sent by the kernel", -1: "SI_QUEUE: sent by sigqueue()",
        -2: "SI_TIMER", -3: "SI_MESGQ", -4: "SI_ASYNCIO", -5: "SI_SIGIO", -6: "SI_TKILL: sent by tkill() (raise, abort)"
    ]
}
