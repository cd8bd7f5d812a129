internal import CLibDwarf
import ObjectFiles
import PostmortemCore

/// Reads attributes of DIEs through libdwarf, for gdb's answers (lookups read DIEs in place: ``UnitReader``). Missing or unreadable attributes read as `nil`:
/// one odd attribute must not cost the rest of a unit.
struct DIEReader {
    let handle: DebugHandle
    /// The unit's DWARF version (rnglists from 5 on).
    let version: Int
    /// The unit's base address (`DW_AT_low_pc` of the unit DIE), the base of DWARF 2–4 range lists.
    let unitBase: UInt64
    /// The size of `.debug_rnglists` as libdwarf reads it (decompressed, where the section header gives the size of
    /// its compressed bytes): libdwarf 20210528 crashes on a range-list offset past it. No limit without the section.
    let rangeListsSize: UInt64

    init(handle: DebugHandle, version: Int, unitBase: UInt64) {
        self.handle = handle
        self.version = version
        self.unitBase = unitBase
        rangeListsSize = handle.access.section(named: ".debug_rnglists").map { UInt64($0.count) } ?? .max
    }

    /// The unit's `DW_AT_low_pc`, the base address of its DWARF 2–4 range lists; 0 when absent.
    static func baseAddress(_ die: Dwarf_Die, _ handle: DebugHandle) -> UInt64 {
        var low: Dwarf_Addr = 0
        var error: Dwarf_Error?
        guard dwarf_lowpc(die, &low, &error) == DW_DLV_OK else { handle.discard(error); return 0 }
        return low
    }

    func tag(_ die: Dwarf_Die) -> Int32? {
        var tag: Dwarf_Half = 0
        var error: Dwarf_Error?
        guard dwarf_tag(die, &tag, &error) == DW_DLV_OK else { handle.discard(error); return nil }
        return Int32(tag)
    }

    func offset(_ die: Dwarf_Die) -> UInt64? {
        var offset: Dwarf_Off = 0
        var error: Dwarf_Error?
        guard dwarf_dieoffset(die, &offset, &error) == DW_DLV_OK else { handle.discard(error); return nil }
        return offset
    }

    func hasChildren(_ die: Dwarf_Die) -> Bool {
        var flag: Dwarf_Half = 0
        return dwarf_die_abbrev_children_flag(die, &flag) == DW_DLV_OK && flag != 0
    }

    /// Calls `body` with each child of `parent` in order until it returns false. Siblings lie one after the other in
    /// the section: the walk stops at one that does not (a `DW_AT_sibling` cycle) and returns the offsets of the DIE
    /// and of the sibling it named; `nil` when the walk ended as it should.
    @discardableResult
    func forEachChild(of parent: Dwarf_Die, _ body: (Dwarf_Die) -> Bool) -> (die: UInt64, sibling: UInt64)? {
        guard hasChildren(parent) else { return nil }
        var child: Dwarf_Die?
        var error: Dwarf_Error?
        guard dwarf_child(parent, &child, &error) == DW_DLV_OK else { handle.discard(error); return nil }
        var previousOffset: UInt64?
        while let die = child {
            let offset = offset(die)
            if let offset, let previousOffset, offset <= previousOffset {
                dwarf_dealloc_die(die)
                return (previousOffset, offset)
            }
            previousOffset = offset
            let goesOn = body(die)
            var sibling: Dwarf_Die?
            let result = goesOn ? dwarf_siblingof_b(handle.debug, die, 1, &sibling, &error) : DW_DLV_NO_ENTRY
            dwarf_dealloc_die(die)
            if result == DW_DLV_ERROR { handle.discard(error); error = nil; sibling = nil }
            child = result == DW_DLV_OK ? sibling : nil
        }
        return nil
    }

    /// A string attribute. Not through `dwarf_die_text`: on a malformed attribute it drops the error record
    /// `dwarf_attr` made, which only the allocation tracking we turn off would free (found by fuzzing).
    func string(_ die: Dwarf_Die, _ attribute: Int32) -> String? {
        withAttribute(die, attribute) { attribute in
            var text: UnsafeMutablePointer<CChar>?
            var error: Dwarf_Error?
            guard dwarf_formstring(attribute, &text, &error) == DW_DLV_OK, let text else { handle.discard(error); return nil }
            return String(cString: text)
        }
    }

    func unsigned(_ die: Dwarf_Die, _ attribute: Int32) -> UInt64? {
        withAttribute(die, attribute) { attribute in
            var value: Dwarf_Unsigned = 0
            var error: Dwarf_Error?
            if dwarf_formudata(attribute, &value, &error) == DW_DLV_OK { return value }
            handle.discard(error)
            var signed: Dwarf_Signed = 0
            error = nil
            if dwarf_formsdata(attribute, &signed, &error) == DW_DLV_OK, signed >= 0 { return UInt64(signed) }
            handle.discard(error)
            return nil
        }
    }

    /// The global `.debug_info` offset a reference attribute points to.
    func reference(_ die: Dwarf_Die, _ attribute: Int32) -> UInt64? {
        withAttribute(die, attribute) { attribute in
            var offset: Dwarf_Off = 0
            var error: Dwarf_Error?
            guard dwarf_global_formref(attribute, &offset, &error) == DW_DLV_OK else { handle.discard(error); return nil }
            return offset
        }
    }

    /// The DIE at a global `.debug_info` offset; the caller deallocates it.
    func die(at offset: UInt64) -> Dwarf_Die? {
        var die: Dwarf_Die?
        var error: Dwarf_Error?
        guard dwarf_offdie_b(handle.debug, offset, 1, &die, &error) == DW_DLV_OK else { handle.discard(error); return nil }
        return die
    }

    /// True when the DIE states code addresses (`DW_AT_low_pc` or `DW_AT_ranges`), even empty ones.
    func hasCodeAddress(_ die: Dwarf_Die) -> Bool {
        for attribute in [DW_AT_low_pc, DW_AT_ranges] {
            var present: Dwarf_Bool = 0
            var error: Dwarf_Error?
            if dwarf_hasattr(die, Dwarf_Half(attribute), &present, &error) == DW_DLV_OK, present != 0 { return true }
            handle.discard(error)
        }
        return false
    }

    /// The code addresses of a DIE: `DW_AT_low_pc`/`DW_AT_high_pc`, or `DW_AT_ranges`. Empty ranges are dropped.
    func ranges(_ die: Dwarf_Die) -> [AddressRange] {
        var low: Dwarf_Addr = 0
        var error: Dwarf_Error?
        if dwarf_lowpc(die, &low, &error) == DW_DLV_OK {
            var high: Dwarf_Addr = 0
            var form: Dwarf_Half = 0
            var formClass = DW_FORM_CLASS_UNKNOWN
            if dwarf_highpc_b(die, &high, &form, &formClass, &error) == DW_DLV_OK {
                if formClass == DW_FORM_CLASS_CONSTANT { high = low &+ high }
                return high > low ? [AddressRange(lowerBound: low, upperBound: high)] : []
            }
            // A unit with `DW_AT_low_pc` and `DW_AT_ranges`: low_pc is only the ranges' base.
        }
        handle.discard(error)
        return withAttribute(die, DW_AT_ranges) { attribute in
            version >= 5 ? rangeList(attribute) : legacyRanges(attribute, die)
        } ?? []
    }

    /// DWARF 5 `.debug_rnglists`, through libdwarf's cooked (base-applied, `addrx`-resolved) values.
    private func rangeList(_ attribute: Dwarf_Attribute) -> [AddressRange] {
        var form: Dwarf_Half = 0
        var error: Dwarf_Error?
        guard dwarf_whatform(attribute, &form, &error) == DW_DLV_OK else { handle.discard(error); return [] }
        var value: Dwarf_Unsigned = 0
        let read = Int32(form) == DW_FORM_rnglistx
            ? dwarf_formudata(attribute, &value, &error)
            : dwarf_global_formref(attribute, &value, &error)
        guard read == DW_DLV_OK else { handle.discard(error); return [] }
        if Int32(form) != DW_FORM_rnglistx, value >= rangeListsSize { return [] }
        var head: Dwarf_Rnglists_Head?
        var count: Dwarf_Unsigned = 0
        var globalOffset: Dwarf_Unsigned = 0
        guard dwarf_rnglists_get_rle_head(attribute, form, value, &head, &count, &globalOffset, &error) == DW_DLV_OK,
              let head else { handle.discard(error); return [] }
        defer { dwarf_dealloc_rnglists_head(head) }
        var ranges: [AddressRange] = []
        for index in 0..<count {
            var length: UInt32 = 0
            var code: UInt32 = 0
            var raw1: Dwarf_Unsigned = 0, raw2: Dwarf_Unsigned = 0
            var unavailable: Dwarf_Bool = 0
            var begin: Dwarf_Unsigned = 0, end: Dwarf_Unsigned = 0
            guard dwarf_get_rnglists_entry_fields_a(head, index, &length, &code, &raw1, &raw2, &unavailable, &begin, &end, &error) == DW_DLV_OK else {
                handle.discard(error)
                break
            }
            switch Int32(code) {
            case DW_RLE_startx_endx, DW_RLE_startx_length, DW_RLE_offset_pair, DW_RLE_start_end, DW_RLE_start_length:
                if unavailable == 0, end > begin { ranges.append(AddressRange(lowerBound: begin, upperBound: end)) }
            default:
                continue
            }
        }
        return ranges
    }

    /// DWARF 2–4 `.debug_ranges`: pairs relative to a base address that selection entries change.
    private func legacyRanges(_ attribute: Dwarf_Attribute, _ die: Dwarf_Die) -> [AddressRange] {
        var offset: Dwarf_Off = 0
        var error: Dwarf_Error?
        if dwarf_global_formref(attribute, &offset, &error) != DW_DLV_OK {
            handle.discard(error)
            error = nil
            var value: Dwarf_Unsigned = 0
            guard dwarf_formudata(attribute, &value, &error) == DW_DLV_OK else { handle.discard(error); return [] }
            offset = value
        }
        var entries: UnsafeMutablePointer<Dwarf_Ranges>?
        var count: Dwarf_Signed = 0
        var byteCount: Dwarf_Unsigned = 0
        var realOffset: Dwarf_Off = 0
        guard dwarf_get_ranges_b(handle.debug, offset, die, &realOffset, &entries, &count, &byteCount, &error) == DW_DLV_OK,
              let entries else { handle.discard(error); return [] }
        defer { dwarf_ranges_dealloc(handle.debug, entries, count) }
        var base = unitBase
        var ranges: [AddressRange] = []
        for entry in UnsafeBufferPointer(start: entries, count: Int(max(count, 0))) {
            switch entry.dwr_type {
            case DW_RANGES_ENTRY:
                let begin = base &+ entry.dwr_addr1, end = base &+ entry.dwr_addr2
                if end > begin { ranges.append(AddressRange(lowerBound: begin, upperBound: end)) }
            case DW_RANGES_ADDRESS_SELECTION:
                base = entry.dwr_addr2
            default:
                break
            }
        }
        return ranges
    }

    private func withAttribute<T>(_ die: Dwarf_Die, _ attribute: Int32, _ body: (Dwarf_Attribute) -> T?) -> T? {
        var found: Dwarf_Attribute?
        var error: Dwarf_Error?
        let result = dwarf_attr(die, Dwarf_Half(attribute), &found, &error)
        guard result == DW_DLV_OK, let found else { handle.discard(error); return nil }
        defer { dwarf_dealloc_attribute(found) }
        return body(found)
    }
}
