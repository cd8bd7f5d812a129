internal import CLibDwarf
import Glibc
import ObjectFiles

/// Owns one libdwarf session (`Dwarf_Debug`) and frees it in `deinit`, and nowhere else.
/// libdwarf is not thread-safe: a handle is used from one thread at a time.
///
/// Debian's libdwarf (20210528) reads ELF and thin Mach-O files but cannot pick a slice of a universal
/// file. For a slice, the handle copies its bytes into an in-memory file (`memfd_create`) and gives
/// libdwarf that descriptor: libdwarf then sees a thin Mach-O file, and its own section loading,
/// relocation and decompression stay in use (a custom `dwarf_object_init_b` interface would have to
/// redo them).
final class DebugHandle {
    let path: String
    let debug: Dwarf_Debug
    /// The in-memory copy of a universal file's slice, closed after `dwarf_finish`.
    private let sliceDescriptor: Int32?

    init(object: ObjectFile) throws(DWARFError) {
        let path = object.path
        self.path = path
        if let problem = ListSectionValidator.problem(in: object) {
            throw DWARFError(.malformed, path: path, detail: "\(problem) (not handed to libdwarf, which crashes on such headers)")
        }
        // libdwarf records every allocation in a search tree so that dwarf_finish can free what callers
        // leave behind; that bookkeeping is a fifth of a large unit's read time. Every reader here frees
        // what it asks for, so the tracking is turned off (a library-wide switch, always set the same way).
        dwarf_set_de_alloc_flag(0)
        var debug: Dwarf_Debug?
        var error: Dwarf_Error?
        let result: Int32
        if let slice = object.slice {
            let descriptor = try Self.copy(slice, of: path)
            sliceDescriptor = descriptor
            result = dwarf_init_b(descriptor, UInt64(DW_DLC_READ), 0, nil, nil, &debug, &error)
            if result != DW_DLV_OK { close(descriptor) }
        } else {
            sliceDescriptor = nil
            result = dwarf_init_path(path, nil, 0, UInt64(DW_DLC_READ), 0, nil, nil, &debug, nil, 0, nil, &error)
        }
        switch result {
        case DW_DLV_OK:
            guard let debug else { throw DWARFError(.cannotOpen, path: path, detail: "libdwarf returned no session") }
            self.debug = debug
        case DW_DLV_NO_ENTRY:
            throw DWARFError(.noDebugInfo, path: path, detail: "")
        default:
            let message = error.map { String(cString: dwarf_errmsg($0)) } ?? "unknown libdwarf error"
            if let error { dwarf_dealloc_error(nil, error) }
            throw DWARFError(.cannotOpen, path: path, detail: message)
        }
    }

    deinit {
        dwarf_finish(debug, nil)
        if let sliceDescriptor { close(sliceDescriptor) }
    }

    /// An in-memory file holding `slice` of the file at `path`, positioned at its start.
    private static func copy(_ slice: FileSlice, of path: String) throws(DWARFError) -> Int32 {
        func failure(_ what: String) -> DWARFError {
            DWARFError(.cannotOpen, path: path, detail: "\(what): \(String(cString: strerror(errno)))")
        }
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw failure("cannot open") }
        defer { close(source) }
        let target = memfd_create("postmortem-slice", 1 /* MFD_CLOEXEC */)
        guard target >= 0 else { throw failure("cannot make an in-memory file for the slice") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var copied: UInt64 = 0
        while copied < slice.size {
            let want = Int(min(UInt64(buffer.count), slice.size - copied))
            let got = pread(source, buffer.baseAddress, want, off_t(slice.offset + copied))
            guard got > 0, write(target, buffer.baseAddress, got) == got else {
                close(target)
                throw failure("cannot copy the slice at byte \(slice.offset)")
            }
            copied += UInt64(got)
        }
        lseek(target, 0, SEEK_SET)
        return target
    }

    /// A malformed-DWARF error with libdwarf's message, freeing libdwarf's error record.
    func failure(_ error: Dwarf_Error?, _ context: String) -> DWARFError {
        var message = "unknown libdwarf error"
        if let error {
            message = String(cString: dwarf_errmsg(error))
            dwarf_dealloc_error(debug, error)
        }
        return DWARFError(.malformed, path: path, detail: "\(context): \(message)")
    }

    /// Frees an error libdwarf reported where the caller treats failure as "absent".
    func discard(_ error: Dwarf_Error?) {
        if let error { dwarf_dealloc_error(debug, error) }
    }
}
