import ObjectFiles
import PostmortemCore

/// The kernel's virtual shared object (vDSO: `clock_gettime`, `gettimeofday`, the signal return trampoline on some
/// machines) as the process's memory holds it. No file backs it, so no `NT_FILE` entry or path names it; the auxiliary
/// vector's `AT_SYSINFO_EHDR` (a core) or `/proc/PID/maps`' `[vdso]` line (a process) says where it lies, and its ELF
/// image, symbols and `.eh_frame` are read from the memory itself (the kernel always dumps it), as eu-stack reads it.
package struct VirtualDSO: Sendable {
    /// `AT_SYSINFO_EHDR`: where the vDSO's ELF header lies.
    static let auxiliaryType: UInt64 = 33
    /// The path its image is given in reports: no file has it.
    package static let path = "[vdso]"
    /// Larger than any vDSO (a few pages): more is not one.
    static let sizeLimit: UInt64 = 1 << 20

    /// Its ELF image, copied from memory.
    package let contents: ImmutableBytes
    /// The image as an object file (named ``path``).
    package let object: ObjectFile
    /// Its `DT_SONAME` (`linux-vdso.so.1`), else `[vdso]`.
    package let name: String
    /// Where its ELF header lies.
    package let loadAddress: UInt64
    /// How many bytes of memory the image takes.
    package let size: UInt64

    /// The vDSO whose ELF header lies at `address` of `memory`; `nil` when the memory does not hold a whole 64-bit
    /// little-endian ELF image there.
    package init?(memory: any MemoryReader, address: UInt64) {
        guard let header = memory.read(64, at: address), header.starts(with: [0x7f, 0x45, 0x4c, 0x46]), header[4] == 2,
            header[5] == 1
        else {
            return nil
        }
        let headersOffset = CoreFile.word(header, at: 32)
        let sectionHeadersOffset = CoreFile.word(header, at: 40)
        let entrySize = UInt64(header[54]) | UInt64(header[55]) << 8
        let count = UInt64(header[56]) | UInt64(header[57]) << 8
        let sectionEntrySize = UInt64(header[58]) | UInt64(header[59]) << 8
        let sectionCount = UInt64(header[60]) | UInt64(header[61]) << 8
        guard entrySize >= 56, count > 0, count < 64, headersOffset < Self.sizeLimit,
            let headers = memory.read(Int(entrySize * count), at: address &+ headersOffset)
        else { return nil }
        // The image is laid out in memory as in its file: its end is the furthest of its segments and section headers.
        var end =
            sectionHeadersOffset < Self.sizeLimit && sectionCount < 256
            ? sectionHeadersOffset + sectionEntrySize * sectionCount : 0
        for index in 0..<Int(count) {
            let base = index * Int(entrySize)
            guard CoreFile.word32(headers, at: base) == 1 else { continue } // PT_LOAD
            let fileOffset = CoreFile.word(headers, at: base + 8)
            let fileSize = CoreFile.word(headers, at: base + 32)
            guard fileOffset < Self.sizeLimit, fileSize < Self.sizeLimit else { return nil }
            end = max(end, fileOffset + fileSize)
        }
        guard end > 64, end <= Self.sizeLimit, let bytes = memory.read(Int(end), at: address) else { return nil }
        let contents = ImmutableBytes(bytes)
        guard let object = try? ObjectFileReader.read(contents: contents, path: Self.path) else { return nil }
        self.contents = contents
        self.object = object
        name = Self.soname(of: object, in: contents) ?? Self.path
        loadAddress = address
        size = end
    }

    /// The name its dynamic section gives it (`DT_SONAME`, an offset into `.dynstr`).
    static func soname(of object: ObjectFile, in contents: ImmutableBytes) -> String? {
        guard let dynamic = object.sections.first(where: { $0.name == ".dynamic" }),
            let strings = object.sections.first(where: { $0.name == ".dynstr" }),
            dynamic.fileOffset + dynamic.size <= UInt64(contents.count),
            strings.fileOffset + strings.size <= UInt64(contents.count)
        else {
            return nil
        }
        var offset = dynamic.fileOffset
        while offset + 16 <= dynamic.fileOffset + dynamic.size {
            let tag = contents.u64(at: Int(offset))
            if tag == 0 { break }
            if tag == 14, case let value = contents.u64(at: Int(offset) + 8), value < strings.size { // DT_SONAME
                let name = contents.string(
                    at: Int(strings.fileOffset + value), limit: Int(strings.fileOffset + strings.size))
                return name.isEmpty ? nil : name
            }
            offset += 16
        }
        return nil
    }
}
