import CProcessTrace

/// The memory of a live process, read with `process_vm_readv` (one system call a read, no ptrace peeks), with the
/// executable ranges of its mappings.
struct ProcessMemory: MemoryReader {
    let processID: Int32
    /// The mappings, by address.
    let mappings: [ProcessMapping]

    func read(_ count: Int, at address: UInt64) -> [UInt8]? {
        guard count > 0 else { return count == 0 ? [] : nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { postmortem_read_memory(processID, $0.baseAddress, count, address) }
        return read == count ? bytes : nil
    }

    func word(at address: UInt64) -> UInt64? {
        guard let bytes = read(8, at: address) else { return nil }
        return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    func isExecutable(_ address: UInt64) -> Bool? {
        mappings.first { $0.start <= address && address < $0.end }.map(\.isExecutable) ?? false
    }
}
