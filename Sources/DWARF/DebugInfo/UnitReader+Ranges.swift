import PostmortemCore

extension UnitReader {
    /// The code addresses a DIE states: `DW_AT_low_pc` with `DW_AT_high_pc` (an address, or a length when a constant),
    /// else `DW_AT_ranges`. Empty ranges are dropped.
    /// The one non-empty range `DW_AT_low_pc` and `DW_AT_high_pc` give, when they give one: what ``ranges(_:)``
    /// answers for such a DIE, without making an array.
    func lowHighRange(_ attributes: DIEAttributes) -> AddressRange? {
        guard let low = address(attributes[.lowPC]), let high = attributes[.highPC] else { return nil }
        let end = AttributeForm.isConstant(high.form) ? low &+ high.value : address(high)
        guard let end, end > low else { return nil }
        return AddressRange(lowerBound: low, upperBound: end)
    }

    func ranges(_ attributes: DIEAttributes) -> [AddressRange] {
        if let low = address(attributes[.lowPC]), let high = attributes[.highPC] {
            let end: UInt64?
            if AttributeForm.isConstant(high.form) { end = low &+ high.value } else { end = address(high) }
            if let end { return end > low ? [AddressRange(lowerBound: low, upperBound: end)] : [] }
        }
        // A unit with `DW_AT_low_pc` and `DW_AT_ranges`: low_pc is only the ranges' base.
        guard let list = attributes[.ranges] else { return [] }
        return header.version >= 5 ? rangeList(list) : legacyRanges(at: list.value)
    }

    /// DWARF 5 `.debug_rnglists` (DWARF 5, 2.17.3): `DW_FORM_rnglistx` indexes the offsets after the unit's
    /// `DW_AT_rnglists_base`; other forms are offsets into the section.
    private func rangeList(_ list: (form: UInt64, value: UInt64)) -> [AddressRange] {
        let lists = sections.rangeLists
        var offset: UInt64
        if list.form == AttributeForm.rnglistx {
            guard let base = rangeListsBase else { return [] }
            let (scaled, overflow) = list.value.multipliedReportingOverflow(by: UInt64(header.offsetSize))
            let (entry, overflow2) = base.addingReportingOverflow(scaled)
            guard !overflow, !overflow2, entry < UInt64(Int.max),
                let relative = lists.unsigned(at: Int(entry), size: header.offsetSize)
            else { return [] }
            (offset, _) = base.addingReportingOverflow(relative)
        } else {
            offset = list.value
        }
        guard offset < UInt64(lists.bytes.count) else { return [] }
        var cursor = ByteCursor(lists, at: Int(offset))
        var base = baseAddress
        var ranges: [AddressRange] = []
        func add(_ begin: UInt64?, _ end: UInt64?) {
            if let begin, let end, end > begin { ranges.append(AddressRange(lowerBound: begin, upperBound: end)) }
        }
        while let kind = cursor.byte() {
            switch kind {
            case 0x00: // DW_RLE_end_of_list
                return ranges
            case 0x01: // DW_RLE_base_addressx
                guard let index = cursor.uleb() else { return ranges }
                base = indexedAddress(index) ?? base
            case 0x02: // DW_RLE_startx_endx
                guard let start = cursor.uleb(), let end = cursor.uleb() else { return ranges }
                add(indexedAddress(start), indexedAddress(end))
            case 0x03: // DW_RLE_startx_length
                guard let start = cursor.uleb(), let length = cursor.uleb() else { return ranges }
                let begin = indexedAddress(start)
                add(begin, begin.map { $0 &+ length })
            case 0x04: // DW_RLE_offset_pair
                guard let start = cursor.uleb(), let end = cursor.uleb() else { return ranges }
                add(base &+ start, base &+ end)
            case 0x05: // DW_RLE_base_address
                guard let address = cursor.unsigned(header.addressSize) else { return ranges }
                base = address
            case 0x06: // DW_RLE_start_end
                guard let start = cursor.unsigned(header.addressSize), let end = cursor.unsigned(header.addressSize)
                else { return ranges }
                add(start, end)
            case 0x07: // DW_RLE_start_length
                guard let start = cursor.unsigned(header.addressSize), let length = cursor.uleb() else { return ranges }
                add(start, start &+ length)
            default:
                return ranges
            }
        }
        return ranges
    }

    /// DWARF 2–4 `.debug_ranges`: pairs of addresses relative to a base (the unit's low_pc) that an entry whose first
    /// address is all ones changes; a pair of zeros ends the list.
    private func legacyRanges(at offset: UInt64) -> [AddressRange] {
        let section = sections.ranges
        guard offset < UInt64(section.bytes.count) else { return [] }
        var cursor = ByteCursor(section, at: Int(offset))
        let selection: UInt64 = header.addressSize == 8 ? .max : 0xFFFF_FFFF
        var base = baseAddress
        var ranges: [AddressRange] = []
        while let first = cursor.unsigned(header.addressSize), let second = cursor.unsigned(header.addressSize) {
            if first == 0, second == 0 { break }
            if first == selection {
                base = second
                continue
            }
            let begin = base &+ first, end = base &+ second
            if end > begin { ranges.append(AddressRange(lowerBound: begin, upperBound: end)) }
        }
        return ranges
    }
}
