internal import CLibDwarf

/// Completes function names through `DW_AT_abstract_origin` and `DW_AT_specification`, on demand:
/// following a reference costs a DIE lookup by offset (slow in libdwarf for files with many units), and
/// a lookup needs the names of a few records only. Remembers every DIE it has resolved.
struct FunctionNameResolver {
    /// Origin and specification chains longer than this are cut (they may loop).
    static let maximumReferenceChain = 16

    struct Names {
        var name: String?
        var linkageName: String?
        var declarationLine: Int

        var isComplete: Bool { name != nil && linkageName != nil && declarationLine != 0 }

        mutating func complete(from other: Names) {
            if name == nil { name = other.name }
            if linkageName == nil { linkageName = other.linkageName }
            if declarationLine == 0 { declarationLine = other.declarationLine }
        }
    }

    let reader: DIEReader
    private var namesByOffset: [UInt64: Names] = [:]

    init(reader: DIEReader) {
        self.reader = reader
    }

    /// The names a DIE states itself.
    static func ownNames(_ die: Dwarf_Die, _ reader: DIEReader) -> Names {
        Names(name: reader.string(die, DW_AT_name),
              linkageName: reader.string(die, DW_AT_linkage_name) ?? reader.string(die, DW_AT_MIPS_linkage_name),
              declarationLine: Int(reader.unsigned(die, DW_AT_decl_line) ?? 0))
    }

    /// `record` with the names it lacks taken from its origin chain.
    mutating func completing(_ record: FunctionRecord) -> FunctionRecord {
        guard let origin = record.nameOrigin else { return record }
        var names = Names(name: record.name, linkageName: record.linkageName, declarationLine: record.declarationLine)
        if let found = self.names(at: origin, chain: 1) { names.complete(from: found) }
        var completed = record
        completed.name = names.name
        completed.linkageName = names.linkageName
        completed.declarationLine = names.declarationLine
        completed.nameOrigin = nil
        return completed
    }

    private mutating func names(of die: Dwarf_Die, chain: Int) -> Names {
        var names = Self.ownNames(die, reader)
        guard chain < Self.maximumReferenceChain else { return names }
        for attribute in [DW_AT_abstract_origin, DW_AT_specification] {
            guard !names.isComplete else { break }
            guard let offset = reader.reference(die, attribute), let origin = self.names(at: offset, chain: chain + 1) else { continue }
            names.complete(from: origin)
        }
        return names
    }

    private mutating func names(at offset: UInt64, chain: Int) -> Names? {
        if let cached = namesByOffset[offset] { return cached }
        guard let origin = reader.die(at: offset) else { return nil }
        defer { dwarf_dealloc_die(origin) }
        // Mark the offset first, so a reference cycle ends at the cache.
        namesByOffset[offset] = Names(name: nil, linkageName: nil, declarationLine: 0)
        let names = names(of: origin, chain: chain)
        namesByOffset[offset] = names
        return names
    }
}
