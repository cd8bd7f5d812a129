import PostmortemCore

/// One unit of `.debug_info` read in place: its header, abbreviations and the bases its unit DIE states, and what
/// the values of its DIEs mean (addresses through `.debug_addr`, strings through `.debug_str_offsets`, references,
/// code ranges).
///
/// Why not libdwarf for this: finding an attribute in libdwarf 20210528 searches the DIE's abbreviation and sizes
/// every value before it, for each attribute asked for, and finding a DIE by offset searches every unit before its own.
struct UnitReader {
    let sections: DebugSections
    let header: UnitHeader
    let abbreviations: Abbreviations
    /// `DW_AT_low_pc` of the unit DIE: the base of its range lists; 0 when absent.
    private(set) var baseAddress: UInt64 = 0
    /// `DW_AT_str_offsets_base`; when the unit states none, just past the header of the section's first contribution
    /// (where libdwarf looks too).
    private(set) var stringOffsetsBase: UInt64
    /// `DW_AT_addr_base` (`DW_AT_GNU_addr_base` before DWARF 5): where the unit's `.debug_addr` entries start.
    private(set) var addressBase: UInt64 = 0
    /// `DW_AT_rnglists_base`: where the unit's range-list offsets start; `DW_FORM_rnglistx` needs it.
    private(set) var rangeListsBase: UInt64?
    /// `DW_AT_stmt_list`: where the unit's line program starts in `.debug_line`.
    private(set) var statementList: UInt64?
    /// The unit DIE's tag and the attributes the unit list reads of it (``compileUnit(withNames:)``).
    let unitTag: UInt64
    let unitAttributes: DIEAttributes
    /// Where the unit DIE's children start; `nil` when it has none.
    let childrenStart: Int?

    /// Why a unit could not be read.
    struct Failure: Error {
        var detail: String
    }

    /// Reads the header of the unit whose DIE starts at `dieOffset`, its abbreviations and its unit DIE.
    init(_ sections: DebugSections, headers: UnitHeaders, unitDIE dieOffset: UInt64) throws(Failure) {
        guard let header = headers.unit(holding: dieOffset), UInt64(header.firstDIE) == dieOffset else {
            throw Failure(detail: "no unit header of .debug_info leads to it")
        }
        try self.init(sections, header: header)
    }

    /// Reads the abbreviations and unit DIE of the unit `header` starts; with `unitDIEOnly`, only as much of the
    /// abbreviation table as the unit DIE needs (a unit's list of compile units reads nothing else).
    init(_ sections: DebugSections, header: UnitHeader, unitDIEOnly: Bool = false) throws(Failure) {
        self.sections = sections
        self.header = header
        var probe = ByteCursor(sections.info, at: header.firstDIE)
        let last = unitDIEOnly ? probe.uleb() : nil
        do {
            abbreviations = try sections.abbreviationTable(of: header, through: last)
        } catch {
            throw Failure(detail: error.detail)
        }
        stringOffsetsBase = UInt64(header.offsetSize == 8 ? 16 : 8)
        var cursor = ByteCursor(sections.info, at: header.firstDIE)
        var attributes = DIEAttributes()
        guard let code = cursor.uleb(), let abbreviation = abbreviations[code] else {
            throw Failure(detail: "its unit DIE has no abbreviation")
        }
        let wanted = AttributeSlot.mask(
            .lowPC, .highPC, .ranges, .statementList, .stringOffsetsBase, .addressBase, .gnuAddressBase,
            .rangeListsBase, .name, .compilationDirectory, .producer)
        guard attributes.read(abbreviation, specs: abbreviations.specs, from: &cursor, in: header, wanted: wanted)
        else {
            throw Failure(detail: "its unit DIE is cut short")
        }
        unitTag = abbreviation.tag
        unitAttributes = attributes
        childrenStart = abbreviation.hasChildren ? cursor.position : nil
        // The bases come first: the unit's own low_pc may be an index into `.debug_addr`.
        if let base = attributes[.stringOffsetsBase] { stringOffsetsBase = base.value }
        if let base = attributes[.addressBase] ?? attributes[.gnuAddressBase] { addressBase = base.value }
        rangeListsBase = attributes[.rangeListsBase]?.value
        baseAddress = address(attributes[.lowPC]) ?? 0
        statementList = attributes[.statementList].flatMap { AttributeForm.isAddress($0.form) ? nil : $0.value }
    }

    /// A cursor over `.debug_info` at `offset`.
    func cursor(at offset: Int) -> ByteCursor { ByteCursor(sections.info, at: offset) }

    /// Reads one DIE's attributes (see ``DIEAttributes/read(_:specs:from:in:wanted:)``).
    func read(
        _ abbreviation: Abbreviation, into attributes: inout DIEAttributes, from cursor: inout ByteCursor,
        wanted: UInt32
    ) -> Bool {
        attributes.read(abbreviation, specs: abbreviations.specs, from: &cursor, in: header, wanted: wanted)
    }

    /// The address an address-class value stands for; `nil` for other forms or an index past `.debug_addr`.
    func address(_ attribute: (form: UInt64, value: UInt64)?) -> UInt64? {
        guard let (form, value) = attribute, AttributeForm.isAddress(form) else { return nil }
        return form == AttributeForm.addr ? value : indexedAddress(value)
    }

    /// Entry `index` of the unit's `.debug_addr` contribution.
    func indexedAddress(_ index: UInt64) -> UInt64? {
        let (scaled, overflow) = index.multipliedReportingOverflow(by: UInt64(header.addressSize))
        let (offset, overflow2) = addressBase.addingReportingOverflow(scaled)
        guard !overflow, !overflow2, offset < UInt64(Int.max) else { return nil }
        return sections.addresses.unsigned(at: Int(offset), size: header.addressSize)
    }

    /// A non-negative constant; `nil` for other forms and negative values.
    func unsigned(_ attribute: (form: UInt64, value: UInt64)?) -> UInt64? {
        guard let (form, value) = attribute, AttributeForm.isConstant(form) else { return nil }
        if AttributeForm.isSigned(form), Int64(bitPattern: value) < 0 { return nil }
        return value
    }

    /// The `.debug_info` offset a reference points to; a reference into the supplementary file (dwz's) is its offset
    /// there tagged with ``SupplementaryDWARF/referenceTag``; `nil` for references into type units, or into a
    /// supplementary file that was not found.
    func reference(_ attribute: (form: UInt64, value: UInt64)?) -> UInt64? {
        guard let (form, value) = attribute else { return nil }
        switch form {
        case AttributeForm.gnuRefAlt, AttributeForm.refSup4, AttributeForm.refSup8:
            guard sections.hasSupplementary, value < SupplementaryDWARF.referenceTag else { return nil }
            return value | SupplementaryDWARF.referenceTag
        case AttributeForm.ref1, AttributeForm.ref2, AttributeForm.ref4, AttributeForm.ref8, AttributeForm.refUData:
            let (offset, overflow) = UInt64(header.offset).addingReportingOverflow(value)
            return overflow ? nil : offset
        case AttributeForm.refAddr:
            return value
        default:
            return nil
        }
    }

    /// The string a string-class value stands for, from the supplementary file for dwz's forms; `nil` for other
    /// forms, and for a supplementary file's string when that file was not found (never a placeholder).
    func string(_ attribute: (form: UInt64, value: UInt64)?) -> String? {
        guard let (form, value) = attribute else { return nil }
        switch form {
        case AttributeForm.gnuStrpAlt, AttributeForm.strpSup:
            guard let supplementary = sections.supplementary else { return nil }
            return Self.string(in: supplementary.sections.strings, at: value)
        case AttributeForm.string: return sections.info.cString(at: Int(clamping: value))?.value
        case AttributeForm.strp: return Self.string(in: sections.strings, at: value)
        case AttributeForm.lineStrp: return Self.string(in: sections.lineStrings, at: value)
        case AttributeForm.strx, AttributeForm.strx1...AttributeForm.strx4, AttributeForm.gnuStrIndex:
            let (scaled, overflow) = value.multipliedReportingOverflow(by: UInt64(header.offsetSize))
            let (entry, overflow2) = stringOffsetsBase.addingReportingOverflow(scaled)
            guard !overflow, !overflow2, entry < UInt64(Int.max),
                let offset = sections.stringOffsets.unsigned(at: Int(entry), size: header.offsetSize)
            else { return nil }
            return Self.string(in: sections.strings, at: offset)
        default:
            return nil
        }
    }

    private static func string(in section: ByteReader, at offset: UInt64) -> String? {
        offset < UInt64(section.bytes.count) ? section.cString(at: Int(offset))?.value : nil
    }
}
