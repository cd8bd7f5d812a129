/// The name gdb gives a C++ function that has no linkage name (`main`): its name and its parameters' types, in the
/// canonical form gdb prints (`main(int, char**)`, `f(char const*, Item&)`), as `dwarf2_physname` computes it.
struct GDBPhysicalName {
    /// The unit of the subprogram.
    let unit: UnitReader
    /// The unit that holds a DIE at a `.debug_info` offset (a type may lie in another unit).
    let unitHolding: (UInt64) -> UnitReader?
    /// Deeper type chains are not followed (hostile input).
    static let maximumDepth = 32

    /// The languages gdb computes such names for: C++ in its DWARF flavours.
    static func isCPlusPlus(_ language: UInt64) -> Bool {
        [0x04, 0x19, 0x1A, 0x21].contains(language)  // DW_LANG_C_plus_plus, _03, _11, _14
    }

    private static let formalParameter: UInt64 = 0x05, unspecifiedParameters: UInt64 = 0x18

    /// `name(types…)` for the subprogram `die`.
    func name(of die: UnitReader.DIE, named name: String) -> String {
        var parameters: [String] = []
        unit.forEachChild(of: die, wanted: AttributeSlot.mask(.type, .artificial)) { child in
            switch child.tag {
            case Self.formalParameter where unit.unsigned(child.attributes[.artificial]) != 1:
                parameters.append(typeName(unit.reference(child.attributes[.type]), depth: 0))
            case Self.unspecifiedParameters:
                parameters.append("...")
            default:
                break
            }
            return parameters.count < 64
        }
        return name + "(" + parameters.joined(separator: ", ") + ")"
    }

    /// The type at `offset` as gdb's canonical C++ form writes it: `char const*`, `int&`, `std::string`.
    private func typeName(_ offset: UInt64?, depth: Int) -> String {
        guard let offset, depth < Self.maximumDepth, let reader = offset >= UInt64(unit.header.offset) && offset < UInt64(unit.header.end) ? unit : unitHolding(offset),
              let die = reader.die(at: Int(offset), wanted: AttributeSlot.mask(.type, .name)) else { return "void" }
        let inner = { self.typeName(reader.reference(die.attributes[.type]), depth: depth + 1) }
        switch die.tag {
        case 0x0F: return inner() + "*"          // DW_TAG_pointer_type
        case 0x10: return inner() + "&"          // DW_TAG_reference_type
        case 0x42: return inner() + "&&"         // DW_TAG_rvalue_reference_type
        case 0x26: return inner() + " const"     // DW_TAG_const_type
        case 0x35: return inner() + " volatile"  // DW_TAG_volatile_type
        default: return reader.string(die.attributes[.name]) ?? "void"
        }
    }
}
