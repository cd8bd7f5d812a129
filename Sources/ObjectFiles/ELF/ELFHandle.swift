internal import CLibElf
import PostmortemCore

/// Owns one open file and the libelf descriptor over it; frees both when it goes, and nowhere else.
final class ELFHandle {
    let path: String
    let elf: OpaquePointer
    /// The size of the file in bytes, to check header tables against.
    let fileSize: UInt64
    /// Kept open while libelf reads through its descriptor; closed after `elf_end`.
    private let file: FileSystem.OpenFile

    /// Opens `path` for reading with libelf.
    /// - Throws: ``ObjectFileError`` when the file cannot be opened, is a directory or is not ELF.
    convenience init(path: String) throws(ObjectFileError) {
        try self.init(file: ObjectFileError.opening(path))
    }

    /// Reads `file` with libelf.
    init(file: FileSystem.OpenFile) throws(ObjectFileError) {
        path = file.path
        if file.isDirectory { throw ObjectFileError(.isDirectory, path: path, detail: "") }
        guard Self.hasELFMagic(file) else { throw ObjectFileError(.unknownFormat, path: path, detail: "no ELF or Mach-O header") }
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
    }

    deinit {
        elf_end(elf)
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
