/// What ended the process, as the Exception stream records it. On Linux and Android, Breakpad and Crashpad store the
/// signal as the exception code, its `si_code` as the flags and `si_addr` as the address.
public struct MinidumpException: Hashable, Sendable {
    /// The thread that took it.
    public var threadID: UInt32
    /// The exception code (the signal number on Linux).
    public var code: UInt32
    /// The flags (`si_code` on Linux).
    public var flags: UInt32
    /// The address that faulted (or where the exception was raised).
    public var address: UInt64
    /// The exception's parameters (an access violation's first says read, write or execute).
    public var parameters: [UInt64]
    /// The crashing thread's registers at the fault, when its context could be read.
    public var registers: RegisterSet?

    /// The signal of a Linux or Android dump, with its code and fault address.
    public var signal: CoreSignal {
        let number = Int32(truncatingIfNeeded: code)
        let code = Int32(bitPattern: flags)
        return CoreSignal(number: number, code: code,
                          faultAddress: CoreSignal.faultSignals.contains(number) && code > 0 ? address : nil)
    }

    /// The reason as minidump-stackwalk words it: `SIGSEGV / SEGV_MAPERR` on Linux, `EXCEPTION_ACCESS_VIOLATION_READ`
    /// on Windows, the code in hex otherwise.
    public func reason(platform: MinidumpSystemInfo.Platform?) -> String {
        switch platform {
        case .linux, .android, nil:
            let signal = signal
            guard signal.name.hasPrefix("SIG") else { return "0x" + String(code, radix: 16) }
            let codeName = signal.codeDescription.map { String($0.prefix { $0 != ":" }) }
            return signal.name + (codeName.map { " / " + $0 } ?? "")
        case .windows:
            guard let name = Self.windowsReasons[code] else { return "0x" + String(code, radix: 16) }
            // The first parameter of an access violation says whether it read, wrote or executed.
            guard code == 0xc000_0005, let kind = parameters.first else { return name }
            return name + ([0: "_READ", 1: "_WRITE", 8: "_EXEC"][kind] ?? "")
        default:
            return "0x" + String(code, radix: 16)
        }
    }

    private static let windowsReasons: [UInt32: String] = [
        0xc000_0005: "EXCEPTION_ACCESS_VIOLATION", 0xc000_001d: "EXCEPTION_ILLEGAL_INSTRUCTION",
        0xc000_0094: "EXCEPTION_INT_DIVIDE_BY_ZERO", 0xc000_00fd: "EXCEPTION_STACK_OVERFLOW", 0x8000_0003: "EXCEPTION_BREAKPOINT",
        0xc000_0409: "EXCEPTION_STACK_BUFFER_OVERRUN", 0xc000_0374: "EXCEPTION_HEAP_CORRUPTION", 0xe06d_7363: "EXCEPTION_CPP_EXCEPTION",
    ]

    /// The stream: thread id, alignment, `MINIDUMP_EXCEPTION` (code, flags, record, address, parameter count, 15
    /// parameters), then the context's location.
    static func read(in bytes: MinidumpBytes, location: MinidumpLocation, architecture: UnwindArchitecture?,
                     warnings: inout [String]) -> MinidumpException? {
        let start = Int(location.rva)
        guard location.size >= 168, let threadID = bytes.u32(start), let code = bytes.u32(start + 8), let flags = bytes.u32(start + 12),
              let address = bytes.u64(start + 24), let context = bytes.location(at: start + 160) else {
            warnings.append("the Exception stream (\(location.size) bytes) is too short; the crash's reason is not known")
            return nil
        }
        let count = min(Int(bytes.u32(start + 32) ?? 0), 15)
        let parameters = (0..<count).compactMap { bytes.u64(start + 40 + $0 * 8) }
        var exception = MinidumpException(threadID: threadID, code: code, flags: flags, address: address, parameters: parameters,
                                          registers: nil)
        switch MinidumpThread.registers(in: bytes, context: context, architecture: architecture) {
        case .success(let registers): exception.registers = registers
        case .failure(let problem): warnings.append("the Exception stream's context: \(problem)")
        }
        return exception
    }
}
