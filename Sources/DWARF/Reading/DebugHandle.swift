internal import CLibDwarf
import Glibc
import ObjectFiles

/// Owns one libdwarf session (`Dwarf_Debug`) and frees it in `deinit`, and nowhere else.
/// Opening and closing hold ``LibDwarfLock`` (libdwarf keeps library-wide state only then). Not `Sendable`: a session
/// is a C pointer whose reads must not overlap, so a handle stays with one thread, or inside the lock of whoever shares
/// it (``CallFrameTable`` keeps its session in its `Mutex`).
///
/// The session reads its sections through ``SectionAccess`` (`dwarf_object_init_b`): one mapping of the
/// file, any slice of a universal file, decompressed `-gz` sections. Executables and debug files need no
/// relocation, so none is offered.
final class DebugHandle {
    let path: String
    let debug: Dwarf_Debug
    /// The sections libdwarf reads, alive as long as the session; read-only, so sessions share them.
    let access: SectionAccess

    /// Opens a session over the sections `access` holds.
    init(access: SectionAccess, path: String) throws(DWARFError) {
        self.path = path
        self.access = access
        let (debug, failure) = LibDwarfLock.run { () -> (Dwarf_Debug?, DWARFError?) in
            // libdwarf records every allocation in a search tree so that dwarf_finish can free what callers
            // leave behind; that bookkeeping is a fifth of a large unit's read time. Every reader here frees
            // what it asks for, so the tracking is turned off (a library-wide switch, always set the same way).
            dwarf_set_de_alloc_flag(0)
            do throws(DWARFError) { return (try Self.open(access, path: path), nil) } catch { return (nil, error) }
        }
        guard let debug else {
            throw failure ?? DWARFError(.cannotOpen, path: path, detail: "libdwarf returned no session")
        }
        self.debug = debug
    }

    private static func open(_ access: SectionAccess, path: String) throws(DWARFError) -> Dwarf_Debug {
        var debug: Dwarf_Debug?
        var error: Dwarf_Error?
        let result = dwarf_object_init_b(access.interface, nil, nil, UInt32(DW_GROUPNUMBER_ANY), &debug, &error)
        switch result {
        case DW_DLV_OK:
            guard let debug else { throw DWARFError(.cannotOpen, path: path, detail: "libdwarf returned no session") }
            return debug
        case DW_DLV_NO_ENTRY:
            throw DWARFError(.noDebugInfo, path: path, detail: "")
        default:
            let message = error.map { String(cString: dwarf_errmsg($0)) } ?? "unknown libdwarf error"
            if let error { dwarf_dealloc_error(nil, error) }
            throw DWARFError(.cannotOpen, path: path, detail: message)
        }
    }

    deinit {
        // dwarf_finish would look at the first byte of the access object to tell libdwarf's own loaders
        // apart; dwarf_object_finish frees the session and leaves the access object to its owner.
        LibDwarfLock.run { _ = dwarf_object_finish(debug, nil) }
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
