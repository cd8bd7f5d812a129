import ObjectFiles
import PostmortemCore

/// A minidump's bytes and the ways its streams point into them (RVAs, location descriptors, `MINIDUMP_STRING`s),
/// each read checked against the file's end: a pointer out of the file reads as `nil`, never past it.
struct MinidumpBytes: Sendable {
    let storage: ImmutableBytes

    var count: Int { storage.count }
    var reader: ByteReader { storage.reader }

    func u16(_ offset: Int) -> UInt16? { reader.u16(at: offset) }
    func u32(_ offset: Int) -> UInt32? { reader.u32(at: offset) }
    func u64(_ offset: Int) -> UInt64? { reader.u64(at: offset) }

    /// The bytes of `range`, when the file holds all of them.
    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= self.count - count else { return nil }
        return storage.bytes(offset..<offset + count)
    }

    /// Whether `count` bytes at `offset` lie in the file (sizes compared without adding, so that none overflows).
    func holds(_ count: UInt64, at offset: UInt64) -> Bool {
        offset <= UInt64(self.count) && count <= UInt64(self.count) - offset
    }

    /// A location descriptor (`MINIDUMP_LOCATION_DESCRIPTOR`: size, then RVA) at `offset`.
    func location(at offset: Int) -> MinidumpLocation? {
        guard let size = u32(offset), let rva = u32(offset + 4) else { return nil }
        return MinidumpLocation(size: size, rva: rva)
    }

    /// A `MINIDUMP_STRING` (its length in bytes, then UTF-16LE) at `rva`; `nil` when it does not fit in the file.
    func utf16String(at rva: UInt32) -> String? {
        guard let length = u32(Int(rva)), length % 2 == 0, length <= 1 << 20,
            let units = bytes(at: Int(rva) + 4, count: Int(length))
        else { return nil }
        // Decoded here into UTF-8: `String(decoding:as: UTF16.self)` goes through the standard library's generic
        // transcoding, which looks up its associated types at run time (a tenth of a small dump's run).
        var utf8: [UInt8] = []
        utf8.reserveCapacity(units.count)
        var index = 0
        func unit(_ at: Int) -> UInt32 { UInt32(units[at]) | UInt32(units[at + 1]) << 8 }
        while index + 1 < units.count {
            var scalar = unit(index)
            index += 2
            if scalar >= 0xD800, scalar < 0xDC00, index + 1 < units.count, unit(index) >= 0xDC00, unit(index) < 0xE000 {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (unit(index) - 0xDC00)
                index += 2
            } else if scalar >= 0xD800, scalar < 0xE000 {
                scalar = 0xFFFD // a lone surrogate, replaced as String(decoding:) replaces it
            }
            switch scalar {
            case ..<0x80: utf8.append(UInt8(scalar))
            case ..<0x800: utf8 += [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)]
            case ..<0x10000:
                utf8 += [UInt8(0xE0 | scalar >> 12), UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F)]
            default:
                utf8 += [
                    UInt8(0xF0 | scalar >> 18), UInt8(0x80 | scalar >> 12 & 0x3F), UInt8(0x80 | scalar >> 6 & 0x3F),
                    UInt8(0x80 | scalar & 0x3F)
                ]
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Crashpad's `MinidumpUTF8String` (its length, then UTF-8) at `rva`.
    func utf8String(at rva: UInt32) -> String? {
        guard let length = u32(Int(rva)), length <= 1 << 20, let text = bytes(at: Int(rva) + 4, count: Int(length))
        else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Where a piece of a minidump lies: its size and its offset from the file's start (its RVA).
struct MinidumpLocation: Hashable, Sendable {
    var size: UInt32
    var rva: UInt32
}
