import DWARF
import ObjectFiles

/// What the debug information says about one address: the functions that cover it and its line row.
struct IndexHit {
    /// The subprogram and the inlined copies within it, outermost first, names complete.
    var chain: [FunctionRecord]
    /// For each record of ``chain``, a number that stands for it within its index (unit and position), so a
    /// caller can remember what it worked out from the record; empty when the records have none.
    var chainKeys: [Int] = []
    /// For each record of ``chain``, the demangled name the index cache stored for it, if any; empty when
    /// the records come from DWARF.
    var chainDisplayNames: [String?] = []
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

/// Records of the units an index read, decoded once each: a batch meets the same inlined functions again and
/// again, and decoding a record makes three strings.
struct RecordMemo {
    private var positions: [Int: Int] = [:]
    private var records: [(record: FunctionRecord, displayName: String?)] = []

    /// The number that stands for the record at `index` of the unit at `position`.
    static func key(unit position: Int, record index: Int) -> Int { position << 32 | index }

    /// The chain of records at `indices` in the unit at `position`, each made by `make` (with the display name
    /// stored for it) the first time.
    mutating func chain(unit position: Int, indices: [Int], make: (Int) -> (FunctionRecord, String?)) -> IndexHit {
        var hit = IndexHit(chain: [], row: nil)
        for index in indices {
            let key = Self.key(unit: position, record: index)
            let made: (record: FunctionRecord, displayName: String?)
            if let known = positions[key] { made = records[known] } else {
                made = make(index)
                positions[key] = records.count
                records.append(made)
            }
            hit.chain.append(made.record)
            hit.chainKeys.append(key)
            hit.chainDisplayNames.append(made.displayName)
        }
        return hit
    }
}
