import ObjectFiles
import PostmortemCore

/// Reads `.debug_aranges` in place: address ranges and the unit DIE each belongs to. gcc writes it, and it is the
/// only place that names every range of a strict DWARF 2 unit (whose unit DIE covers `.text` only); clang and swiftc
/// do not write it.
///
/// Each set is a header (length, version 2, the offset of its unit's header in `.debug_info`, address and segment
/// sizes) and then, from the first multiple of twice the address size, (segment, address, length) tuples ended by
/// zeros. A set that cannot be read ends the reading; the sets before it count.
enum ArangesReader {
    static func ranges(_ sections: DebugSections, headers: UnitHeaders) -> [(
        range: AddressRange, unitDIEOffset: UInt64
    )] {
        sets(sections, headers: headers).ranges
    }

    /// The ranges, and the unit DIEs a set is given for (a unit with no code has a set with no ranges: it is listed
    /// all the same).
    static func sets(_ sections: DebugSections, headers: UnitHeaders) -> (
        ranges: [(range: AddressRange, unitDIEOffset: UInt64)], units: Set<UInt64>
    ) {
        let section = sections.addressRanges
        var result: [(range: AddressRange, unitDIEOffset: UInt64)] = []
        var units = Set<UInt64>()
        var offset = 0
        while offset < section.bytes.count {
            guard var length = section.u32(at: offset).map(UInt64.init) else { break }
            var cursor = offset + 4
            var offsetSize = 4
            if length == 0xFFFF_FFFF {
                guard let long = section.u64(at: cursor) else { break }
                length = long
                cursor += 8
                offsetSize = 8
            }
            let (setEnd, overflow) = UInt64(cursor).addingReportingOverflow(length)
            guard length > 0, !overflow, setEnd <= UInt64(section.bytes.count) else { break }
            let end = Int(setEnd)
            defer { offset = end }
            guard let version = section.u16(at: cursor), version == 2,
                let unitOffset = section.unsigned(at: cursor + 2, size: offsetSize),
                let addressSize = section.u8(at: cursor + 2 + offsetSize).map(Int.init),
                let segmentSize = section.u8(at: cursor + 3 + offsetSize).map(Int.init),
                addressSize == 4 || addressSize == 8, segmentSize <= 8
            else { continue }
            // The unit's DIE is the one its header leads to; a set naming no unit header is left out.
            guard let header = headers.unit(startingAt: unitOffset) else { continue }
            units.insert(UInt64(header.firstDIE))
            let tupleSize = segmentSize + 2 * addressSize
            var tuple = cursor + 4 + offsetSize
            let alignment = 2 * addressSize
            let fromSetStart = tuple - offset
            if fromSetStart % alignment != 0 { tuple += alignment - fromSetStart % alignment }
            while tuple + tupleSize <= end {
                let position = tuple + segmentSize
                tuple += tupleSize
                guard let start = section.unsigned(at: position, size: addressSize),
                    let size = section.unsigned(at: position + addressSize, size: addressSize)
                else { break }
                let (upper, overflow) = start.addingReportingOverflow(size)
                if size > 0, !overflow {
                    result.append((AddressRange(lowerBound: start, upperBound: upper), UInt64(header.firstDIE)))
                }
            }
        }
        return (result, units)
    }
}
