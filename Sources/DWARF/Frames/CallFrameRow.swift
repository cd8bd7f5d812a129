import PostmortemCore

/// How to find the caller's registers at one address of a function: one row of its call-frame information (CFI), as
/// `readelf -wF` prints rows. Registers are DWARF register numbers of the file's architecture.
package struct CallFrameRow: Hashable, Sendable {
    /// How the canonical frame address (CFA: the stack pointer at the call site, by convention) is computed.
    package enum CanonicalFrameAddress: Hashable, Sendable {
        /// A register's value plus an offset (`rsp+8`).
        case register(UInt16, offset: Int64)
        /// The value of a DWARF expression (PLT entries, signal trampolines).
        case expression([UInt8])
    }

    /// Where the caller's value of one register is.
    package enum Rule: Hashable, Sendable {
        /// The caller's value is lost: for the return address register, the stack ends here.
        case undefined
        /// The register was not changed (callee-saved registers the function leaves alone).
        case sameValue
        /// Saved in memory at CFA + offset.
        case savedAt(cfaOffset: Int64)
        /// The value is CFA + offset itself.
        case isCFA(offset: Int64)
        /// Held in another register.
        case inRegister(UInt16)
        /// Saved in memory at the address a DWARF expression computes (the CFA pushed first).
        case savedAtExpression([UInt8])
        /// The value a DWARF expression computes (the CFA pushed first).
        case isExpression([UInt8])
    }

    /// The first address this row holds for.
    package var start: FileAddress
    /// The function (FDE) the row belongs to: its first address and the address after its last.
    package var function: Range<FileAddress>
    /// How the CFA is computed.
    package var canonicalFrameAddress: CanonicalFrameAddress
    /// The rules of registers that are not ``Rule/sameValue``, by DWARF register number.
    package var rules: [UInt16: Rule]
    /// The register holding the return address (the CIE's return-address column: 16 on x86-64, 30 on AArch64).
    package var returnAddressRegister: UInt16
    /// True for a signal trampoline's frame (the CIE's `S` augmentation): the caller's program counter is the
    /// interrupted instruction itself, not a return address.
    package var isSignalFrame: Bool
    /// Which section the row came from: `.eh_frame` or `.debug_frame`.
    package var section: String

    /// A row as read from a frame section.
    package init(
        start: FileAddress, function: Range<FileAddress>, canonicalFrameAddress: CanonicalFrameAddress,
        rules: [UInt16: Rule], returnAddressRegister: UInt16, isSignalFrame: Bool, section: String
    ) {
        self.start = start
        self.function = function
        self.canonicalFrameAddress = canonicalFrameAddress
        self.rules = rules
        self.returnAddressRegister = returnAddressRegister
        self.isSignalFrame = isSignalFrame
        self.section = section
    }

    /// The rule of `register`: ``Rule/sameValue`` when the row names none.
    package func rule(of register: UInt16) -> Rule {
        rules[register] ?? .sameValue
    }
}
