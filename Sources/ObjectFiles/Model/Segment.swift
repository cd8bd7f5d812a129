import PostmortemCore
/// A loadable segment: `PT_LOAD` in ELF, `LC_SEGMENT_64`/`LC_SEGMENT` in Mach-O.
public struct Segment: Hashable, Sendable {
    /// The segment's name (`__TEXT`) in Mach-O; `nil` in ELF.
    public var name: String?
    /// Where the segment lies in memory, before any load bias.
    public var virtualAddress: FileAddress
    /// How many bytes it takes in memory.
    public var memorySize: UInt64
    /// Where its bytes start in the file.
    public var fileOffset: UInt64
    /// How many of its bytes the file holds (the rest is zeros, as `.bss`).
    public var fileSize: UInt64
    /// Mapped executable.
    public var isExecutable: Bool
    /// Mapped writable.
    public var isWritable: Bool
    /// `p_align`, the page size the segment is aligned to.
    public var alignment: UInt64

    /// A segment as its header describes it.
    public init(name: String? = nil, virtualAddress: FileAddress, memorySize: UInt64, fileOffset: UInt64, fileSize: UInt64,
                isExecutable: Bool, isWritable: Bool, alignment: UInt64) {
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
