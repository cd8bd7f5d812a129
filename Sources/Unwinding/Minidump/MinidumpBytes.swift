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
        let codeUnits = stride(from: 0, to: units.count, by: 2).map { UInt16(units[$0]) | UInt16(units[$0 + 1]) << 8 }
        return String(decoding: codeUnits, as: UTF16.self)
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
