import PostmortemCore
/// A loadable segment: `PT_LOAD` in ELF, `LC_SEGMENT_64`/`LC_SEGMENT` in Mach-O.
public struct Segment: Hashable, Sendable {
    /// The segment's name (`__TEXT`) in Mach-O; `nil` in ELF.
    public var name: String?
    public var virtualAddress: FileAddress
    public var memorySize: UInt64
    public var fileOffset: UInt64
    public var fileSize: UInt64
    public var isExecutable: Bool
    public var isWritable: Bool
    /// `p_align`, the page size the segment is aligned to.
    public var alignment: UInt64

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
