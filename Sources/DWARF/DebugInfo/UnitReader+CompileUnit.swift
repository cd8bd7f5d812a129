import PostmortemCore

extension UnitReader {
    private static let compileUnitTag: UInt64 = 0x11, partialUnitTag: UInt64 = 0x3C, skeletonUnitTag: UInt64 = 0x4A

    /// What the unit DIE says of the unit: its name, directory, producer and code ranges; `nil` when the unit DIE is
    /// not a compile, partial or skeleton unit. Without `withNames`, name and producer are left out.
    func compileUnit(withNames: Bool) -> CompileUnit? {
        guard [Self.compileUnitTag, Self.partialUnitTag, Self.skeletonUnitTag].contains(unitTag) else { return nil }
        return CompileUnit(
            dieOffset: UInt64(header.firstDIE), version: header.version,
            name: withNames ? string(unitAttributes[.name]) : nil,
            compilationDirectory: string(unitAttributes[.compilationDirectory]),
            producer: withNames ? string(unitAttributes[.producer]) : nil,
            ranges: ranges(unitAttributes))
    }
}
