/// Writes small x86-64 ELF cores byte by byte: the hostile shapes no kernel writes (a truncated file, notes that claim
/// more than they hold, a stack that points to itself) are made from it.
struct SyntheticCore {
    struct Segment {
        var address: UInt64
        var bytes: [UInt8]
        var executable = false
        /// The file and memory size its header claims; `nil` for its bytes' count.
        var claimedSize: UInt64?
    }

    /// Registers by `user_regs_struct` slot (rbp is 4, rip 16, rsp 19).
    var registers: [Int: UInt64] = [:]
    var signal: UInt16 = 11
    var threadID: UInt32 = 4242
    var segments: [Segment] = []
    /// The descriptor size the PRSTATUS note claims; `nil` for its real size.
    var claimedDescriptorSize: UInt32?
    /// Mapped files for an `NT_FILE` note: start, end, page offset, path.
    var files: [(start: UInt64, end: UInt64, pageOffset: UInt64, path: String)] = []

    static func words(_ values: [UInt64]) -> [UInt8] {
        values.flatMap { value in (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
    }

    private static func append(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    var bytes: [UInt8] {
        var prstatus = [UInt8](repeating: 0, count: 336)
        prstatus[12] = UInt8(signal & 0xff)
        prstatus[13] = UInt8(signal >> 8)
        for index in 0..<4 { prstatus[32 + index] = UInt8(truncatingIfNeeded: threadID >> (8 * UInt32(index))) }
        for (slot, value) in registers {
            for index in 0..<8 {
                prstatus[112 + slot * 8 + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))
            }
        }
        var note: [UInt8] = []
        Self.append(5, size: 4, to: &note)
        Self.append(UInt64(claimedDescriptorSize ?? UInt32(prstatus.count)), size: 4, to: &note)
        Self.append(1, size: 4, to: &note)
        note += Array("CORE".utf8) + [0, 0, 0, 0]
        note += prstatus
        if !files.isEmpty {
            var descriptor: [UInt8] = []
            Self.append(UInt64(files.count), size: 8, to: &descriptor)
            Self.append(4096, size: 8, to: &descriptor)
            for file in files {
                Self.append(file.start, size: 8, to: &descriptor)
                Self.append(file.end, size: 8, to: &descriptor)
                Self.append(file.pageOffset, size: 8, to: &descriptor)
            }
            for file in files { descriptor += Array(file.path.utf8) + [0] }
            while descriptor.count % 4 != 0 { descriptor.append(0) }
            Self.append(5, size: 4, to: &note)
            Self.append(UInt64(descriptor.count), size: 4, to: &note)
            Self.append(0x4649_4c45, size: 4, to: &note)
            note += Array("CORE".utf8) + [0, 0, 0, 0]
            note += descriptor
        }

        let headerCount = 1 + segments.count
        let dataStart = 64 + 56 * headerCount
        var file: [UInt8] = [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 8)
        Self.append(4, size: 2, to: &file) // ET_CORE
        Self.append(62, size: 2, to: &file) // EM_X86_64
        Self.append(1, size: 4, to: &file)
        Self.append(0, size: 8, to: &file)
        Self.append(64, size: 8, to: &file) // e_phoff
        Self.append(0, size: 8, to: &file)
        Self.append(0, size: 4, to: &file)
        Self.append(64, size: 2, to: &file)
        Self.append(56, size: 2, to: &file)
        Self.append(UInt64(headerCount), size: 2, to: &file)
        Self.append(0, size: 6, to: &file)
        var offset = UInt64(dataStart)
        func header(type: UInt64, flags: UInt64, address: UInt64, size: Int, claimed: UInt64? = nil) {
            Self.append(type, size: 4, to: &file)
            Self.append(flags, size: 4, to: &file)
            Self.append(offset, size: 8, to: &file)
            Self.append(address, size: 8, to: &file)
            Self.append(0, size: 8, to: &file)
            Self.append(claimed ?? UInt64(size), size: 8, to: &file)
            Self.append(claimed ?? UInt64(size), size: 8, to: &file)
            Self.append(1, size: 8, to: &file)
            offset += UInt64(size)
        }
        header(type: 4, flags: 4, address: 0, size: note.count)
        for segment in segments {
            header(
                type: 1, flags: segment.executable ? 5 : 6, address: segment.address, size: segment.bytes.count,
                claimed: segment.claimedSize)
        }
        file += note
        for segment in segments { file += segment.bytes }
        return file
    }
}
