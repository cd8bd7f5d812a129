import PostmortemCore

/// One section of an object file, as its header describes it.
package struct Section: Hashable, Sendable {
    /// The section's name (`.text`; `__TEXT,__text` in Mach-O).
    package var name: String
    /// Where the section lies in memory; 0 for sections that are not loaded.
    package var address: FileAddress
    /// How many bytes the section takes in memory.
    package var size: UInt64
    /// Where its bytes start in the file (meaningless when ``occupiesFile`` is false).
    package var fileOffset: UInt64
    /// Loaded into memory at run time (`SHF_ALLOC`).
    package var isAllocated: Bool
    /// Holds code (`SHF_EXECINSTR`, or a Mach-O section of instructions).
    package var isExecutable: Bool
    /// Writable at run time (`SHF_WRITE`).
    package var isWritable: Bool
    /// Compressed with `SHF_COMPRESSED` (zlib, as `-gz` writes it) or named `.zdebug_*`.
    package var isCompressed: Bool
    /// False for `SHT_NOBITS` (`.bss`, and every section a debug file keeps only as a header).
    package var occupiesFile: Bool

    /// A section as its header describes it.
    package init(
        name: String, address: FileAddress, size: UInt64, fileOffset: UInt64, isAllocated: Bool,
        isExecutable: Bool, isWritable: Bool, isCompressed: Bool, occupiesFile: Bool
    ) {
        self.name = name
        self.address = address
        self.size = size
        self.fileOffset = fileOffset
        self.isAllocated = isAllocated
        self.isExecutable = isExecutable
        self.isWritable = isWritable
        self.isCompressed = isCompressed
        self.occupiesFile = occupiesFile
    }

    /// The addresses the section occupies in memory; empty when it is not loaded.
    package var addressRange: AddressRange {
        isAllocated
            ? AddressRange(address, address.advanced(by: size) ?? FileAddress(.max)) : AddressRange(address, address)
    }
}
