internal import CLibDwarf
import ObjectFiles

/// Walks one unit's DIE tree and records every subprogram with code and every inlined copy,
/// with names resolved through `DW_AT_abstract_origin` and `DW_AT_specification`.
struct FunctionCollector {
    /// Deeper DIE trees are not followed (hostile input); real ones stay far below this.
    static let maximumDepth = 256
    /// Origin and specification chains longer than this are cut (they may loop).
    static let maximumReferenceChain = 16

    private struct Names {
        var name: String?
        var linkageName: String?
        var declarationLine: Int
    }

    let reader: DIEReader
    let files: [String]
    private(set) var functions: [FunctionRecord] = []
    private var namesByOffset: [UInt64: Names] = [:]

    init(reader: DIEReader, files: [String]) {
        self.reader = reader
        self.files = files
    }

    /// Records the functions below `unitDIE`.
    mutating func collect(unitDIE: Dwarf_Die) {
        walkChildren(of: unitDIE, enclosingFunction: nil, depth: 0)
    }

    private mutating func walkChildren(of parent: Dwarf_Die, enclosingFunction: Int?, depth: Int) {
        guard depth < Self.maximumDepth, reader.hasChildren(parent) else { return }
        var child: Dwarf_Die?
        var error: Dwarf_Error?
        guard dwarf_child(parent, &child, &error) == DW_DLV_OK else { reader.handle.discard(error); return }
        while let die = child {
            visit(die, enclosingFunction: enclosingFunction, depth: depth)
            var sibling: Dwarf_Die?
            let result = dwarf_siblingof_b(reader.handle.debug, die, 1, &sibling, &error)
            dwarf_dealloc_die(die)
            if result != DW_DLV_OK { reader.handle.discard(error); error = nil; sibling = nil }
            child = sibling
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
            let isInlined = tag == DW_TAG_inlined_subroutine
            let names = resolveNames(die, chain: 0)
            let callFile = isInlined ? reader.unsigned(die, DW_AT_call_file).flatMap(file) : nil
            let index = functions.count
            functions.append(FunctionRecord(
                name: names.name, linkageName: names.linkageName, ranges: ranges, parent: enclosingFunction,
                depth: enclosingFunction.map { functions[$0].depth + 1 } ?? 0, isInlined: isInlined,
                callFile: callFile, callLine: isInlined ? Int(reader.unsigned(die, DW_AT_call_line) ?? 0) : 0,
                callColumn: isInlined ? Int(reader.unsigned(die, DW_AT_call_column) ?? 0) : 0,
                declarationLine: names.declarationLine))
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

    /// The names of a function DIE, completed from the DIEs its origin and specification point to.
    private mutating func resolveNames(_ die: Dwarf_Die, chain: Int) -> Names {
        var names = Names(
            name: reader.string(die, DW_AT_name),
            linkageName: reader.string(die, DW_AT_linkage_name) ?? reader.string(die, DW_AT_MIPS_linkage_name),
            declarationLine: Int(reader.unsigned(die, DW_AT_decl_line) ?? 0))
        guard chain < Self.maximumReferenceChain else { return names }
        for attribute in [DW_AT_abstract_origin, DW_AT_specification] {
            guard names.name == nil || names.linkageName == nil || names.declarationLine == 0 else { break }
            guard let offset = reader.reference(die, attribute), let origin = originNames(at: offset, chain: chain + 1) else { continue }
            if names.name == nil { names.name = origin.name }
            if names.linkageName == nil { names.linkageName = origin.linkageName }
            if names.declarationLine == 0 { names.declarationLine = origin.declarationLine }
        }
        return names
    }

    private mutating func originNames(at offset: UInt64, chain: Int) -> Names? {
        if let cached = namesByOffset[offset] { return cached }
        guard let origin = reader.die(at: offset) else { return nil }
        defer { dwarf_dealloc_die(origin) }
        // Mark the offset first, so a reference cycle ends at the cache.
        namesByOffset[offset] = Names(name: nil, linkageName: nil, declarationLine: 0)
        let names = resolveNames(origin, chain: chain)
        namesByOffset[offset] = names
        return names
    }
}
