internal import CLibDwarf
import ObjectFiles

/// The DWARF of one ELF file or Mach-O debug file, read lazily through libdwarf.
///
/// Opening reads nothing but section headers; ``compileUnits()`` reads one DIE per unit;
/// ``contents(of:)`` reads one unit's functions and line table. Not thread-safe (libdwarf is not):
/// use one instance from one thread at a time.
public final class DWARFFile {
    public let path: String
    private let handle: DebugHandle

    /// Opens the DWARF of the file at `path`.
    /// - Throws: ``DWARFError/Code/noDebugInfo`` when it has none, ``DWARFError/Code/cannotOpen`` when libdwarf cannot read it.
    public init(path: String) throws(DWARFError) {
        self.path = path
        handle = try DebugHandle(path: path)
    }

    /// Every compile unit with the address ranges it covers.
    /// - Complexity: O(units): one DIE each.
    public func compileUnits() throws(DWARFError) -> [CompileUnit] {
        try UnitHeaderReader.compileUnits(handle)
    }

    /// The functions, inlined copies and line table of `unit`.
    /// - Complexity: O(DIEs and line rows of the unit).
    public func contents(of unit: CompileUnit) throws(DWARFError) -> UnitContents {
        var error: Dwarf_Error?
        var unitDIE: Dwarf_Die?
        guard dwarf_offdie_b(handle.debug, unit.dieOffset, 1, &unitDIE, &error) == DW_DLV_OK, let unitDIE else {
            throw handle.failure(error, "unit at offset 0x\(String(unit.dieOffset, radix: 16))")
        }
        defer { dwarf_dealloc_die(unitDIE) }
        let lineTable = try LineTableReader.lineTable(unitDIE, compilationDirectory: unit.compilationDirectory, handle)
        let reader = DIEReader(handle: handle, version: unit.version, unitBase: UnitHeaderReader.baseAddress(unitDIE, handle))
        var collector = FunctionCollector(reader: reader, files: lineTable.files)
        collector.collect(unitDIE: unitDIE)
        return UnitContents(functions: collector.functions, lineTable: lineTable)
    }
}
