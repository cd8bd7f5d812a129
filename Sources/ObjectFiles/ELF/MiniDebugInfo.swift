internal import CLibElf
import Decompression
import PostmortemCore

/// MiniDebugInfo: the xz-compressed ELF file a binary carries in `.gnu_debugdata` (Fedora's `find-debuginfo`, and
/// so Fedora, RHEL and CentOS binaries and container images), holding the `.symtab` entries of the functions that
/// `strip` removed and `.dynsym` does not list. gdb, elfutils and systemd-coredump name frames from it when no
/// debug package is installed.
struct MiniDebugInfo {
    /// The decompressed ELF file.
    let bytes: ImmutableBytes
    /// Its sections, read through ``handle``.
    let sections: [(section: Section, scn: OpaquePointer)]
    /// Kept while ``sections``' handles are used.
    private let handle: ELFHandle

    /// More than any MiniDebugInfo holds (it is a symbol table): a larger one is not read.
    static let maximumSize = 256 << 20

    /// The MiniDebugInfo of the binary `handle` reads, whose sections are `sections`; `nil` when it has none, or
    /// when it is not an xz-compressed ELF file (it is then ignored, as gdb ignores it).
    static func read(from handle: ELFHandle, sections: [(section: Section, scn: OpaquePointer)]) -> MiniDebugInfo? {
        guard let (section, scn) = sections.first(where: { $0.section.name == ".gnu_debugdata" && $0.section.occupiesFile }),
              section.size > 0, let data = elf_rawdata(scn, nil), let start = data.pointee.d_buf else { return nil }
        let compressed = Array(UnsafeRawBufferPointer(start: start, count: data.pointee.d_size))
        guard CompressedInput.format(of: compressed) == .xz,
              let elf = try? CompressedInput.decompressed(compressed, maximumSize: maximumSize) else { return nil }
        let bytes = ImmutableBytes(elf)
        guard let inner = try? ELFHandle(bytes: bytes, path: handle.path + " (.gnu_debugdata)"),
              let innerSections = try? ELFReader.readSections(inner) else { return nil }
        return MiniDebugInfo(bytes: bytes, sections: innerSections, handle: inner)
    }
}
