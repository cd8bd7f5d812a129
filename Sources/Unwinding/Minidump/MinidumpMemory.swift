import ObjectFiles

/// The memory a minidump holds (MemoryList, Memory64List and the threads' stacks), read in place from the mapped
/// file, and which addresses were executable when the dump says so (MemoryInfoList, LinuxMaps).
package struct MinidumpMemory: MemoryReader, Sendable {
    private let held: CoreMemory
    /// Executable ranges, by start; `nil` when the dump does not say which memory was executable.
    private let executable: [Range<UInt64>]?

    /// How many bytes of the process's memory the dump holds.
    package var heldBytes: UInt64 { held.segments.reduce(0) { $0 &+ $1.fileSize } }

    /// One piece of memory: the process's addresses and where its bytes lie in the file.
    struct Region {
        var address: UInt64
        var size: UInt64
        var fileOffset: UInt64
        var source: MinidumpStreamType
    }

    /// The memory of `regions` in `bytes`; a region that overlaps one read before it, or lies outside the file, is
    /// left out with a warning naming its stream.
    init(bytes: MinidumpBytes, regions: [Region], executable: [Range<UInt64>]?, warnings: inout [String]) {
        var segments: [CoreMemory.Segment] = []
        var outside: [MinidumpStreamType: Int] = [:]
        var overlapping: [MinidumpStreamType: Int] = [:]
        var lastEnd: UInt64 = 0
        for region in regions.sorted(by: { $0.address < $1.address }) where region.size > 0 {
            guard bytes.holds(region.size, at: region.fileOffset), region.address <= UInt64.max - region.size else {
                outside[region.source, default: 0] += 1
                continue
            }
            if !segments.isEmpty, region.address < lastEnd {
                // The same bytes listed twice (a thread's stack that MemoryList also holds) are no conflict.
                if let previous = segments.last, previous.address == region.address, previous.size == region.size {
                    continue
                }
                overlapping[region.source, default: 0] += 1
                continue
            }
            segments.append(
                CoreMemory.Segment(
                    address: region.address, size: region.size, fileOffset: region.fileOffset,
                    fileSize: region.size, isExecutable: false))
            lastEnd = region.address + region.size
        }
        for (source, count) in outside.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            warnings.append(
                "\(count) memory ranges of the \(source.name) stream lie outside the file; they are not read")
        }
        for (source, count) in overlapping.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            warnings.append(
                "\(count) memory ranges of the \(source.name) stream overlap others; only the first of each is read")
        }
        held = CoreMemory(bytes: bytes.storage, segments: segments)
        self.executable = executable?.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// The `count` bytes at `address`, when one memory range of the dump holds them all.
    package func read(_ count: Int, at address: UInt64) -> [UInt8]? { held.read(count, at: address) }

    /// The little-endian word at `address`, when the dump holds it.
    package func word(at address: UInt64) -> UInt64? { held.word(at: address) }

    /// Whether `address` was executable, by MemoryInfoList or LinuxMaps; `nil` when the dump has neither.
    package func isExecutable(_ address: UInt64) -> Bool? {
        guard let executable else { return nil }
        var low = 0
        var high = executable.count
        while low < high {
            let middle = (low + high) / 2
            if executable[middle].lowerBound <= address { low = middle + 1 } else { high = middle }
        }
        return low > 0 && executable[low - 1].contains(address)
    }

    /// The regions of a MemoryList stream (start, then a location descriptor).
    static func memoryList(in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String]) -> [Region] {
        let list = MinidumpList(bytes, location: location, entrySize: 16, type: .memoryList)
        if let problem = list.problem { warnings.append(problem) }
        return list.entryOffsets.compactMap { offset in
            guard let start = bytes.u64(offset), let memory = bytes.location(at: offset + 8) else { return nil }
            return Region(
                address: start, size: UInt64(memory.size), fileOffset: UInt64(memory.rva), source: .memoryList)
        }
    }

    /// The regions of a Memory64List stream: a 64-bit count, the RVA where the first range's bytes start, then
    /// (start, size) pairs whose bytes follow each other.
    static func memory64List(in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String]) -> [Region]
    {
        let start = Int(location.rva)
        guard location.size >= 16, let count = bytes.u64(start), var fileOffset = bytes.u64(start + 8) else {
            warnings.append("the Memory64List stream (\(location.size) bytes) is too short to hold its header")
            return []
        }
        let fitting = (UInt64(location.size) - 16) / 16
        if count > fitting {
            warnings.append(
                "the Memory64List stream claims \(count) ranges, but its \(location.size) bytes hold \(fitting); the rest are not read"
            )
        }
        var regions: [Region] = []
        for index in 0..<Int(min(count, fitting)) {
            let entry = start + 16 + index * 16
            guard let address = bytes.u64(entry), let size = bytes.u64(entry + 8) else { break }
            regions.append(Region(address: address, size: size, fileOffset: fileOffset, source: .memory64List))
            let (next, overflow) = fileOffset.addingReportingOverflow(size)
            if overflow { break }
            fileOffset = next
        }
        return regions
    }

    /// The executable ranges of a MemoryInfoList stream (protection `PAGE_EXECUTE*`).
    static func executableRanges(in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String])
        -> [Range<UInt64>]
    {
        let list = MinidumpList(
            sizedHeader: bytes, location: location, minimumEntrySize: 48, countIs64Bit: true, type: .memoryInfoList)
        if let problem = list.problem { warnings.append(problem) }
        return list.entryOffsets.compactMap { offset in
            guard let base = bytes.u64(offset), let size = bytes.u64(offset + 24),
                let protection = bytes.u32(offset + 36),
                protection & 0xf0 != 0, base <= UInt64.max - size
            else { return nil }
            return base..<base + size
        }
    }
}
