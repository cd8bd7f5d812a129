/// How the value of an attribute form lies in `.debug_info`, for one unit's address and offset sizes: what a walk
/// needs to step over it without knowing what it means.
enum FormLayout: UInt8 {
    /// `size` bytes.
    case fixed
    case uleb
    case sleb
    /// A NUL-terminated string in place (`DW_FORM_string`).
    case cString
    /// A block whose length comes first, in 1, 2 or 4 bytes or as a ULEB128 number.
    case block1, block2, block4, blockULEB
    /// The form itself comes first, as a ULEB128 number (`DW_FORM_indirect`).
    case indirect
}

/// DWARF attribute forms (`DW_FORM_*`, DWARF 5, 7.5.6, and the GNU extensions compilers write), and what a walk
/// does with each.
enum AttributeForm {
    static let addr: UInt64 = 0x01, block2: UInt64 = 0x03, block4: UInt64 = 0x04, data2: UInt64 = 0x05
    static let data4: UInt64 = 0x06, data8: UInt64 = 0x07, string: UInt64 = 0x08, block: UInt64 = 0x09
    static let block1: UInt64 = 0x0A, data1: UInt64 = 0x0B, flag: UInt64 = 0x0C, sdata: UInt64 = 0x0D
    static let strp: UInt64 = 0x0E, udata: UInt64 = 0x0F, refAddr: UInt64 = 0x10, ref1: UInt64 = 0x11
    static let ref2: UInt64 = 0x12, ref4: UInt64 = 0x13, ref8: UInt64 = 0x14, refUData: UInt64 = 0x15
    static let indirect: UInt64 = 0x16, secOffset: UInt64 = 0x17, exprloc: UInt64 = 0x18, flagPresent: UInt64 = 0x19
    static let strx: UInt64 = 0x1A, addrx: UInt64 = 0x1B, refSup4: UInt64 = 0x1C, strpSup: UInt64 = 0x1D
    static let data16: UInt64 = 0x1E, lineStrp: UInt64 = 0x1F, refSig8: UInt64 = 0x20, implicitConst: UInt64 = 0x21
    static let loclistx: UInt64 = 0x22, rnglistx: UInt64 = 0x23, refSup8: UInt64 = 0x24
    static let strx1: UInt64 = 0x25, strx4: UInt64 = 0x28, addrx1: UInt64 = 0x29, addrx4: UInt64 = 0x2C
    static let gnuAddrIndex: UInt64 = 0x1F01, gnuStrIndex: UInt64 = 0x1F02, gnuRefAlt: UInt64 = 0x1F20,
        gnuStrpAlt: UInt64 = 0x1F21

    /// How `form`'s value lies, and its size when fixed; `nil` for a form DWARF does not define (the unit cannot be
    /// read past it).
    static func layout(of form: UInt64, addressSize: Int, offsetSize: Int, version: Int) -> (
        layout: FormLayout, size: Int
    )? {
        switch form {
        case addr: return (.fixed, addressSize)
        case data1, ref1, flag, strx1, addrx1: return (.fixed, 1)
        case data2, ref2, strx1 + 1, addrx1 + 1: return (.fixed, 2)
        case strx1 + 2, addrx1 + 2: return (.fixed, 3)
        case data4, ref4, refSup4, strx4, addrx4: return (.fixed, 4)
        case data8, ref8, refSig8, refSup8: return (.fixed, 8)
        case data16: return (.fixed, 16)
        case strp, secOffset, lineStrp, strpSup, gnuRefAlt, gnuStrpAlt: return (.fixed, offsetSize)
        case refAddr: return (.fixed, version <= 2 ? addressSize : offsetSize)
        case flagPresent, implicitConst: return (.fixed, 0)
        case udata, refUData, strx, addrx, loclistx, rnglistx, gnuAddrIndex, gnuStrIndex: return (.uleb, 0)
        case sdata: return (.sleb, 0)
        case string: return (.cString, 0)
        case block1: return (.block1, 0)
        case block2: return (.block2, 0)
        case block4: return (.block4, 0)
        case block, exprloc: return (.blockULEB, 0)
        case indirect: return (.indirect, 0)
        default: return nil
        }
    }

    static func isAddress(_ form: UInt64) -> Bool {
        form == addr || form == addrx || (addrx1...addrx4).contains(form) || form == gnuAddrIndex
    }

    static func isConstant(_ form: UInt64) -> Bool {
        switch form {
        case data1, data2, data4, data8, udata, sdata, implicitConst: return true
        default: return false
        }
    }

    /// Forms whose value is signed.
    static func isSigned(_ form: UInt64) -> Bool { form == sdata || form == implicitConst }
}
