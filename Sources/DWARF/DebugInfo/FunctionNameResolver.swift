import PostmortemCore
import Synchronization

/// Completes function names through `DW_AT_abstract_origin` and `DW_AT_specification`, on demand: a lookup needs
/// the names of a few records only. Remembers every DIE it has resolved, and every unit it has read a DIE of, for
/// every thread: the DIEs are read in place with no lock held, and only the memos are locked.
final class FunctionNameResolver: Sendable {
    /// Origin and specification chains longer than this are cut (they may loop).
    static let maximumReferenceChain = 16

    struct Names: Sendable {
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
    static let nameSlots = AttributeSlot.mask(
        .name, .linkageName, .mipsLinkageName, .declarationLine, .abstractOrigin, .specification)

    let sections: DebugSections
    let headers: UnitHeaders
    private let namesByOffset = Mutex<[UInt64: Names]>([:])
    /// Units read for their DIEs, by the offset of their header; `nil` for one that could not be read. Boxed: a
    /// reader holds a dozen references, which a copy out of the dictionary retained one by one for every DIE resolved.
    private let units = Mutex<[Int: UnitBox?]>([:])

    private final class UnitBox: Sendable {
        let reader: UnitReader
        init(_ reader: UnitReader) { self.reader = reader }
    }

    init(sections: DebugSections, headers: UnitHeaders) {
        self.sections = sections
        self.headers = headers
    }

    /// The names a DIE states itself, from its attributes as read.
    static func ownNames(_ attributes: DIEAttributes, in unit: UnitReader) -> Names {
        Names(
            name: unit.string(attributes[.name]),
            linkageName: unit.string(attributes[.linkageName]) ?? unit.string(attributes[.mipsLinkageName]),
            declarationLine: Int(clamping: unit.unsigned(attributes[.declarationLine]) ?? 0))
    }

    /// `record` with the names it lacks taken from its origin chain.
    func completing(_ record: FunctionRecord) -> FunctionRecord {
        guard let origin = record.nameOrigin else { return record }
        var names = Names(name: record.name, linkageName: record.linkageName, declarationLine: record.declarationLine)
        var walk = Walk()
        if let found = self.names(at: origin, walk: &walk) { names.complete(from: found) }
        var completed = record
        completed.name = names.name
        completed.linkageName = names.linkageName
        completed.declarationLine = names.declarationLine
        completed.nameOrigin = nil
        return completed
    }

    /// One completion's way through the references: the DIEs on it (a reference back to one of them ends there, as
    /// a cycle would not), and the attributes read, reused from DIE to DIE.
    private struct Walk {
        var visiting: [UInt64] = []
        var attributes = DIEAttributes()
    }

    private func names(at offset: UInt64, walk: inout Walk) -> Names? {
        if offset & SupplementaryDWARF.referenceTag != 0 {
            // The supplementary file's DIEs point within it only: its resolver follows them, with its own memo.
            guard let supplementary = sections.supplementary else { return nil }
            var ownWalk = Walk()
            return supplementary.nameResolver.names(at: offset & ~SupplementaryDWARF.referenceTag, walk: &ownWalk)
        }
        if let cached = namesByOffset.withLock({ $0[offset] }) { return cached }
        guard !walk.visiting.contains(offset), let header = headers.unit(holding: offset), let box = unit(header),
            var (names, references) = Self.ownNamesAndReferences(at: offset, in: box.reader, into: &walk.attributes)
        else { return nil }
        // Another thread resolving the same DIE meanwhile finds what this one finds, and stores the same.
        if walk.visiting.count < Self.maximumReferenceChain {
            walk.visiting.append(offset)
            for case let reference? in references {
                guard !names.isComplete else { break }
                if let origin = self.names(at: reference, walk: &walk) { names.complete(from: origin) }
            }
            walk.visiting.removeLast()
        }
        let found = names
        namesByOffset.withLock { $0[offset] = found }
        return names
    }

    /// The names the DIE at `offset` of `unit` states itself, and its origin and specification references. The reader
    /// is borrowed from its box, not copied (a copy retains each of its references).
    private static func ownNamesAndReferences(
        at offset: UInt64, in unit: UnitReader, into attributes: inout DIEAttributes
    ) -> (Names, [UInt64?])? {
        var cursor = unit.cursor(at: Int(offset))
        guard let code = cursor.uleb(), let abbreviation = unit.abbreviations[code],
            unit.read(abbreviation, into: &attributes, from: &cursor, wanted: nameSlots)
        else { return nil }
        return (
            ownNames(attributes, in: unit),
            [unit.reference(attributes[.abstractOrigin]), unit.reference(attributes[.specification])]
        )
    }

    private func unit(_ header: UnitHeader) -> UnitBox? {
        if let known = units.withLock({ $0[header.offset] }) { return known }
        let unit = (try? UnitReader(sections, header: header)).map(UnitBox.init)
        units.withLock { $0[header.offset] = unit }
        return unit
    }
}
