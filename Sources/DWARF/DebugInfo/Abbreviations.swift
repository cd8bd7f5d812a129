import PostmortemCore

/// One attribute of an abbreviation: its form, how its value lies, and the slot it is read into (if any).
struct AttributeSpec {
    let slot: AttributeSlot?
    /// The slot's bit (``AttributeSlot/bit``), 0 for none: the DIE walk tests it for every attribute it meets.
    let bit: UInt32
    let layout: FormLayout
    /// The value's size for ``FormLayout/fixed``.
    let size: UInt8
    let form: UInt16
    /// The value of a `DW_FORM_implicit_const` attribute, which the abbreviation holds.
    let implicitConstant: Int64
}

/// One abbreviation (`.debug_abbrev`): the tag of the DIEs that use it, whether they have children, and where its
/// attributes lie in ``Abbreviations/specs``, in order.
struct Abbreviation {
    let tag: UInt64
    let hasChildren: Bool
    let specs: Range<Int>
    /// The size of every attribute value together when each has a fixed size; `nil` otherwise.
    let fixedSize: Int?
    /// The slots its attributes fill (``AttributeSlot/bit``).
    let slots: UInt32
}

/// A unit's abbreviation table, for the unit's address and offset sizes.
struct Abbreviations {
    /// Abbreviations by code when codes run 1, 2, 3… (compilers number them so); `dense[code - 1]`.
    private var dense: [Abbreviation] = []
    /// Abbreviations with other codes.
    private var sparse: [UInt64: Abbreviation] = [:]
    /// The attributes of every abbreviation, one after the other (one array for the table, not one each).
    private(set) var specs: [AttributeSpec] = []

    /// Why a table could not be read.
    struct Failure: Error {
        var detail: String
    }

    /// The table at `header`'s abbreviation offset in `.debug_abbrev`, for DIEs of `header`'s unit: whole, or up to
    /// the abbreviation numbered `last` (the unit DIE's, when only that DIE is read).
    init(_ section: ByteReader, header: UnitHeader, through last: UInt64? = nil) throws(Failure) {
        var cursor = ByteCursor(section, at: header.abbreviationOffset)
        guard header.abbreviationOffset < section.bytes.count else {
            throw Failure(
                detail:
                    "its abbreviations' offset 0x\(String(header.abbreviationOffset, radix: 16)) is past the end of .debug_abbrev"
            )
        }
        while true {
            guard let code = cursor.uleb() else { throw Failure(detail: "its abbreviation table is cut short") }
            if code == 0 { break }
            guard let tag = cursor.uleb(), let children = cursor.byte() else {
                throw Failure(detail: "abbreviation \(code) is cut short")
            }
            // Reading one unit DIE: the abbreviations before its own are stepped over, not kept (gcc numbers the
            // unit's among the last of hundreds, and a unit list reads thousands of tables).
            if let last, code != last {
                try Self.skipAttributes(of: code, cursor: &cursor)
                continue
            }
            let first = specs.count
            var fixedSize: Int? = 0
            var slots: UInt32 = 0
            while true {
                guard let name = cursor.uleb(), let form = cursor.uleb() else {
                    throw Failure(detail: "abbreviation \(code) is cut short")
                }
                if name == 0, form == 0 { break }
                var constant: Int64 = 0
                if form == AttributeForm.implicitConst {
                    guard let value = cursor.sleb() else { throw Failure(detail: "abbreviation \(code) is cut short") }
                    constant = value
                }
                guard form <= UInt64(UInt16.max),
                    let (layout, size) = AttributeForm.layout(
                        of: form, addressSize: header.addressSize, offsetSize: header.offsetSize,
                        version: header.version)
                else {
                    throw Failure(
                        detail:
                            "abbreviation \(code) uses form 0x\(String(form, radix: 16)), which DWARF does not define")
                }
                let slot = AttributeSlot(attribute: name)
                if let slot { slots |= slot.bit }
                fixedSize = layout == .fixed ? fixedSize.map { $0 + size } : nil
                specs.append(
                    AttributeSpec(
                        slot: slot, bit: slot?.bit ?? 0, layout: layout, size: UInt8(size), form: UInt16(form),
                        implicitConstant: constant))
            }
            let abbreviation = Abbreviation(
                tag: tag, hasChildren: children != 0, specs: first..<specs.count, fixedSize: fixedSize, slots: slots)
            if sparse.isEmpty, code == UInt64(dense.count + 1) {
                dense.append(abbreviation)
            } else if sparse[code] == nil, code > UInt64(dense.count) {
                sparse[code] = abbreviation
            }
            if code == last { break }
        }
    }

    /// Moves `cursor` past the attribute list of abbreviation `code`.
    private static func skipAttributes(of code: UInt64, cursor: inout ByteCursor) throws(Failure) {
        let bytes = cursor.bytes
        var position = cursor.position
        while position + 1 < bytes.count {
            // Most pairs are a one-byte name and a one-byte form: stepped over two bytes at a time.
            let name = bytes[position], form = bytes[position + 1]
            if name | form < 0x80, UInt64(form) != AttributeForm.implicitConst {
                position += 2
                if name == 0, form == 0 {
                    cursor.position = position
                    return
                }
                continue
            }
            cursor.position = position
            guard let name = cursor.uleb(), let form = cursor.uleb() else { break }
            if name == 0, form == 0 { return }
            if form == AttributeForm.implicitConst, cursor.sleb() == nil { break }
            position = cursor.position
        }
        throw Failure(detail: "abbreviation \(code) is cut short")
    }

    /// The abbreviation numbered `code`.
    subscript(code: UInt64) -> Abbreviation? {
        code >= 1 && code <= UInt64(dense.count) ? dense[Int(code - 1)] : sparse[code]
    }
}
