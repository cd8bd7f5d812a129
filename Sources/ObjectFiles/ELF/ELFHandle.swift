internal import CLibElf
import Glibc

/// Owns one open file and the libelf descriptor over it; frees both in `deinit`, and nowhere else.
final class ELFHandle {
    let path: String
    let elf: OpaquePointer
    /// The size of the file in bytes, to check header tables against.
    let fileSize: UInt64
    private let fileDescriptor: Int32

    /// Opens `path` for reading with libelf.
    /// - Throws: ``ObjectFileError`` when the file cannot be opened, is a directory or is not ELF.
    convenience init(path: String) throws(ObjectFileError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ObjectFileError(.cannotOpen, path: path, detail: String(cString: strerror(errno)))
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw ObjectFileError(.isDirectory, path: path, detail: "")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ObjectFileError(.cannotOpen, path: path, detail: String(cString: strerror(errno)))
        }
        try self.init(descriptor: descriptor, path: path)
    }

    /// Takes over `descriptor`, open for reading on the file at `path` (it is closed here, also when this throws).
    init(descriptor: Int32, path: String) throws(ObjectFileError) {
        self.path = path
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw ObjectFileError(.cannotOpen, path: path, detail: String(cString: strerror(errno)))
        }
        guard Self.hasELFMagic(descriptor) else {
            close(descriptor)
            throw ObjectFileError(.unknownFormat, path: path, detail: "no ELF or Mach-O header")
        }
        _ = elf_version(UInt32(EV_CURRENT))
        guard let elf = elf_begin(descriptor, ELF_C_READ_MMAP, nil) else {
            let message = Self.lastError()
            close(descriptor)
            throw ObjectFileError(.malformed, path: path, detail: message)
        }
        guard elf_kind(elf) == ELF_K_ELF else {
            elf_end(elf)
            close(descriptor)
            throw ObjectFileError(.malformed, path: path, detail: "the ELF header is cut short or invalid")
        }
        self.elf = elf
        self.fileSize = UInt64(max(status.st_size, 0))
        self.fileDescriptor = descriptor
    }

    deinit {
        elf_end(elf)
        close(fileDescriptor)
    }

    /// A malformed-file error carrying libelf's last message.
    func malformed(_ what: String) -> ObjectFileError {
        ObjectFileError(.malformed, path: path, detail: "\(what): \(Self.lastError())")
    }

    static func lastError() -> String {
        guard let message = elf_errmsg(-1) else { return "unknown libelf error" }
        return String(cString: message)
    }

    static func hasELFMagic(_ descriptor: Int32) -> Bool {
        var magic: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let count = withUnsafeMutableBytes(of: &magic) { pread(descriptor, $0.baseAddress, 4, 0) }
        return count == 4 && magic == (0x7F, UInt8(ascii: "E"), UInt8(ascii: "L"), UInt8(ascii: "F"))
    }
}
