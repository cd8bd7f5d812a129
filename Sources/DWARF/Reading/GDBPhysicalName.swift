/// The name gdb gives a C++ function that has no linkage name (`main`): its name and its parameters' types, in the
/// canonical form gdb prints (`main(int, char**)`, `f(char const*, Item&)`), as `dwarf2_physname` computes it.
struct GDBPhysicalName {
    /// The unit of the subprogram.
    let unit: UnitReader
    /// The unit that holds a DIE at a `.debug_info` offset (a type may lie in another unit), of the file itself or
    /// (`true`) of its dwz common file (where dwz moves the types units share).
    let unitHolding: (UInt64, Bool) -> UnitReader?
    /// Deeper type chains are not followed (hostile input).
    static let maximumDepth = 32

    /// The languages gdb computes such names for: C++ in its DWARF flavours.
    static func isCPlusPlus(_ language: UInt64) -> Bool {
        [0x04, 0x19, 0x1A, 0x21].contains(language) // DW_LANG_C_plus_plus, _03, _11, _14
    }

    private static let formalParameter: UInt64 = 0x05, unspecifiedParameters: UInt64 = 0x18

    /// `name(types…)` for the subprogram `die`.
    func name(of die: UnitReader.DIE, named name: String) -> String {
        var parameters: [String] = []
        unit.forEachChild(of: die, wanted: AttributeSlot.mask(.type, .artificial)) { child in
            switch child.tag {
            case Self.formalParameter where unit.unsigned(child.attributes[.artificial]) != 1:
                parameters.append(typeName(unit.reference(child.attributes[.type]), from: unit, depth: 0))
            case Self.unspecifiedParameters:
                parameters.append("...")
            default:
                break
            }
            return parameters.count < 64
        }
        return name + "(" + parameters.joined(separator: ", ") + ")"
    }

    /// The type at `offset` (a reference `current` read) as gdb's canonical C++ form writes it: `char const*`,
    /// `int&`, `std::string`.
    private func typeName(_ offset: UInt64?, from current: UnitReader, depth: Int) -> String {
        guard let offset, depth < Self.maximumDepth else { return "void" }
        // A tagged reference leads into the common file; a reference read there stays there.
        let tagged = offset & SupplementaryDWARF.referenceTag != 0
        let inCommonFile = tagged || current.sections.isSupplementaryFile
        let place = offset & ~SupplementaryDWARF.referenceTag
        let sameFile = inCommonFile == current.sections.isSupplementaryFile
        let inCurrentUnit = sameFile && place >= UInt64(current.header.offset) && place < UInt64(current.header.end)
        guard let reader = inCurrentUnit ? current : unitHolding(place, inCommonFile),
            let die = reader.die(at: Int(place), wanted: AttributeSlot.mask(.type, .name))
        else { return "void" }
        let inner = { self.typeName(reader.reference(die.attributes[.type]), from: reader, depth: depth + 1) }
        switch die.tag {
        case 0x0F: return inner() + "*" // DW_TAG_pointer_type
        case 0x10: return inner() + "&" // DW_TAG_reference_type
        case 0x42: return inner() + "&&" // DW_TAG_rvalue_reference_type
        case 0x26: return inner() + " const" // DW_TAG_const_type
        case 0x35: return inner() + " volatile" // DW_TAG_volatile_type
        default: return reader.string(die.attributes[.name]) ?? "void"
        }
    }
}
