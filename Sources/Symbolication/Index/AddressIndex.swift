import DWARF
import ObjectFiles
import PostmortemCore
import Synchronization

/// What the debug information says about one address: the functions that cover it and its line row.
struct IndexHit {
    /// The subprogram and the inlined copies within it, outermost first, names complete.
    var chain: [IndexRecord]
    /// The line row that covers the address, its file's path, and where the next row starts.
    var row: (row: LineRow, file: String?, end: FileAddress)?
}

/// One function record as an index hands it to lookups, with the name it is shown by: made once per run for a
/// record of a whole unit (``RecordMemo``) and shared by every thread, so the name is worked out (demangled) once.
final class IndexRecord: Sendable {
    let record: FunctionRecord
    /// The name a symbolizer shows for the record (``RecordNaming``); `nil` when it has no name.
    let shownName: String?

    /// - Parameter namePlace: where the debug file holds the record's name, when the index cache stored it in place
    ///   (the same name in another record has the same place, and naming it once serves both).
    init(_ record: FunctionRecord, namePlace: UInt64? = nil, naming: some RecordNaming) {
        self.record = record
        shownName = (record.linkageName ?? record.name).map { naming.shownName($0, place: namePlace) }
    }
}

/// How a symbolizer shows a record's linkage name (demangled or not), given where the debug file holds it when known.
/// A protocol, not a closure: a closure over the symbolizer counted a reference to it on every lookup, and that count,
/// written by every thread, is memory the threads contend for.
protocol RecordNaming {
    func shownName(_ linkageName: String, place: UInt64?) -> String
}

/// How an index decodes the record at an index of a unit's records, named by `naming` (``RecordMemo``).
protocol RecordMaking {
    func record(at index: Int, in unit: FlatUnit, naming: some RecordNaming) -> IndexRecord
}

/// Address lookups over the DWARF of one debug file: read lazily from the DWARF itself (``DWARFIndex``), or from the
/// index cache (``CachedIndex``). Any number of threads look up at once.
protocol AddressIndex: AnyObject, Sendable {
    /// What covers `address`, records named by `naming` the first time they are met; `nil` when no unit does.
    /// - Throws: ``DWARFError`` when the unit that covers it cannot be read.
    func lookup(_ address: FileAddress, naming: some RecordNaming) throws(DWARFError) -> IndexHit?

    /// Makes room in the memos for `count` lookups about to come from several threads.
    func expect(lookups count: Int)
}

/// Records of the units an index read, decoded once each for every thread: a batch meets the same inlined functions
/// again and again, and decoding a record makes three strings and demangles one. A record is made with no lock held;
/// two threads making the same one at once keep the first stored.
struct RecordMemo: ~Copyable, Sendable {
    private let records = ShardedMemo<Int, IndexRecord>()

    /// What a lookup of `address` in `unit` finds: the chain of records that covers it, each decoded by `maker` the
    /// first time, and its line row. `key` names the set of records `unit` holds: a unit's position in an index-cache
    /// file, or the serial of a reading of a unit from DWARF (``UnitStore/Reading/serial``; another reading numbers its
    /// records differently). The maker is a conformance, not a closure: a closure over the index counted a reference
    /// to it on every lookup, a count that every thread writes.
    func hit(
        at address: FileAddress, in unit: FlatUnit, key: Int, maker: some RecordMaking, naming: some RecordNaming
    ) -> IndexHit {
        let indices = unit.functionChainIndices(at: address)
        var hit = IndexHit(chain: [], row: unit.row(containing: address))
        hit.chain.reserveCapacity(indices.count)
        for index in indices {
            let memoKey = key << 32 | index
            if let known = records.value(for: memoKey, shard: memoKey) {
                hit.chain.append(known)
            } else {
                let made = maker.record(at: index, in: unit, naming: naming)
                hit.chain.append(records.keep(made, for: memoKey, shard: memoKey))
            }
        }
        return hit
    }

    /// Makes room for the records of `count` lookups (a record each, and some inlined ones).
    func reserve(_ count: Int) { records.reserve(count + count / 2) }
}
