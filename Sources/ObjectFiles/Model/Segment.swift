import PostmortemCore

/// A loadable segment: `PT_LOAD` in ELF, `LC_SEGMENT_64`/`LC_SEGMENT` in Mach-O.
package struct Segment: Hashable, Sendable {
    /// The segment's name (`__TEXT`) in Mach-O; `nil` in ELF.
    package var name: String?
    /// Where the segment lies in memory, before any load bias.
    package var virtualAddress: FileAddress
    /// How many bytes it takes in memory.
    package var memorySize: UInt64
    /// Where its bytes start in the file.
    package var fileOffset: UInt64
    /// How many of its bytes the file holds (the rest is zeros, as `.bss`).
    package var fileSize: UInt64
    /// Mapped executable.
    package var isExecutable: Bool
    /// Mapped writable.
    package var isWritable: Bool
    /// `p_align`, the page size the segment is aligned to.
    package var alignment: UInt64

    /// A segment as its header describes it.
    package init(
        name: String? = nil, virtualAddress: FileAddress, memorySize: UInt64, fileOffset: UInt64, fileSize: UInt64,
        isExecutable: Bool, isWritable: Bool, alignment: UInt64
    ) {
        self.name = name
        self.virtualAddress = virtualAddress
        self.memorySize = memorySize
        self.fileOffset = fileOffset
        self.fileSize = fileSize
        self.isExecutable = isExecutable
        self.isWritable = isWritable
        self.alignment = alignment
    }
}
