import PostmortemCore

/// The CRC-32 (IEEE 802.3, as zlib computes it) that `.gnu_debuglink` records for a debug file.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = ~value
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        value = ~crc
    }

    /// The CRC-32 of the whole file at `path`, or `nil` when it cannot be read.
    static func ofFile(at path: String) -> UInt32? {
        guard let file = try? FileSystem.OpenFile(path: path) else { return nil }
        var crc = CRC32()
        return file.readSequentially { crc.update($0) } ? crc.value : nil
    }
}
