import PostmortemCore

extension UnitReader {
    private static let compileUnitTag: UInt64 = 0x11, partialUnitTag: UInt64 = 0x3C, skeletonUnitTag: UInt64 = 0x4A

    /// What the unit DIE says of the unit: its name, directory, producer and code ranges; `nil` when the unit DIE is
    /// not a compile, partial or skeleton unit, or cannot be read. Without `withNames`, name and producer are left out.
    func compileUnit(withNames: Bool) -> CompileUnit? {
        var cursor = cursor(at: header.firstDIE)
        var attributes = DIEAttributes()
        guard let code = cursor.uleb(), let abbreviation = abbreviations[code],
              [Self.compileUnitTag, Self.partialUnitTag, Self.skeletonUnitTag].contains(abbreviation.tag) else { return nil }
        var wanted = AttributeSlot.mask(.compilationDirectory, .lowPC, .highPC, .ranges)
        if withNames { wanted |= AttributeSlot.mask(.name, .producer) }
        guard read(abbreviation, into: &attributes, from: &cursor, wanted: wanted) else { return nil }
        return CompileUnit(
            dieOffset: UInt64(header.firstDIE), version: header.version, name: string(attributes[.name]),
            compilationDirectory: string(attributes[.compilationDirectory]), producer: string(attributes[.producer]),
            ranges: ranges(attributes))
    }
}
