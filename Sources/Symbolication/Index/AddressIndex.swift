import DWARF
import ObjectFiles

/// What the debug information says about one address: the functions that cover it and its line row.
struct IndexHit {
    /// The subprogram and the inlined copies within it, outermost first, names complete.
    var chain: [FunctionRecord]
    /// The line row that covers the address, its file's path, and where the next row starts.
    var row: (row: LineRow, file: String?, end: FileAddress)?
}

/// Address lookups over the DWARF of one debug file: read lazily from the DWARF itself
/// (``DWARFIndex``), or from the index cache (``CachedIndex``).
protocol AddressIndex: AnyObject {
    /// What covers `address`; `nil` when no unit does.
    /// - Throws: ``DWARFError`` when the unit that covers it cannot be read.
    func lookup(_ address: FileAddress) throws(DWARFError) -> IndexHit?
}
