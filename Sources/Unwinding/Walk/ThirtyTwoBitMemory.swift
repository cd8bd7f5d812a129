/// The memory of a 32-bit process as its walker reads it: a word is 4 bytes (a return address, a saved frame pointer
/// or register), zero-extended.
struct ThirtyTwoBitMemory: MemoryReader {
    let memory: any MemoryReader

    func read(_ count: Int, at address: UInt64) -> [UInt8]? { memory.read(count, at: address) }

    func word(at address: UInt64) -> UInt64? {
        guard let bytes = memory.read(4, at: address), bytes.count == 4 else { return nil }
        return UInt64(bytes[0]) | UInt64(bytes[1]) << 8 | UInt64(bytes[2]) << 16 | UInt64(bytes[3]) << 24
    }

    func isExecutable(_ address: UInt64) -> Bool? { memory.isExecutable(address) }
}
