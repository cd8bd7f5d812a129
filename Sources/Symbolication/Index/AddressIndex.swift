import DWARF
import ObjectFiles
import PostmortemCore

/// What the debug information says about one address: the functions that cover it and its line row.
struct IndexHit {
    /// The subprogram and the inlined copies within it, outermost first, names complete.
    var chain: [IndexRecord]
    /// The line row that covers the address, its file's path, and where the next row starts.
    var row: (row: LineRow, file: String?, end: FileAddress)?
}

/// One function record as an index hands it to lookups: made once per run for a record of a whole unit
/// (``RecordMemo``), so what a lookup works out from it (the name it shows) is kept with it. Used by the
/// thread of the index that made it only.
final class IndexRecord {
    let record: FunctionRecord
    /// Where the debug file holds the name the record is shown by, when the index cache stored it in place: the same
    /// name in another record has the same place, and demangling it once serves both.
    let namePlace: UInt64?
    /// The name a symbolizer shows for the record, once it has worked it out (``ImageSymbolizer``'s business).
    var shownName: String??

    init(_ record: FunctionRecord, namePlace: UInt64? = nil) {
        self.record = record
        self.namePlace = namePlace
    }
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
    private var records: [Int: IndexRecord] = [:]

    /// The chain of records at `indices` in the unit `unit` names, each made by `make` the first time. `unit` names one
    /// set of records: a unit's position in an index-cache file, or the serial of a reading of a unit from DWARF (``UnitStore/Reading/serial``; another reading numbers its records differently).
    mutating func chain(unit: Int, indices: [Int], make: (Int) -> IndexRecord) -> IndexHit {
        var hit = IndexHit(chain: [], row: nil)
        hit.chain.reserveCapacity(indices.count)
        for index in indices {
            let key = unit << 32 | index
            if let known = records[key] {
                hit.chain.append(known)
            } else {
                let made = make(index)
                records[key] = made
                hit.chain.append(made)
            }
        }
        return hit
    }
}
