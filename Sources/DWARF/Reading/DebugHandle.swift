internal import CLibDwarf

/// Owns one libdwarf session (`Dwarf_Debug`) and frees it in `deinit`, and nowhere else.
/// libdwarf is not thread-safe: a handle is used from one thread at a time.
final class DebugHandle {
    let path: String
    let debug: Dwarf_Debug

    init(path: String) throws(DWARFError) {
        self.path = path
        var debug: Dwarf_Debug?
        var error: Dwarf_Error?
        let result = dwarf_init_path(path, nil, 0, UInt64(DW_DLC_READ), 0, nil, nil, &debug, nil, 0, nil, &error)
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
