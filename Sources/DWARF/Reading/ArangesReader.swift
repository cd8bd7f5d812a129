internal import CLibDwarf
import ObjectFiles
import PostmortemCore

/// Reads `.debug_aranges`: address ranges and the unit DIE each belongs to. gcc writes it, and it is
/// the only place that names every range of a strict DWARF 2 unit (whose unit DIE covers `.text` only);
/// clang and swiftc do not write it.
enum ArangesReader {
    static func ranges(_ handle: DebugHandle) -> [(range: AddressRange, unitDIEOffset: UInt64)] {
        var list: UnsafeMutablePointer<Dwarf_Arange?>?
        var count: Dwarf_Signed = 0
        var error: Dwarf_Error?
        guard dwarf_get_aranges(handle.debug, &list, &count, &error) == DW_DLV_OK, let list else {
            // No section, or one libdwarf rejects: unit DIEs still give their ranges.
            handle.discard(error)
            return []
        }
        var result: [(range: AddressRange, unitDIEOffset: UInt64)] = []
        for entry in UnsafeBufferPointer(start: list, count: Int(max(count, 0))) {
            guard let entry else { continue }
            var segment: Dwarf_Unsigned = 0, segmentEntrySize: Dwarf_Unsigned = 0
            var start: Dwarf_Addr = 0, length: Dwarf_Unsigned = 0
            var unitOffset: Dwarf_Off = 0
            if dwarf_get_arange_info_b(entry, &segment, &segmentEntrySize, &start, &length, &unitOffset, &error) == DW_DLV_OK {
                let (end, overflow) = start.addingReportingOverflow(length)
                if length > 0, !overflow { result.append((AddressRange(lowerBound: start, upperBound: end), unitOffset)) }
            } else {
                handle.discard(error)
                error = nil
            }
            dwarf_dealloc(handle.debug, UnsafeMutableRawPointer(entry), Dwarf_Unsigned(DW_DLA_ARANGE))
        }
        dwarf_dealloc(handle.debug, UnsafeMutableRawPointer(list), Dwarf_Unsigned(DW_DLA_LIST))
        return result
    }
}
