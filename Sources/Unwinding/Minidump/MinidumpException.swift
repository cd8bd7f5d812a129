/// What ended the process, as the Exception stream records it. On Linux and Android, Breakpad and Crashpad store the
/// signal as the exception code, its `si_code` as the flags and `si_addr` as the address.
package struct MinidumpException: Hashable, Sendable {
    /// The thread that took it.
    package var threadID: UInt32
    /// The exception code (the signal number on Linux).
    package var code: UInt32
    /// The flags (`si_code` on Linux).
    package var flags: UInt32
    /// The address that faulted (or where the exception was raised).
    package var address: UInt64
    /// The exception's parameters (an access violation's first says read, write or execute).
    package var parameters: [UInt64]
    /// The crashing thread's registers at the fault, when its context could be read.
    package var registers: RegisterSet?

    /// The signal of a Linux or Android dump, with its code and fault address.
    package var signal: CoreSignal {
        let number = Int32(truncatingIfNeeded: code)
        let code = Int32(bitPattern: flags)
        return CoreSignal(
            number: number, code: code,
            faultAddress: CoreSignal.faultSignals.contains(number) && code > 0 ? address : nil)
    }

    /// The address the crash is about, as minidump-stackwalk reports it: for a Windows access violation or in-page
    /// error, the address accessed (the second parameter), not the instruction's; else ``address``.
    package func crashAddress(platform: MinidumpSystemInfo.Platform?) -> UInt64 {
        if platform == .windows, code == 0xC000_0005 || code == 0xC000_0006, parameters.count >= 2 {
            return parameters[1]
        }
        return address
    }

    /// The reason as minidump-stackwalk words it: `SIGSEGV / SEGV_MAPERR` on Linux, `EXC_BAD_ACCESS /
    /// KERN_INVALID_ADDRESS` on macOS, `EXCEPTION_ACCESS_VIOLATION_READ` on Windows.
    package func reason(platform: MinidumpSystemInfo.Platform?) -> String {
        switch platform {
        case .linux, .android, nil:
            let signal = signal
            guard signal.name.hasPrefix("SIG") else { return Self.hex(code) }
            // A signal another process sent (SI_USER) has no code worth naming.
            if flags == 0 { return signal.name }
            let codeName = signal.codeDescription.map { String($0.prefix { $0 != ":" }) } ?? Self.hex(flags)
            return signal.name + " / " + codeName
        case .macOS, .iOS:
            guard let name = Self.machExceptions[code] else { return "unknown \(Self.hex(code)) / \(Self.hex(flags))" }
            if code == 1, let kind = Self.badAccessKinds[flags] { return name + " / " + kind }
            return name + " / " + Self.hex(flags)
        case .windows:
            guard let name = Self.windowsReasons[code] else { return Self.hex(code) }
            // The first parameter of an access violation says whether it read, wrote or executed.
            guard code == 0xc000_0005, let kind = parameters.first else { return name }
            return name + ([0: "_READ", 1: "_WRITE", 8: "_EXEC"][kind] ?? "")
        default:
            return Self.hex(code)
        }
    }

    /// `0x` and 8 hex digits, as minidump-stackwalk writes codes it has no name for.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    private static let windowsReasons: [UInt32: String] = [
        0xc000_0005: "EXCEPTION_ACCESS_VIOLATION", 0xc000_001d: "EXCEPTION_ILLEGAL_INSTRUCTION",
        0xc000_0094: "EXCEPTION_INT_DIVIDE_BY_ZERO", 0xc000_00fd: "EXCEPTION_STACK_OVERFLOW",
        0x8000_0003: "EXCEPTION_BREAKPOINT",
        0xc000_0409: "EXCEPTION_STACK_BUFFER_OVERRUN", 0xc000_0374: "EXCEPTION_HEAP_CORRUPTION",
        0xe06d_7363: "Unhandled C++ Exception",
        0xc000_000d: "STATUS_INVALID_PARAMETER", 0xc000_0006: "EXCEPTION_IN_PAGE_ERROR",
        0x8000_0002: "EXCEPTION_DATATYPE_MISALIGNMENT",
        0xc000_008e: "EXCEPTION_FLT_DIVIDE_BY_ZERO", 0xc000_0096: "EXCEPTION_PRIV_INSTRUCTION",
        0xc000_0602: "STATUS_FAIL_FAST_EXCEPTION"
    ]

    private static let machExceptions: [UInt32: String] = [
        1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION", 5: "EXC_SOFTWARE",
        6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT", 10: "EXC_CRASH",
        11: "EXC_RESOURCE",
        12: "EXC_GUARD"
    ]

    private static let badAccessKinds: [UInt32: String] = [
        1: "KERN_INVALID_ADDRESS", 2: "KERN_PROTECTION_FAILURE", 8: "KERN_NO_ACCESS", 9: "KERN_MEMORY_FAILURE",
        10: "KERN_MEMORY_ERROR", 13: "EXC_I386_GPFLT"
    ]

    /// The stream: thread id, alignment, `MINIDUMP_EXCEPTION` (code, flags, record, address, parameter count, 15
    /// parameters), then the context's location.
    static func read(
        in bytes: MinidumpBytes, location: MinidumpLocation, architecture: UnwindArchitecture?,
        warnings: inout [String]
    ) -> MinidumpException? {
        let start = Int(location.rva)
        guard location.size >= 168, let threadID = bytes.u32(start), let code = bytes.u32(start + 8),
            let flags = bytes.u32(start + 12),
            let address = bytes.u64(start + 24), let context = bytes.location(at: start + 160)
        else {
            warnings.append(
                "the Exception stream (\(location.size) bytes) is too short; the crash's reason is not known")
            return nil
        }
        let count = min(Int(bytes.u32(start + 32) ?? 0), 15)
        let parameters = (0..<count).compactMap { bytes.u64(start + 40 + $0 * 8) }
        var exception = MinidumpException(
            threadID: threadID, code: code, flags: flags, address: address, parameters: parameters,
            registers: nil)
        switch MinidumpThread.registers(in: bytes, context: context, architecture: architecture) {
        case .success(let registers): exception.registers = registers
        case .failure(let problem): warnings.append("the Exception stream's context: \(problem)")
        }
        return exception
    }
}
