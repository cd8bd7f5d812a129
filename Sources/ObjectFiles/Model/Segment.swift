/// A loadable segment (`PT_LOAD`) of an ELF file.
public struct Segment: Hashable, Sendable {
    public var virtualAddress: FileAddress
    public var memorySize: UInt64
    public var fileOffset: UInt64
    public var fileSize: UInt64
    public var isExecutable: Bool
    public var isWritable: Bool
    /// `p_align`, the page size the segment is aligned to.
    public var alignment: UInt64

    public init(virtualAddress: FileAddress, memorySize: UInt64, fileOffset: UInt64, fileSize: UInt64,
                isExecutable: Bool, isWritable: Bool, alignment: UInt64) {
        self.virtualAddress = virtualAddress
        self.memorySize = memorySize
        self.fileOffset = fileOffset
        self.fileSize = fileSize
        self.isExecutable = isExecutable
        self.isWritable = isWritable
        self.alignment = alignment
    }
}
