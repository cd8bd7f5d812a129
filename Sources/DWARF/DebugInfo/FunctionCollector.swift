import PostmortemCore

/// Walks one unit's DIE tree in place and records every subprogram with code and every inlined copy, with the
/// names each DIE states itself and, when they are incomplete, the offset of the DIE that completes them
/// (``FunctionNameResolver`` follows it when a record is looked up).
struct FunctionCollector {
    /// Deeper DIE trees are not followed (hostile input); real ones stay far below this.
    static let maximumDepth = 256

    let unit: UnitReader
    let files: [String]
    /// When set, only the subprograms whose code holds one of these addresses are recorded (with everything
    /// nested in them); the others are skipped without reading below them.
    let targets: AddressTargets?
    private(set) var functions: [FunctionRecord] = []
    /// Why the walk stopped early: a DIE whose sibling does not lie after it (`DW_AT_sibling` pointing at itself or
    /// back), which would make the walk go round for ever.
    private(set) var damage: String?
    private var attributes = DIEAttributes()

    init(unit: UnitReader, files: [String], targets: AddressTargets? = nil) {
        self.unit = unit
        self.files = files
        self.targets = targets
    }

    private static let functionSlots = AttributeSlot.mask(
        .sibling, .lowPC, .highPC, .ranges, .name, .linkageName, .mipsLinkageName, .declarationLine,
        .abstractOrigin, .specification, .callFile, .callLine, .callColumn)
    private static let siblingSlot = AttributeSlot.sibling.bit

    private static let subprogram: UInt64 = 0x2E, inlinedSubroutine: UInt64 = 0x1D

    /// Records the functions below the unit DIE.
    mutating func collect() {
        guard let start = unit.childrenStart else { return }
        _ = walkChildren(from: start, enclosingFunction: nil, depth: 0)
    }

    /// Visits the children listed from `start` to their terminating null entry; returns where that list ends, or `nil`
    /// when it could not be read to its end (the walk then stops: libdwarf stopped there too).
    private mutating func walkChildren(from start: Int, enclosingFunction: Int?, depth: Int) -> Int? {
        var position = start
        while damage == nil {
            let dieOffset = position
            var cursor = unit.cursor(at: position)
            guard let code = cursor.uleb() else { return nil }
            if code == 0 { return cursor.position }
            guard let abbreviation = unit.abbreviations[code] else { return nil }
            guard
                let next = visit(
                    abbreviation, at: dieOffset, cursor: &cursor, enclosingFunction: enclosingFunction, depth: depth)
            else { return nil }
            position = next
        }
        return nil
    }

    /// Records what the DIE at `dieOffset` holds; returns where its next sibling starts.
    private mutating func visit(
        _ abbreviation: Abbreviation, at dieOffset: Int, cursor: inout ByteCursor, enclosingFunction: Int?, depth: Int
    ) -> Int? {
        let tag = abbreviation.tag
        if tag == Self.subprogram || tag == Self.inlinedSubroutine {
            guard unit.read(abbreviation, into: &attributes, from: &cursor, wanted: Self.functionSlots) else {
                return nil
            }
            // Most subprograms of a unit read for a few addresses hold none of them: skipped before their ranges are
            // made (an array each), when low and high pc state them.
            if let targets, enclosingFunction == nil, let only = unit.lowHighRange(attributes), !targets.anyIn(only) {
                return skipChildren(abbreviation, at: dieOffset, from: cursor.position)
            }
            let ranges = unit.ranges(attributes)
            // Declarations and abstract instances have no code, and neither does anything below them.
            // A concrete copy may still have an empty range (strict DWARF 2 gives an inlined function
            // whose code is scattered `low_pc == high_pc`) while its children hold the code: keep it.
            let hasCode = !ranges.isEmpty || attributes.has(.lowPC) || attributes.has(.ranges)
            let outsideTargets =
                targets.map { targets in
                    enclosingFunction == nil && !ranges.isEmpty && !ranges.contains(where: targets.anyIn)
                } ?? false
            guard hasCode, !outsideTargets else {
                return skipChildren(abbreviation, at: dieOffset, from: cursor.position)
            }
            let isInlined = tag == Self.inlinedSubroutine
            let names = FunctionNameResolver.ownNames(attributes, in: unit)
            let origin =
                names.isComplete
                ? nil : unit.reference(attributes[.abstractOrigin]) ?? unit.reference(attributes[.specification])
            let index = functions.count
            functions.append(
                FunctionRecord(
                    name: names.name, linkageName: names.linkageName, ranges: ranges, parent: enclosingFunction,
                    depth: enclosingFunction.map { functions[$0].depth + 1 } ?? 0, isInlined: isInlined,
                    callFile: isInlined ? unit.unsigned(attributes[.callFile]).flatMap(file) : nil,
                    callLine: isInlined ? Int(clamping: unit.unsigned(attributes[.callLine]) ?? 0) : 0,
                    callColumn: isInlined ? Int(clamping: unit.unsigned(attributes[.callColumn]) ?? 0) : 0,
                    declarationLine: names.declarationLine, nameOrigin: origin))
            return walkChildrenThenSibling(
                abbreviation, at: dieOffset, from: cursor.position, enclosingFunction: index, depth: depth)
        }
        guard unit.read(abbreviation, into: &attributes, from: &cursor, wanted: Self.siblingSlot) else { return nil }
        if Self.holdsNoCode(tag) {
            return skipChildren(abbreviation, at: dieOffset, from: cursor.position)
        }
        return walkChildrenThenSibling(
            abbreviation, at: dieOffset, from: cursor.position, enclosingFunction: enclosingFunction, depth: depth)
    }

    /// Walks the children of a DIE whose attributes end at `start`; returns where its next sibling starts.
    private mutating func walkChildrenThenSibling(
        _ abbreviation: Abbreviation, at dieOffset: Int, from start: Int, enclosingFunction: Int?, depth: Int
    ) -> Int? {
        guard abbreviation.hasChildren else { return start }
        guard depth + 1 < Self.maximumDepth else { return skipChildren(abbreviation, at: dieOffset, from: start) }
        let sibling = self.sibling(of: dieOffset)
        if case .broken = sibling { return nil }
        let end = walkChildren(from: start, enclosingFunction: enclosingFunction, depth: depth + 1)
        // libdwarf moves to the sibling a DIE names rather than past its children; so does this walk.
        if case .at(let next) = sibling { return next }
        return end
    }

    /// Steps over the children of a DIE whose attributes end at `start`; returns where its next sibling starts.
    private mutating func skipChildren(_ abbreviation: Abbreviation, at dieOffset: Int, from start: Int) -> Int? {
        guard abbreviation.hasChildren else { return start }
        switch sibling(of: dieOffset) {
        case .at(let next): return next
        case .broken: return nil
        case .unnamed: break
        }
        // No sibling named: read through the subtree to the null entry that closes it.
        return unit.endOfChildren(startingAt: start)
    }

    /// Where the DIE just read says its next sibling starts (`DW_AT_sibling`).
    private enum SiblingLink {
        /// It names none: the sibling follows its subtree.
        case unnamed
        case at(Int)
        /// It names one the walk cannot go to: outside the unit, or not after the DIE (recorded as damage).
        case broken
    }

    private mutating func sibling(of dieOffset: Int) -> SiblingLink {
        guard let reference = unit.reference(attributes[.sibling]) else { return .unnamed }
        guard reference > UInt64(dieOffset) else {
            damage =
                "the DIE at 0x\(String(dieOffset, radix: 16)) names 0x\(String(reference, radix: 16)) as its sibling, which does not follow it"
            return .broken
        }
        guard reference < UInt64(unit.header.end) else { return .broken }
        return .at(Int(reference))
    }

    /// Tags below which nothing holds code. Member functions are declared in their types; their code is in a DIE
    /// outside the type that points back with `DW_AT_specification` (gcc, clang and swiftc all do so).
    private static func holdsNoCode(_ tag: UInt64) -> Bool {
        switch tag {
        // parameters, variables, members, types
        case 0x05, 0x18, 0x34, 0x0D, 0x28, 0x24, 0x0F, 0x10, 0x42, 0x26, 0x35, 0x16, 0x01, 0x21, 0x15,
            // enumerations, template parameters, labels, call sites, imports, inheritance
            0x04, 0x2F, 0x30, 0x0A, 0x48, 0x4109, 0x08, 0x3A, 0x1C,
            0x13, 0x02, 0x17: // structures, classes, unions
            return true
        default:
            return false
        }
    }

    private func file(_ index: UInt64) -> String? {
        guard index < files.count, !files[Int(index)].isEmpty else { return nil }
        return files[Int(index)]
    }
}
