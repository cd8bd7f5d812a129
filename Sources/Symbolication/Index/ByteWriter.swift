/// Builds little-endian bytes for the compact index formats (``FlatUnit``, the index cache) and DWARF expressions.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package var count: Int { bytes.count }

    /// Makes room for `capacity` bytes in all, so that appends do not reallocate on the way.
    package mutating func reserve(_ capacity: Int) { bytes.reserveCapacity(capacity) }

    // Byte by byte: single appends are inlined, where appending a buffer goes through a generic copy
    // that was a tenth of packing a unit.
    package mutating func u32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    package mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value))
        u32(UInt32(truncatingIfNeeded: value >> 32))
    }

    /// Appends `value` as unsigned LEB128 (``ImmutableBytes/uleb(at:)`` reads it).
    @inline(__always) package mutating func uleb(_ value: UInt64) {
        // Most numbers of a packed unit take one byte: appended where the caller is. A longer one is made on the stack
        // and appended at once (each append checks that the array is not shared, which was a tenth of packing).
        if value < 0x80 { return bytes.append(UInt8(truncatingIfNeeded: value)) }
        appendLongULEB(value)
    }

    private mutating func appendLongULEB(_ value: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { encoded in
            var rest = value, count = 0
            repeat {
                let byte = UInt8(rest & 0x7F)
                rest >>= 7
                encoded[count] = rest == 0 ? byte : byte | 0x80
                count += 1
            } while rest != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: encoded[0..<count]))
        }
    }

    package mutating func uleb(_ value: Int) { uleb(UInt64(max(value, 0))) }

    /// Appends `value` as signed LEB128.
    package mutating func sleb(_ value: Int64) {
        var rest = value
        while true {
            let byte = UInt8(truncatingIfNeeded: rest) & 0x7F
            rest >>= 7
            let done = (rest == 0 && byte & 0x40 == 0) || (rest == -1 && byte & 0x40 != 0)
            bytes.append(done ? byte : byte | 0x80)
            if done { return }
        }
    }

    /// Appends one byte.
    package mutating func u8(_ value: UInt8) { bytes.append(value) }

    package mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Appends `count` groups of four little-endian u32s, group `index` being `words(index)`, asked in order: the room
    /// is made once and written in place, where a table of tens of thousands of entries appended a byte at a time
    /// spent most of its writing on the appends.
    package mutating func appendU32Quads(
        count: Int, _ words: (_ index: Int) -> (UInt32, UInt32, UInt32, UInt32)
    ) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count * 16))
        bytes.withUnsafeMutableBytes { raw in
            for index in 0..<count {
                let (first, second, third, fourth) = words(index)
                let offset = start + index * 16
                raw.storeBytes(of: first.littleEndian, toByteOffset: offset, as: UInt32.self)
                raw.storeBytes(of: second.littleEndian, toByteOffset: offset + 4, as: UInt32.self)
                raw.storeBytes(of: third.littleEndian, toByteOffset: offset + 8, as: UInt32.self)
                raw.storeBytes(of: fourth.littleEndian, toByteOffset: offset + 12, as: UInt32.self)
            }
        }
    }

    /// Appends what `other` has written.
    package mutating func append(_ other: ByteWriter) { append(other, from: 0, to: other.count) }

    /// Appends bytes `start..<end` of what `other` has written.
    package mutating func append(_ other: ByteWriter, from start: Int, to end: Int) {
        other.bytes.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Forgets what was written, keeping the room it took.
    package mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Pads with zeros up to a multiple of `alignment`.
    package mutating func align(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Overwrites the u32 at `offset`, written earlier.
    package mutating func patchU32(at offset: Int, _ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for index in 0..<4 { bytes[offset + index] = raw[index] }
        }
    }
}

/// Strings stored once each, NUL-terminated, addressed by their offset.
struct StringPool {
    /// The offset that stands for "no string".
    static let none = UInt32.max

    private(set) var bytes: [UInt8] = []
    private var offsets: [SampledNameKey: UInt32] = [:]

    init(existing: [UInt8] = []) { bytes = existing }

    /// Makes room for `count` strings, so that the pool does not grow (and hash every name again) on the way.
    mutating func reserve(_ count: Int) { offsets.reserveCapacity(count) }

    mutating func offset(of string: String?) -> UInt32 {
        guard let string else { return Self.none }
        let key = SampledNameKey(string)
        if let known = offsets[key] { return known }
        let offset = UInt32(bytes.count)
        bytes.append(contentsOf: string.utf8)
        bytes.append(0)
        offsets[key] = offset
        return offset
    }
}
