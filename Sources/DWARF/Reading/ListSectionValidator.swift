import ObjectFiles

/// Checks the unit headers of `.debug_rnglists` and `.debug_loclists` before libdwarf sees them: Debian's
/// libdwarf 20210528 frees memory twice inside `dwarf_next_cu_header_d` when such a header is malformed
/// (bad length, version or address size), and reads wherever an entry of the offsets array points
/// (`dwarf_rnglists_get_rle_head`), both of which kill the process. A file that fails is not given to libdwarf.
enum ListSectionValidator {
    /// The first problem in the list sections libdwarf would read through `access`, in words, or `nil`
    /// when they are sound (or absent).
    static func problem(in access: SectionAccess, object: ObjectFile) -> String? {
        for suffix in ["rnglists", "loclists"] {
            guard let bytes = access.section(named: ".debug_" + suffix) else { continue }
            if let problem = problem(inListSection: bytes) { return "\(object.dwarfSectionName(suffix)): \(problem)" }
        }
        return nil
    }

    /// Walks the unit headers of one list section (DWARF 5, section 7.28/7.29).
    static func problem(inListSection bytes: UnsafeRawBufferPointer) -> String? {
        var offset = 0
        // Little-endian: the targets this tool reads (x86_64, arm64) are.
        func read(_ size: Int, at position: Int) -> UInt64? {
            guard position >= 0, position + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in 0..<size { value |= UInt64(bytes[position + index]) << (8 * index) }
            return value
        }
        while offset < bytes.count {
            guard var length = read(4, at: offset) else { return "unit header at offset \(offset) is cut short" }
            var headerStart = offset + 4
            var offsetSize: UInt64 = 4
            if length == 0xFFFF_FFFF {
                guard let wide = read(8, at: offset + 4) else { return "unit header at offset \(offset) is cut short" }
                length = wide
                headerStart = offset + 12
                offsetSize = 8
            } else if length >= 0xFFFF_FFF0 {
                return "unit at offset \(offset) has the reserved length 0x\(String(length, radix: 16))"
            }
            guard length >= 8, length <= UInt64(bytes.count - headerStart) else {
                return
                    "unit at offset \(offset) claims \(length) bytes, past the end of the \(bytes.count)-byte section"
            }
            guard let version = read(2, at: headerStart), version == 5 else {
                return "unit at offset \(offset) has version \(read(2, at: headerStart) ?? 0), not 5"
            }
            guard let addressSize = read(1, at: headerStart + 2), addressSize == 4 || addressSize == 8 else {
                return "unit at offset \(offset) has address size \(read(1, at: headerStart + 2) ?? 0)"
            }
            guard read(1, at: headerStart + 3) == 0 else { return "unit at offset \(offset) uses segment selectors" }
            guard let count = read(4, at: headerStart + 4),
                count.multipliedReportingOverflow(by: offsetSize).partialValue + 8 <= length,
                !count.multipliedReportingOverflow(by: offsetSize).overflow
            else {
                return "unit at offset \(offset) lists more offsets than it has bytes"
            }
            // `DW_FORM_rnglistx`/`loclistx` index this array, and libdwarf reads wherever an entry points
            // (a SEGV on one found by fuzzing): every entry must stay inside its unit. Entries are relative to
            // the array's start, which lies 8 bytes into the unit's header.
            let arrayStart = headerStart + 8
            let unitEnd = headerStart + Int(length)
            for index in 0..<Int(count) {
                guard let entry = read(Int(offsetSize), at: arrayStart + index * Int(offsetSize)),
                    entry < UInt64(unitEnd - arrayStart)
                else {
                    return "unit at offset \(offset) has offset entry \(index) past its end"
                }
            }
            offset = unitEnd
        }
        return nil
    }
}
