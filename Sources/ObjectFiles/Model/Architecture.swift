/// The machine an object file's code is for.
public enum Architecture: Hashable, Sendable {
    case x86_64
    case i386
    case arm64
    case arm
    case riscv64
    case ppc64le
    case s390x
    /// An ELF `e_machine` value this tool has no name for.
    case otherELF(machine: UInt16)

    /// The name `uname -m`, atos and llvm use.
    public var name: String {
        switch self {
        case .x86_64: "x86_64"
        case .i386: "i386"
        case .arm64: "arm64"
        case .arm: "arm"
        case .riscv64: "riscv64"
        case .ppc64le: "ppc64le"
        case .s390x: "s390x"
        case .otherELF(let machine): "elf-machine-\(machine)"
        }
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
    public var description: String { name }
}
