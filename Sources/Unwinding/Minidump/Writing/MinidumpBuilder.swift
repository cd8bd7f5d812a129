/// A minidump's bytes as they are laid out: a 32-byte header and the stream directory, reserved first for the
/// number of streams to come, then the streams, each pointed at by its offset in the file (its RVA).
struct MinidumpBuilder {
    private(set) var bytes: [UInt8] = []
    private let streamCount: Int
    private var directory: [(type: UInt32, location: MinidumpLocation)] = []

    /// A builder of a file of `streamCount` streams.
    init(streamCount: Int) {
        self.streamCount = streamCount
        zeros(32 + streamCount * 12)
        align(8)
    }

    /// Where the next byte goes: its RVA.
    var offset: UInt32 { UInt32(bytes.count) }

    mutating func align(_ boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }

    mutating func u16(_ value: UInt16) { append(UInt64(value), size: 2) }
    mutating func u32(_ value: UInt32) { append(UInt64(value), size: 4) }
    mutating func u64(_ value: UInt64) { append(value, size: 8) }
    mutating func raw(_ value: [UInt8]) { bytes += value }
    mutating func zeros(_ count: Int) { bytes += [UInt8](repeating: 0, count: count) }

    private mutating func append(_ value: UInt64, size: Int) {
        for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    /// Overwrites the 32-bit word at `offset` (an RVA or size known only later).
    mutating func patch32(_ value: UInt32, at offset: UInt32) {
        for index in 0..<4 { bytes[Int(offset) + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// A `MINIDUMP_STRING` (its length in bytes, UTF-16LE, a NUL), 4-byte aligned; its RVA.
    mutating func string(_ text: String) -> UInt32 {
        align(4)
        let start = offset
        let units = Array(text.utf16)
        u32(UInt32(units.count * 2))
        for unit in units { u16(unit) }
        u16(0)
        return start
    }

    /// Writes a stream whose body `write` appends, and lists it in the directory.
    mutating func stream(_ type: MinidumpStreamType, _ write: (inout MinidumpBuilder) -> Void) {
        align(8)
        let start = offset
        write(&self)
        directory.append((type.rawValue, MinidumpLocation(size: offset - start, rva: start)))
    }

    /// The file, its header and directory filled in.
    func file(timeStamp: UInt32) -> [UInt8] {
        precondition(directory.count <= streamCount, "more streams written than reserved")
        var file = self
        var head = MinidumpBuilder(header: ())
        head.u32(MinidumpFile.signature)
        head.u32(0xa793) // MINIDUMP_VERSION
        head.u32(UInt32(directory.count))
        head.u32(32)
        head.u32(0) // no checksum
        head.u32(timeStamp)
        head.u64(0) // flags
        for entry in directory {
            head.u32(entry.type)
            head.u32(entry.location.size)
            head.u32(entry.location.rva)
        }
        file.bytes.replaceSubrange(0..<head.bytes.count, with: head.bytes)
        return file.bytes
    }

    private init(header: Void) { streamCount = 0 }
}
