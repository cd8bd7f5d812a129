internal import CLibDwarf
import ObjectFiles

/// Walks the unit headers of `.debug_info` and reads each compile unit's top-level attributes.
enum UnitHeaderReader {
    static func compileUnits(_ handle: DebugHandle, rangeListsSize: UInt64, withNames: Bool) throws(DWARFError) -> [CompileUnit] {
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
            if let unit = compileUnit(unitDIE, version: Int(version), handle, rangeListsSize: rangeListsSize, withNames: withNames) {
                units.append(unit)
            }
        }
        return units
    }

    /// Reads the attributes of a unit DIE; `nil` when it is not a compile or partial unit. Without `withNames`, the
    /// unit's name and producer are left out.
    static func compileUnit(_ die: Dwarf_Die, version: Int, _ handle: DebugHandle, rangeListsSize: UInt64, withNames: Bool) -> CompileUnit? {
        let probe = DIEReader(handle: handle, version: version, unitBase: 0)
        guard let tag = probe.tag(die), tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit || tag == DW_TAG_skeleton_unit,
              let offset = probe.offset(die) else { return nil }
        var reader = DIEReader(handle: handle, version: version, unitBase: baseAddress(die, handle))
        reader.rangeListsSize = rangeListsSize
        return CompileUnit(
            dieOffset: offset, version: version, name: withNames ? reader.string(die, DW_AT_name) : nil,
            compilationDirectory: reader.string(die, DW_AT_comp_dir), producer: withNames ? reader.string(die, DW_AT_producer) : nil,
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

/// Where libdwarf's walk over unit headers (`dwarf_next_cu_header_d`) stands in one session: the unit it has
/// made current, whose DIEs `dwarf_offdie_b` finds without searching every unit before it.
struct UnitHeaderWalk {
    /// The `.debug_info` range of the current unit (header included); `nil` before the first and after the last.
    private var current: Range<UInt64>?
    /// Where the header the next step reads begins.
    private var nextHeader: UInt64 = 0

    /// Steps the walk past the last unit, so that the next step reads the first unit's header.
    mutating func finish(_ handle: DebugHandle) {
        guard current != nil || nextHeader != 0 else { return }
        while case .unit = Self.step(handle) {}
        self = UnitHeaderWalk()
    }

    /// One step of libdwarf's walk: where the next unit begins (so where the one it made current ends), past the
    /// last unit (the next step starts over), or a failure.
    private enum Step { case unit(next: UInt64), pastLast, failed }

    private static func step(_ handle: DebugHandle) -> Step {
        var next: Dwarf_Unsigned = 0
        var error: Dwarf_Error?
        switch dwarf_next_cu_header_d(handle.debug, 1, nil, nil, nil, nil, nil, nil, nil, nil, &next, nil, &error) {
        case DW_DLV_OK: return .unit(next: next)
        case DW_DLV_NO_ENTRY: return .pastLast
        default:
            handle.discard(error)
            return .failed
        }
    }

    /// Steps the walk until the current unit holds `dieOffset`: forward from the current unit, or to the end and
    /// over from the start. When no unit holds it, the walk stops where it finds that out.
    mutating func move(_ handle: DebugHandle, toUnitHolding dieOffset: UInt64) {
        if let current, current.contains(dieOffset) { return }
        var startedOver = false
        while true {
            let next: UInt64
            switch Self.step(handle) {
            case .pastLast:
                // The next step starts over at the first unit.
                current = nil
                nextHeader = 0
                if startedOver { return }
                startedOver = true
                continue
            case .unit(let end) where end > nextHeader:
                next = end
            case .unit, .failed:
                self = UnitHeaderWalk()
                return
            }
            let unit = nextHeader..<next
            current = unit
            nextHeader = next
            if unit.contains(dieOffset) { return }
            if unit.lowerBound > dieOffset, startedOver { return }
        }
    }
}
