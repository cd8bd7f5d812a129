/// Where one image lies inside its file: a slice of a universal (fat) file, or the whole file.
public struct FileSlice: Hashable, Sendable {
    public var offset: UInt64
    public var size: UInt64

    public init(offset: UInt64, size: UInt64) {
        self.offset = offset
        self.size = size
    }
}
