import Synchronization

/// A core's memory that remembers what a walk read from it, so that a minidump of the core can keep those bytes too:
/// a Swift task's async contexts lie on the heap, not on a stack, and a dump without them could not follow the task.
final class RecordingMemory: MemoryReader {
    private let memory: any MemoryReader
    private let reads = Mutex<[Range<UInt64>]>([])

    init(_ memory: any MemoryReader) {
        self.memory = memory
    }

    func read(_ count: Int, at address: UInt64) -> [UInt8]? {
        let bytes = memory.read(count, at: address)
        if bytes != nil, count > 0 { note(address, count: UInt64(count)) }
        return bytes
    }

    func word(at address: UInt64) -> UInt64? {
        let word = memory.word(at: address)
        if word != nil { note(address, count: 8) }
        return word
    }

    func isExecutable(_ address: UInt64) -> Bool? { memory.isExecutable(address) }

    private func note(_ address: UInt64, count: UInt64) {
        guard address <= UInt64.max - count else { return }
        reads.withLock { $0.append(address..<address + count) }
    }

    /// What was read, as blocks of `block` bytes (a power of two) around each read, merged, by address.
    func readBlocks(block: UInt64 = 64) -> [Range<UInt64>] {
        let ranges = reads.withLock { $0 }.map { range in
            (range.lowerBound & ~(block - 1))..<min(
                UInt64.max & ~(block - 1), (range.upperBound + block - 1) & ~(block - 1))
        }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<UInt64>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
