import PostmortemCore

/// Completes function names through `DW_AT_abstract_origin` and `DW_AT_specification`, on demand: a lookup needs
/// the names of a few records only. Remembers every DIE it has resolved, and every unit it has read a DIE of.
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

    /// The attributes a name is read from.
    static let nameSlots = AttributeSlot.mask(.name, .linkageName, .mipsLinkageName, .declarationLine, .abstractOrigin, .specification)

    let sections: DebugSections
    private var namesByOffset: [UInt64: Names] = [:]
    /// Units read for their DIEs, by the offset of their header; `nil` for one that could not be read.
    private var units: [Int: UnitReader?] = [:]
    private var attributes = DIEAttributes()

    init(sections: DebugSections) {
        self.sections = sections
    }

    /// The names a DIE states itself, from its attributes as read.
    static func ownNames(_ attributes: DIEAttributes, in unit: UnitReader) -> Names {
        Names(name: unit.string(attributes[.name]),
              linkageName: unit.string(attributes[.linkageName]) ?? unit.string(attributes[.mipsLinkageName]),
              declarationLine: Int(clamping: unit.unsigned(attributes[.declarationLine]) ?? 0))
    }

    /// `record` with the names it lacks taken from its origin chain.
    mutating func completing(_ record: FunctionRecord, headers: UnitHeaders) -> FunctionRecord {
        guard let origin = record.nameOrigin else { return record }
        var names = Names(name: record.name, linkageName: record.linkageName, declarationLine: record.declarationLine)
        if let found = self.names(at: origin, chain: 1, headers: headers) { names.complete(from: found) }
        var completed = record
        completed.name = names.name
        completed.linkageName = names.linkageName
        completed.declarationLine = names.declarationLine
        completed.nameOrigin = nil
        return completed
    }

    private mutating func names(at offset: UInt64, chain: Int, headers: UnitHeaders) -> Names? {
        if let cached = namesByOffset[offset] { return cached }
        guard let header = headers.unit(holding: offset), let unit = unit(header) else { return nil }
        var cursor = unit.cursor(at: Int(offset))
        guard let code = cursor.uleb(), let abbreviation = unit.abbreviations[code],
              unit.read(abbreviation, into: &attributes, from: &cursor, wanted: Self.nameSlots) else { return nil }
        var names = Self.ownNames(attributes, in: unit)
        let references = [unit.reference(attributes[.abstractOrigin]), unit.reference(attributes[.specification])]
        // Mark the offset first, so a reference cycle ends at the cache.
        namesByOffset[offset] = Names(name: nil, linkageName: nil, declarationLine: 0)
        if chain < Self.maximumReferenceChain {
            for case let reference? in references {
                guard !names.isComplete else { break }
                if let origin = self.names(at: reference, chain: chain + 1, headers: headers) { names.complete(from: origin) }
            }
        }
        namesByOffset[offset] = names
        return names
    }

    private mutating func unit(_ header: UnitHeader) -> UnitReader? {
        if let known = units[header.offset] { return known }
        let unit = try? UnitReader(sections, header: header)
        units[header.offset] = unit
        return unit
    }
}
