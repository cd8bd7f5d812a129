internal import CLibDwarf

/// The name gdb gives a C++ function that has no linkage name (`main`): its name and its parameters' types, in the
/// canonical form gdb prints (`main(int, char**)`, `f(char const*, Item&)`), as `dwarf2_physname` computes it.
struct GDBPhysicalName {
    let reader: DIEReader
    /// Deeper type chains are not followed (hostile input).
    static let maximumDepth = 32

    /// The languages gdb computes such names for: C++ in its DWARF flavours.
    static func isCPlusPlus(_ language: UInt64) -> Bool {
        [0x04, 0x19, 0x1A, 0x21].contains(language)  // DW_LANG_C_plus_plus, _03, _11, _14
    }

    /// `name(types…)` for the subprogram `die`.
    func name(of die: Dwarf_Die, named name: String) -> String {
        var parameters: [String] = []
        reader.forEachChild(of: die) { child in
            switch reader.tag(child) {
            case DW_TAG_formal_parameter? where reader.unsigned(child, DW_AT_artificial) != 1:
                parameters.append(typeName(reader.reference(child, DW_AT_type), depth: 0))
            case DW_TAG_unspecified_parameters?:
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
        guard let offset, depth < Self.maximumDepth, let die = reader.die(at: offset) else { return "void" }
        defer { dwarf_dealloc_die(die) }
        let inner = { self.typeName(reader.reference(die, DW_AT_type), depth: depth + 1) }
        switch reader.tag(die) {
        case DW_TAG_pointer_type?: return inner() + "*"
        case DW_TAG_reference_type?: return inner() + "&"
        case DW_TAG_rvalue_reference_type?: return inner() + "&&"
        case DW_TAG_const_type?: return inner() + " const"
        case DW_TAG_volatile_type?: return inner() + " volatile"
        default: return reader.string(die, DW_AT_name) ?? "void"
        }
    }
}
