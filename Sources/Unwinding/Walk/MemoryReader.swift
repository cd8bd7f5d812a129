/// The memory of a process, as a core, a minidump or a live process gives it: what an unwinder reads saved
/// registers and return addresses from.
package protocol MemoryReader: Sendable {
    /// The `count` bytes at `address`; `nil` when any of them is not held.
    func read(_ count: Int, at address: UInt64) -> [UInt8]?
    /// The little-endian 64-bit word at `address`; `nil` when it is not held.
    func word(at address: UInt64) -> UInt64?
    /// Whether `address` lies in memory the process could execute; `nil` when that is not known.
    func isExecutable(_ address: UInt64) -> Bool?
}
