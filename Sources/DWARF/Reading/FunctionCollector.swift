internal import CLibDwarf
import ObjectFiles

/// Walks one unit's DIE tree and records every subprogram with code and every inlined copy, with the
/// names each DIE states itself and, when they are incomplete, the offset of the DIE that completes them
/// (``FunctionNameResolver`` follows it when a record is looked up).
struct FunctionCollector {
    /// Deeper DIE trees are not followed (hostile input); real ones stay far below this.
    static let maximumDepth = 256

    let reader: DIEReader
    let files: [String]
    /// When set, only the subprograms whose code holds one of these addresses are recorded (with everything
    /// nested in them); the others are skipped without reading below them.
    let targets: AddressTargets?
    private(set) var functions: [FunctionRecord] = []
    /// Why the walk stopped early: a DIE whose sibling does not lie after it (`DW_AT_sibling` pointing at itself or
    /// back), which would make the walk go round for ever.
    private(set) var damage: String?

    init(reader: DIEReader, files: [String], targets: AddressTargets? = nil) {
        self.reader = reader
        self.files = files
        self.targets = targets
    }

    /// Records the functions below `unitDIE`.
    mutating func collect(unitDIE: Dwarf_Die) {
        walkChildren(of: unitDIE, enclosingFunction: nil, depth: 0)
    }

    private mutating func walkChildren(of parent: Dwarf_Die, enclosingFunction: Int?, depth: Int) {
        guard depth < Self.maximumDepth else { return }
        let cycle = reader.forEachChild(of: parent) { die in
            visit(die, enclosingFunction: enclosingFunction, depth: depth)
            return true
        }
        if let cycle {
            damage = damage ?? "the DIE at 0x\(String(cycle.die, radix: 16)) names 0x\(String(cycle.sibling, radix: 16)) as its sibling, which does not follow it"
        }
    }

    private mutating func visit(_ die: Dwarf_Die, enclosingFunction: Int?, depth: Int) {
        guard let tag = reader.tag(die) else { return }
        switch tag {
        case DW_TAG_subprogram, DW_TAG_inlined_subroutine:
            let ranges = reader.ranges(die)
            // Declarations and abstract instances have no code, and neither does anything below them.
            // A concrete copy may still have an empty range (strict DWARF 2 gives an inlined function
            // whose code is scattered `low_pc == high_pc`) while its children hold the code: keep it.
            guard !ranges.isEmpty || reader.hasCodeAddress(die) else { return }
            if let targets, enclosingFunction == nil, !ranges.isEmpty, !ranges.contains(where: targets.anyIn) { return }
            let isInlined = tag == DW_TAG_inlined_subroutine
            let names = FunctionNameResolver.ownNames(die, reader)
            let origin = names.isComplete ? nil : reader.reference(die, DW_AT_abstract_origin) ?? reader.reference(die, DW_AT_specification)
            let callFile = isInlined ? reader.unsigned(die, DW_AT_call_file).flatMap(file) : nil
            let index = functions.count
            functions.append(FunctionRecord(
                name: names.name, linkageName: names.linkageName, ranges: ranges, parent: enclosingFunction,
                depth: enclosingFunction.map { functions[$0].depth + 1 } ?? 0, isInlined: isInlined,
                callFile: callFile, callLine: isInlined ? Int(reader.unsigned(die, DW_AT_call_line) ?? 0) : 0,
                callColumn: isInlined ? Int(reader.unsigned(die, DW_AT_call_column) ?? 0) : 0,
                declarationLine: names.declarationLine, nameOrigin: origin))
            walkChildren(of: die, enclosingFunction: index, depth: depth + 1)
        case DW_TAG_formal_parameter, DW_TAG_variable, DW_TAG_member, DW_TAG_enumerator, DW_TAG_base_type,
             DW_TAG_pointer_type, DW_TAG_reference_type, DW_TAG_rvalue_reference_type, DW_TAG_const_type,
             DW_TAG_volatile_type, DW_TAG_typedef, DW_TAG_array_type, DW_TAG_subrange_type, DW_TAG_subroutine_type,
             DW_TAG_enumeration_type, DW_TAG_template_type_parameter, DW_TAG_template_value_parameter,
             DW_TAG_label, DW_TAG_call_site, DW_TAG_GNU_call_site, DW_TAG_imported_declaration, DW_TAG_imported_module,
             DW_TAG_unspecified_parameters, DW_TAG_inheritance:
            // Nothing below these holds code.
            return
        case DW_TAG_structure_type, DW_TAG_class_type, DW_TAG_union_type:
            // Member functions are declared here; their code is in a DIE outside the type that points
            // back with DW_AT_specification (gcc, clang and swiftc all do so), so nothing below holds code.
            return
        default:
            walkChildren(of: die, enclosingFunction: enclosingFunction, depth: depth + 1)
        }
    }

    private func file(_ index: UInt64) -> String? {
        guard index < files.count, !files[Int(index)].isEmpty else { return nil }
        return files[Int(index)]
    }
}
