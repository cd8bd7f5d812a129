/// The attributes a walk for code reads, each with a place in ``DIEAttributes``; every other attribute is stepped over.
enum AttributeSlot: Int, CaseIterable {
    case sibling, name, linkageName, mipsLinkageName, lowPC, highPC, ranges, declarationLine
    case abstractOrigin, specification, callFile, callLine, callColumn
    case statementList, stringOffsetsBase, addressBase, rangeListsBase, gnuAddressBase, compilationDirectory, producer
    case type, artificial, language

    /// The slot of the attribute named `name` (`DW_AT_*`); `nil` for one the walk does not read.
    init?(attribute name: UInt64) {
        switch name {
        case 0x01: self = .sibling
        case 0x03: self = .name
        case 0x6E: self = .linkageName
        case 0x2007: self = .mipsLinkageName
        case 0x11: self = .lowPC
        case 0x12: self = .highPC
        case 0x55: self = .ranges
        case 0x3B: self = .declarationLine
        case 0x31: self = .abstractOrigin
        case 0x47: self = .specification
        case 0x58: self = .callFile
        case 0x59: self = .callLine
        case 0x57: self = .callColumn
        case 0x10: self = .statementList
        case 0x72: self = .stringOffsetsBase
        case 0x73: self = .addressBase
        case 0x74: self = .rangeListsBase
        case 0x2133: self = .gnuAddressBase
        case 0x1B: self = .compilationDirectory
        case 0x25: self = .producer
        case 0x49: self = .type
        case 0x34: self = .artificial
        case 0x13: self = .language
        default: return nil
        }
    }

    var bit: UInt32 { 1 << UInt32(rawValue) }

    /// A set of slots as a mask of their bits.
    static func mask(_ slots: AttributeSlot...) -> UInt32 { slots.reduce(0) { $0 | $1.bit } }
}
