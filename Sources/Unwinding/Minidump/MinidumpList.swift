/// The entries of a minidump list stream (a 32-bit count, then fixed-size entries; some writers pad the count to
/// 8 bytes), and what is wrong with it when its count and size disagree.
struct MinidumpList {
    /// The offset of each entry that lies inside the stream.
    var entryOffsets: [Int]
    /// Why fewer entries than the count claims are read.
    var problem: String?

    /// The list of `entrySize`-byte entries in `stream` (at `location`).
    init(_ bytes: MinidumpBytes, location: MinidumpLocation, entrySize: Int, type: MinidumpStreamType) {
        let size = Int(location.size)
        let start = Int(location.rva)
        guard size >= 4, let claimed = bytes.u32(start) else {
            entryOffsets = []
            problem = "the \(type.name) stream (\(size) bytes) is too short to hold its count"
            return
        }
        let count = Int(claimed)
        let header = size == 8 + count * entrySize ? 8 : 4
        let fitting = (size - header) / entrySize
        entryOffsets = (0..<min(count, fitting)).map { start + header + $0 * entrySize }
        problem =
            fitting < count
            ? "the \(type.name) stream claims \(count) entries, but its \(size) bytes hold \(fitting); the rest are not read"
            : nil
    }

    /// The entries of a list with its own header size and entry size (MemoryInfoList, ThreadInfoList, UnloadedModuleList:
    /// header size, entry size, count), each entry at least `minimumEntrySize` bytes.
    init(
        sizedHeader bytes: MinidumpBytes, location: MinidumpLocation, minimumEntrySize: Int, countIs64Bit: Bool,
        type: MinidumpStreamType
    ) {
        let start = Int(location.rva)
        let size = Int(location.size)
        guard size >= 12, let headerSize = bytes.u32(start), let entrySize = bytes.u32(start + 4),
            let count = countIs64Bit ? bytes.u64(start + 8) : bytes.u32(start + 8).map(UInt64.init)
        else {
            entryOffsets = []
            problem = "the \(type.name) stream (\(size) bytes) is too short to hold its header"
            return
        }
        guard Int(entrySize) >= minimumEntrySize, Int(headerSize) >= 12, Int(headerSize) <= size else {
            entryOffsets = []
            problem =
                "the \(type.name) stream's header (\(headerSize) bytes) or entries (\(entrySize) bytes) have sizes it cannot have"
            return
        }
        let fitting = (size - Int(headerSize)) / Int(entrySize)
        let read = Int(min(count, UInt64(fitting)))
        entryOffsets = (0..<read).map { start + Int(headerSize) + $0 * Int(entrySize) }
        problem =
            UInt64(fitting) < count
            ? "the \(type.name) stream claims \(count) entries, but its \(size) bytes hold \(fitting); the rest are not read"
            : nil
    }
}
