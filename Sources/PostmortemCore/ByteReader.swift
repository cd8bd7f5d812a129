/// Bounds-checked reads of bytes in place: integers of either byte order, LEB128 numbers and C strings. Every read
/// that would pass the end gives `nil`: bytes from a file (a Mach-O header, a line program, an index-cache file) may
/// say anything, and must never trap. The one reader of binary data in the package; ``ByteCursor`` reads in sequence.
public struct ByteReader {
    /// The bytes read, valid as long as their owner keeps them.
    public let bytes: UnsafeRawBufferPointer
    /// Whether integers are stored most significant byte first.
    public let isBigEndian: Bool

    /// A reader of `bytes`, whose integers are big-endian when `isBigEndian`.
    @inlinable public init(bytes: UnsafeRawBufferPointer, isBigEndian: Bool = false) {
        self.bytes = bytes
        self.isBigEndian = isBigEndian
    }

    /// The byte at `offset`.
    @inlinable public func u8(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    /// The 16-bit integer at `offset`.
    @inlinable public func u16(at offset: Int) -> UInt16? { integer(at: offset) }
    /// The 32-bit integer at `offset`.
    @inlinable public func u32(at offset: Int) -> UInt32? { integer(at: offset) }
    /// The 64-bit integer at `offset`.
    @inlinable public func u64(at offset: Int) -> UInt64? { integer(at: offset) }

    /// The integer of `size` bytes (at most 8) at `offset`.
    @inlinable @inline(__always) public func unsigned(at offset: Int, size: Int) -> UInt64? {
        // The sizes DWARF's fixed forms and addresses take, read where the caller is (a body with the loop below is one
        // the optimizer keeps out of line, a call for every attribute of every DIE).
        switch size {
        case 1: return u8(at: offset).map(UInt64.init)
        case 2: return u16(at: offset).map(UInt64.init)
        case 4: return u32(at: offset).map(UInt64.init)
        case 8: return u64(at: offset)
        default: return unsignedOfOtherSize(at: offset, size: size)
        }
    }

    /// ``unsigned(at:size:)`` for a size other than 1, 2, 4 and 8 (3 bytes, say; more than 8 is none).
    @usableFromInline func unsignedOfOtherSize(at offset: Int, size: Int) -> UInt64? {
        guard size >= 0, size <= 8, offset >= 0, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for index in 0..<size {
            value |= UInt64(bytes[offset + (isBigEndian ? size - 1 - index : index)]) << (8 * index)
        }
        return value
    }

    @inlinable @usableFromInline func integer<Value: FixedWidthInteger>(at offset: Int) -> Value? {
        let size = MemoryLayout<Value>.size
        guard offset >= 0, offset <= bytes.count - size else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: Value.self)
        return isBigEndian ? Value(bigEndian: value) : Value(littleEndian: value)
    }

    /// The unsigned LEB128 number at `offset` and the offset after it; `nil` when the bytes end inside it. A number
    /// longer than ten bytes keeps its low 64 bits.
    @inlinable @inline(__always) public func uleb(at offset: Int) -> (value: UInt64, next: Int)? {
        // Most numbers of the compact indexes and line programs fit in one byte: read where the caller is, the rest by
        // a call (a body with the loop is one the optimizer declines to copy into its callers).
        if offset >= 0, offset < bytes.count, bytes[offset] < 0x80 { return (UInt64(bytes[offset]), offset + 1) }
        return ulebOfSeveralBytes(at: offset)
    }

    /// ``uleb(at:)`` for a number of more than one byte (or none).
    @usableFromInline func ulebOfSeveralBytes(at offset: Int) -> (value: UInt64, next: Int)? {
        guard offset >= 0, offset < bytes.count else { return nil }
        var value = UInt64(bytes[offset] & 0x7F)
        if bytes[offset] < 0x80 { return (value, offset + 1) }
        var shift: UInt64 = 7
        var position = offset + 1
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            shift += 7
            if byte & 0x80 == 0 { return (value, position) }
        }
        return nil
    }

    /// The signed LEB128 number at `offset` and the offset after it; `nil` when the bytes end inside it.
    @inlinable public func sleb(at offset: Int) -> (value: Int64, next: Int)? {
        var value: Int64 = 0
        var shift: Int64 = 0
        var position = offset
        while let byte = u8(at: position) {
            position += 1
            if shift < 64 { value |= Int64(byte & 0x7F) << shift }
            shift += 7
            if byte & 0x80 == 0 {
                if shift < 64, byte & 0x40 != 0 { value |= -1 << shift }
                return (value, position)
            }
        }
        return nil
    }

    /// The NUL-terminated string at `offset`, of at most `limit` bytes before the NUL (a string cut by the end of
    /// the bytes or by `limit` ends there); `nil` when `offset` is past the end.
    public func string(at offset: Int, limit: Int = 4096) -> String? {
        guard offset >= 0, offset < bytes.count else { return nil }
        let end = min(bytes.count, offset + limit)
        var stop = offset
        while stop < end, bytes[stop] != 0 { stop += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<stop]), as: UTF8.self)
    }

    /// The NUL-terminated string at `offset` and the offset after its NUL; `nil` when no NUL comes before the end.
    public func cString(at offset: Int) -> (value: String, next: Int)? {
        guard offset >= 0, offset < bytes.count else { return nil }
        var end = offset
        while end < bytes.count, bytes[end] != 0 { end += 1 }
        guard end < bytes.count else { return nil }
        return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self), end + 1)
    }

    /// A fixed-size name field (`segname`, `sectname`): up to `length` bytes, NUL-padded.
    public func fixedString(at offset: Int, length: Int) -> String? {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else { return nil }
        var stop = offset
        while stop < offset + length, bytes[stop] != 0 { stop += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<stop]), as: UTF8.self)
    }
}

/// A ``ByteReader`` read in sequence (a DWARF line-program header, say): each read moves past what it read, and a
/// read that would pass the end gives `nil` and moves nothing.
public struct ByteCursor {
    /// What is read.
    public let reader: ByteReader
    /// Where the next read starts.
    public var position: Int

    /// A cursor at `position` in little-endian `bytes`.
    @inlinable public init(_ bytes: UnsafeRawBufferPointer, at position: Int) {
        reader = ByteReader(bytes: bytes)
        self.position = position
    }

    /// A cursor at `position` of what `reader` reads, in its byte order.
    @inlinable public init(_ reader: ByteReader, at position: Int) {
        self.reader = reader
        self.position = position
    }

    /// The bytes read.
    @inlinable public var bytes: UnsafeRawBufferPointer { reader.bytes }

    /// The next byte.
    @inlinable public mutating func byte() -> UInt8? {
        guard let value = reader.u8(at: position) else { return nil }
        position += 1
        return value
    }

    /// The next integer of `size` bytes (at most 8).
    @inlinable @inline(__always) public mutating func unsigned(_ size: Int) -> UInt64? {
        guard let value = reader.unsigned(at: position, size: size) else { return nil }
        position += size
        return value
    }

    /// The next unsigned LEB128 number.
    @inlinable @inline(__always) public mutating func uleb() -> UInt64? {
        guard let (value, next) = reader.uleb(at: position) else { return nil }
        position = next
        return value
    }

    /// The next signed LEB128 number.
    @inlinable public mutating func sleb() -> Int64? {
        guard let (value, next) = reader.sleb(at: position) else { return nil }
        position = next
        return value
    }

    /// Moves past `count` bytes; false (not moving) when fewer are left.
    @inlinable public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position >= 0, position <= bytes.count - count else { return false }
        position += count
        return true
    }

    /// The next NUL-terminated string; `nil` when no NUL comes before the end.
    public mutating func cString() -> String? {
        guard let (value, next) = reader.cString(at: position) else { return nil }
        position = next
        return value
    }
}
