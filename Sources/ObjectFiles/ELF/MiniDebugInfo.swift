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

    /// The MiniDebugInfo of the binary `handle` reads, whose sections are `sections`; `nil` when it has none, and why
    /// not when it cannot be read (not xz, damaged, not an ELF file: gdb then ignores it, and so do symbol lookups).
    static func read(from handle: ELFHandle, sections: [(section: Section, scn: OpaquePointer)]) -> Result<
        MiniDebugInfo, Failure
    >? {
        guard
            let (section, scn) = sections.first(where: {
                $0.section.name == ".gnu_debugdata" && $0.section.occupiesFile
            }),
            section.size > 0
        else { return nil }
        guard let data = elf_rawdata(scn, nil), let start = data.pointee.d_buf else {
            return .failure(Failure(detail: "it cannot be read"))
        }
        let compressed = Array(UnsafeRawBufferPointer(start: start, count: data.pointee.d_size))
        guard CompressedInput.format(of: compressed) == .xz else {
            return .failure(Failure(detail: "it is not xz-compressed"))
        }
        let elf: [UInt8]
        do { elf = try CompressedInput.decompressed(compressed, maximumSize: maximumSize) } catch {
            return .failure(Failure(detail: error.description))
        }
        let bytes = ImmutableBytes(elf)
        do throws(ObjectFileError) {
            let inner = try ELFHandle(bytes: bytes, path: handle.path + " (.gnu_debugdata)")
            return .success(MiniDebugInfo(bytes: bytes, sections: try ELFReader.readSections(inner), handle: inner))
        } catch {
            return .failure(Failure(detail: "the file inside is not ELF: \(error.detail)"))
        }
    }

    /// Why a binary's MiniDebugInfo was not read, in one line.
    struct Failure: Error {
        var detail: String
        var description: String { "its MiniDebugInfo (.gnu_debugdata) is not used: \(detail)" }
    }
}
