/// Where one image lies inside its file: a slice of a universal (fat) file, or the whole file.
public struct FileSlice: Hashable, Sendable {
    /// Where the slice starts in the file.
    public var offset: UInt64
    /// How many bytes it takes.
    public var size: UInt64

    /// The slice of `size` bytes at `offset`.
    public init(offset: UInt64, size: UInt64) {
        self.offset = offset
        self.size = size
    }
}
