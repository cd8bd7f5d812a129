import ObjectFiles

/// The memory a core holds (its `PT_LOAD` segments), read in place from the mapped file.
package struct CoreMemory: MemoryReader, Sendable {
    /// One segment: the process's addresses it covers and where its bytes are in the core.
    struct Segment: Hashable, Sendable {
        var address: UInt64
        var size: UInt64
        var fileOffset: UInt64
        /// How many of its bytes the core holds (the rest was not dumped: file-backed code, say).
        var fileSize: UInt64
        var isExecutable: Bool
    }

    private let bytes: ImmutableBytes
    /// By address.
    let segments: [Segment]

    init(bytes: ImmutableBytes, segments: [Segment]) {
        self.bytes = bytes
        self.segments = segments.sorted { $0.address < $1.address }
    }

    /// The segment that covers `address`.
    func segment(containing address: UInt64) -> Segment? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let segment = segments[low - 1]
        return address - segment.address < segment.size ? segment : nil
    }

    /// The `count` bytes at `address`, when one segment holds them all in the file.
    package func read(_ count: Int, at address: UInt64) -> [UInt8]? {
        guard count > 0 else { return count == 0 ? [] : nil }
        guard let segment = segment(containing: address) else { return nil }
        let offset = address - segment.address
        // Sizes come from the file: compared without adding, so that no sum overflows.
        guard UInt64(count) <= segment.fileSize, offset <= segment.fileSize - UInt64(count) else { return nil }
        let start = Int(segment.fileOffset + offset)
        return bytes.bytes(start..<start + count)
    }

    /// The little-endian word at `address`, when the core holds it.
    package func word(at address: UInt64) -> UInt64? {
        guard let segment = segment(containing: address) else { return nil }
        let offset = address - segment.address
        guard segment.fileSize >= 8, offset <= segment.fileSize - 8 else { return nil }
        return bytes.u64(at: Int(segment.fileOffset + offset))
    }

    /// Whether the segment that covers `address` was executable (`PF_X`); `nil` when none covers it.
    package func isExecutable(_ address: UInt64) -> Bool? {
        segment(containing: address)?.isExecutable
    }
}
