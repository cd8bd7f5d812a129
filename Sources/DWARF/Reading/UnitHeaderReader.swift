internal import CLibDwarf
import ObjectFiles

/// Walks the unit headers of `.debug_info` and reads each compile unit's top-level attributes.
enum UnitHeaderReader {
    static func compileUnits(_ handle: DebugHandle, rangeListsSize: UInt64) throws(DWARFError) -> [CompileUnit] {
        var units: [CompileUnit] = []
        while true {
            var version: Dwarf_Half = 0
            var next: Dwarf_Unsigned = 0
            var unitType: Dwarf_Half = 0
            var error: Dwarf_Error?
            let result = dwarf_next_cu_header_d(handle.debug, 1, nil, &version, nil, nil, nil, nil, nil, nil, &next, &unitType, &error)
            if result == DW_DLV_NO_ENTRY { break }
            guard result == DW_DLV_OK else {
                throw handle.failure(error, "unit header after \(units.count) units")
            }
            var unitDIE: Dwarf_Die?
            guard dwarf_siblingof_b(handle.debug, nil, 1, &unitDIE, &error) == DW_DLV_OK, let unitDIE else {
                handle.discard(error)
                continue
            }
            defer { dwarf_dealloc_die(unitDIE) }
            // Type units describe types only; their code lives in the compile units.
            guard Int32(unitType) != DW_UT_type, Int32(unitType) != DW_UT_split_type else { continue }
            if let unit = compileUnit(unitDIE, version: Int(version), handle, rangeListsSize: rangeListsSize) { units.append(unit) }
        }
        return units
    }

    /// Reads the attributes of a unit DIE; `nil` when it is not a compile or partial unit.
    static func compileUnit(_ die: Dwarf_Die, version: Int, _ handle: DebugHandle, rangeListsSize: UInt64) -> CompileUnit? {
        let probe = DIEReader(handle: handle, version: version, unitBase: 0)
        guard let tag = probe.tag(die), tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit || tag == DW_TAG_skeleton_unit,
              let offset = probe.offset(die) else { return nil }
        var reader = DIEReader(handle: handle, version: version, unitBase: baseAddress(die, handle))
        reader.rangeListsSize = rangeListsSize
        return CompileUnit(
            dieOffset: offset, version: version, name: reader.string(die, DW_AT_name),
            compilationDirectory: reader.string(die, DW_AT_comp_dir), producer: reader.string(die, DW_AT_producer),
            ranges: reader.ranges(die))
    }

    /// The unit's `DW_AT_low_pc`, the base address of its DWARF 2–4 range lists; 0 when absent.
    static func baseAddress(_ die: Dwarf_Die, _ handle: DebugHandle) -> UInt64 {
        var low: Dwarf_Addr = 0
        var error: Dwarf_Error?
        guard dwarf_lowpc(die, &low, &error) == DW_DLV_OK else { handle.discard(error); return 0 }
        return low
    }
}
