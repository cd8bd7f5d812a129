/// The machine an object file's code is for.
public enum Architecture: Hashable, Sendable {
    case x86_64
    /// x86_64 for Haswell and later (Mach-O subtype 8).
    case x86_64h
    case i386
    case arm64
    /// arm64 with pointer authentication (Apple A12 and later).
    case arm64e
    /// 64-bit registers, 32-bit pointers (watchOS).
    case arm64_32
    case armv7
    case armv7s
    case armv7k
    case arm
    case riscv64
    case ppc64le
    case s390x
    /// An ELF `e_machine` value this tool has no name for.
    case otherELF(machine: UInt16)
    /// A Mach-O CPU type and subtype this tool has no name for.
    case otherMachO(cpuType: Int32, cpuSubtype: Int32)

    /// The name `uname -m`, atos and llvm use.
    public var name: String {
        switch self {
        case .x86_64: "x86_64"
        case .x86_64h: "x86_64h"
        case .i386: "i386"
        case .arm64: "arm64"
        case .arm64e: "arm64e"
        case .arm64_32: "arm64_32"
        case .armv7: "armv7"
        case .armv7s: "armv7s"
        case .armv7k: "armv7k"
        case .arm: "arm"
        case .riscv64: "riscv64"
        case .ppc64le: "ppc64le"
        case .s390x: "s390x"
        case .otherELF(let machine): "elf-machine-\(machine)"
        case .otherMachO(let type, let subtype): "cputype-\(type)-\(subtype)"
        }
    }

    /// The architecture of a Mach-O `cputype`/`cpusubtype` pair.
    public init(machCPUType type: Int32, subtype rawSubtype: Int32) {
        let subtype = rawSubtype & 0x00FF_FFFF // the high byte holds capability bits
        switch (type, subtype) {
        case (0x0100_0007, 8): self = .x86_64h
        case (0x0100_0007, _): self = .x86_64
        case (7, _): self = .i386
        case (0x0100_000C, 2): self = .arm64e
        case (0x0100_000C, _): self = .arm64
        case (0x0200_000C, _): self = .arm64_32
        case (12, 9): self = .armv7
        case (12, 11): self = .armv7s
        case (12, 12): self = .armv7k
        case (12, _): self = .arm
        default: self = .otherMachO(cpuType: type, cpuSubtype: rawSubtype)
        }
    }

    /// Every architecture this tool has a name for, in the order lists of them show them.
    public static let named: [Architecture] = [
        .x86_64, .x86_64h, .i386, .arm64, .arm64e, .arm64_32, .armv7, .armv7s, .armv7k, .arm, .riscv64, .ppc64le, .s390x
    ]

    /// The architecture named `name` as atos and lipo spell it (`arm64`, `x86_64`, `armv7`), or `nil`.
    public init?(name: String) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// The architecture of an ELF `e_machine` value.
    public init(elfMachine machine: UInt16, is64Bit: Bool) {
        switch machine {
        case 62: self = .x86_64
        case 3: self = .i386
        case 183: self = .arm64
        case 40: self = .arm
        case 243: self = is64Bit ? .riscv64 : .otherELF(machine: machine)
        case 21: self = .ppc64le
        case 22: self = .s390x
        default: self = .otherELF(machine: machine)
        }
    }
}

extension Architecture: CustomStringConvertible {
    /// The architecture's name (`arm64`, `x86_64`).
    public var description: String { name }
}
