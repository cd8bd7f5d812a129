import PostmortemCore

/// The header of one unit of `.debug_info` (DWARF 2 to 5, 32- and 64-bit), read in place.
struct UnitHeader: Sendable {
    /// Where the header starts: the unit's offset, which `DW_FORM_ref*` values count from.
    let offset: Int
    /// One past the unit's last byte.
    let end: Int
    /// Where the unit's first DIE starts.
    let firstDIE: Int
    let version: Int
    /// `DW_UT_*` (DWARF 5); `DW_UT_compile` for earlier versions.
    let unitType: UInt8
    /// 4 for 32-bit DWARF, 8 for 64-bit.
    let offsetSize: Int
    let addressSize: Int
    let abbreviationOffset: Int

    static let typeUnit: UInt8 = 0x02, splitTypeUnit: UInt8 = 0x06
    private static let skeletonUnit: UInt8 = 0x04, splitCompileUnit: UInt8 = 0x05

    /// The header at `offset`; `nil` when it is cut short, states an unknown version or address size, or a unit
    /// running past the section.
    init?(in info: ByteReader, at offset: Int) {
        var cursor = ByteCursor(info, at: offset)
        guard var length = cursor.unsigned(4) else { return nil }
        offsetSize = length == 0xFFFF_FFFF ? 8 : 4
        if offsetSize == 8 {
            guard let long = cursor.unsigned(8) else { return nil }
            length = long
        } else if length >= 0xFFFF_FFF0 {
            return nil
        }
        let contentStart = cursor.position
        guard length <= UInt64(info.bytes.count - contentStart), let version = cursor.unsigned(2),
            (2...5).contains(version)
        else { return nil }
        self.offset = offset
        self.end = contentStart + Int(length)
        self.version = Int(version)
        if version >= 5 {
            guard let type = cursor.byte(), let size = cursor.byte(), let abbreviations = cursor.unsigned(offsetSize)
            else { return nil }
            unitType = type
            addressSize = Int(size)
            abbreviationOffset = Int(clamping: abbreviations)
            switch type {
            case Self.skeletonUnit, Self.splitCompileUnit: guard cursor.skip(8) else { return nil }
            case Self.typeUnit, Self.splitTypeUnit: guard cursor.skip(8 + offsetSize) else { return nil }
            default: break
            }
        } else {
            guard let abbreviations = cursor.unsigned(offsetSize), let size = cursor.byte() else { return nil }
            unitType = 0x01
            addressSize = Int(size)
            abbreviationOffset = Int(clamping: abbreviations)
        }
        guard addressSize == 4 || addressSize == 8, cursor.position <= end else { return nil }
        firstDIE = cursor.position
    }

    /// Whether the unit describes types only (DWARF 5 type units), whose code lives in the compile units.
    var describesTypesOnly: Bool { unitType == Self.typeUnit || unitType == Self.splitTypeUnit }
}

/// The headers of every unit of `.debug_info`, in the order of the section, read once; finds the unit of a DIE.
struct UnitHeaders: Sendable {
    let headers: [UnitHeader]
    /// Where a header could not be read, when one could not; the units before it are read.
    let unreadableAt: Int?

    /// Reads headers from the start of `info` until the section ends or a header cannot be read. Zeros after the
    /// last unit (padding some linkers leave) end the section.
    init(_ info: ByteReader) {
        var headers: [UnitHeader] = []
        var offset = 0
        while offset < info.bytes.count, let header = UnitHeader(in: info, at: offset), header.end > offset {
            headers.append(header)
            offset = header.end
        }
        self.headers = headers
        let rest = UnsafeRawBufferPointer(rebasing: info.bytes[min(offset, info.bytes.count)...])
        unreadableAt = rest.allSatisfy { $0 == 0 } ? nil : offset
    }

    /// The unit whose bytes hold the DIE at `dieOffset`.
    /// - Complexity: O(log units).
    func unit(holding dieOffset: UInt64) -> UnitHeader? {
        var low = 0, high = headers.count
        while low < high {
            let middle = (low + high) / 2
            if UInt64(headers[middle].end) <= dieOffset { low = middle + 1 } else { high = middle }
        }
        guard low < headers.count, UInt64(headers[low].firstDIE) <= dieOffset else { return nil }
        return headers[low]
    }

    /// The unit whose header starts at `offset` (as `.debug_aranges` names units).
    /// - Complexity: O(log units).
    func unit(startingAt offset: UInt64) -> UnitHeader? {
        var low = 0, high = headers.count
        while low < high {
            let middle = (low + high) / 2
            if UInt64(headers[middle].offset) < offset { low = middle + 1 } else { high = middle }
        }
        return low < headers.count && UInt64(headers[low].offset) == offset ? headers[low] : nil
    }
}
