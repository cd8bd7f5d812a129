/// Bounds-checked reads of little- or big-endian integers and C strings from a byte buffer.
/// Every read past the end returns `nil`: bytes from a file never trap.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    let isBigEndian: Bool

    func u8(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes[offset]
    }

    func u16(at offset: Int) -> UInt16? { integer(at: offset, size: 2).map { UInt16(truncatingIfNeeded: $0) } }
    func u32(at offset: Int) -> UInt32? { integer(at: offset, size: 4).map { UInt32(truncatingIfNeeded: $0) } }
    func u64(at offset: Int) -> UInt64? { integer(at: offset, size: 8) }

    private func integer(at offset: Int, size: Int) -> UInt64? {
        guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(bytes[offset + (isBigEndian ? index : size - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }

    /// A NUL-terminated string starting at `offset`, at most `limit` bytes long.
    func string(at offset: Int, limit: Int = 4096) -> String? {
        guard offset >= 0, offset < bytes.count else { return nil }
        let end = min(bytes.count, offset + limit)
        var stop = offset
        while stop < end, bytes[stop] != 0 { stop += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<stop]), as: UTF8.self)
    }

    /// A fixed-size name field (`segname`, `sectname`): up to 16 bytes, NUL-padded.
    func fixedString(at offset: Int, length: Int) -> String? {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else { return nil }
        var stop = offset
        while stop < offset + length, bytes[stop] != 0 { stop += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<stop]), as: UTF8.self)
    }
}
