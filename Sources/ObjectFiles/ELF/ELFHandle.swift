internal import CLibElf
import PostmortemCore

/// Owns one open file and the libelf descriptor over it; frees both when it goes, and nowhere else.
final class ELFHandle {
    let path: String
    let elf: OpaquePointer
    /// The size of the file in bytes, to check header tables against.
    let fileSize: UInt64
    /// Kept open while libelf reads through its descriptor; closed after `elf_end`.
    private let file: FileSystem.OpenFile?
    /// The bytes libelf reads in place, for a file held in memory.
    private let memory: ImmutableBytes?

    /// Opens `path` for reading with libelf.
    /// - Throws: ``ObjectFileError`` when the file cannot be opened, is a directory or is not ELF.
    convenience init(path: String) throws(ObjectFileError) {
        try self.init(file: ObjectFileError.opening(path))
    }

    /// Reads `file` with libelf.
    init(file: FileSystem.OpenFile) throws(ObjectFileError) {
        path = file.path
        if file.isDirectory { throw ObjectFileError(.isDirectory, path: path, detail: "") }
        guard Self.hasELFMagic(file) else {
            throw ObjectFileError(.unknownFormat, path: path, detail: "no ELF or Mach-O header")
        }
        _ = elf_version(UInt32(EV_CURRENT))
        guard let elf = elf_begin(file.descriptor, ELF_C_READ_MMAP, nil) else {
            throw ObjectFileError(.malformed, path: path, detail: Self.lastError())
        }
        guard elf_kind(elf) == ELF_K_ELF else {
            elf_end(elf)
            throw ObjectFileError(.malformed, path: path, detail: "the ELF header is cut short or invalid")
        }
        self.elf = elf
        fileSize = file.size
        self.file = file
        memory = nil
    }

    /// Reads the ELF file held in `bytes` (one decompressed from a section of another), named `path` in messages.
    init(bytes: ImmutableBytes, path: String) throws(ObjectFileError) {
        self.path = path
        guard bytes.count >= 4, bytes.u8(at: 0) == 0x7F, bytes.u8(at: 1) == UInt8(ascii: "E"),
            bytes.u8(at: 2) == UInt8(ascii: "L"),
            bytes.u8(at: 3) == UInt8(ascii: "F"), let base = bytes.baseAddress
        else {
            throw ObjectFileError(.unknownFormat, path: path, detail: "no ELF header")
        }
        _ = elf_version(UInt32(EV_CURRENT))
        // libelf only reads an image opened for reading (a file of this machine's byte order is not converted in place).
        guard
            let elf = elf_memory(UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self)), bytes.count)
        else {
            throw ObjectFileError(.malformed, path: path, detail: Self.lastError())
        }
        guard elf_kind(elf) == ELF_K_ELF else {
            elf_end(elf)
            throw ObjectFileError(.malformed, path: path, detail: "the ELF header is cut short or invalid")
        }
        self.elf = elf
        fileSize = UInt64(bytes.count)
        file = nil
        memory = bytes
    }

    deinit {
        elf_end(elf)
    }

    /// Whether the file stores integers most significant byte first.
    var isBigEndian: Bool {
        var header = GElf_Ehdr()
        return gelf_getehdr(elf, &header) != nil && header.e_ident.5 == UInt8(ELFDATA2MSB)
    }

    /// A malformed-file error carrying libelf's last message.
    func malformed(_ what: String) -> ObjectFileError {
        ObjectFileError(.malformed, path: path, detail: "\(what): \(Self.lastError())")
    }

    static func lastError() -> String {
        guard let message = elf_errmsg(-1) else { return "unknown libelf error" }
        return String(cString: message)
    }

    static func hasELFMagic(_ file: FileSystem.OpenFile) -> Bool {
        file.read(count: 4, at: 0) == [0x7F, UInt8(ascii: "E"), UInt8(ascii: "L"), UInt8(ascii: "F")]
    }
}
