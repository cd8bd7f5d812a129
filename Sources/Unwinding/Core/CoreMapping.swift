/// A file the process had mapped, as the core's `NT_FILE` note lists it.
package struct CoreMapping: Hashable, Sendable {
    /// The first address of the mapping.
    package var start: UInt64
    /// The address after its last.
    package var end: UInt64
    /// Where in the file the mapping starts, in bytes.
    package var fileOffset: UInt64
    /// The file's path as the kernel saw it (`/usr/lib/x86_64-linux-gnu/libc.so.6`; ` (deleted)` when it was replaced).
    package var path: String

    /// The mappings an `NT_FILE` descriptor lists; `nil` when its counts do not fit its size.
    static func mappings(fileNote bytes: [UInt8]) -> [CoreMapping]? {
        let count = CoreFile.word(bytes, at: 0)
        let pageSize = CoreFile.word(bytes, at: 8)
        guard bytes.count >= 16, count <= UInt64(bytes.count - 16) / 24 else { return nil }
        let entries = 16 + Int(count) * 24
        var names = bytes[entries...].split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard names.count >= Int(count) else { return nil }
        names = Array(names.prefix(Int(count)))
        return (0..<Int(count)).map { index in
            let base = 16 + index * 24
            return CoreMapping(
                start: CoreFile.word(bytes, at: base), end: CoreFile.word(bytes, at: base + 8),
                fileOffset: CoreFile.word(bytes, at: base + 16) &* pageSize, path: names[index])
        }
    }
}
