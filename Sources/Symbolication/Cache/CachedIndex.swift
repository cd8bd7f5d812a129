import DWARF
import ObjectFiles
import PostmortemCore

/// Address lookups read from an index-cache file: no DWARF work at all. A unit whose bytes fail their
/// checksum is read from the DWARF instead (opened on first need), and the file is marked for rebuilding.
final class CachedIndex: AddressIndex {
    let file: IndexCacheFile
    /// Why the file cannot be trusted in full (a damaged unit); `nil` while every unit read was sound.
    private(set) var damage: String?
    private let openDWARF: () -> DWARFIndex?
    private var dwarf: DWARFIndex??
    private var units: [Int: Result<FlatUnit, DWARFError>?] = [:]
    private var records = RecordMemo()

    init(file: IndexCacheFile, openDWARF: @escaping () -> DWARFIndex?) {
        self.file = file
        self.openDWARF = openDWARF
    }

    /// The DWARF index, opened the first time a damaged unit needs it.
    var fallback: DWARFIndex? {
        if let dwarf { return dwarf }
        let opened = openDWARF()
        dwarf = .some(opened)
        return opened
    }

    func lookup(_ address: FileAddress) throws(DWARFError) -> IndexHit? {
        guard let found = file.unitTable.value(containing: address) else { return nil }
        let position = Int(found)
        let stored: Result<FlatUnit, DWARFError>?
        if let known = units[position] { stored = known } else {
            stored = file.unit(at: position)
            units[position] = .some(stored)
            if stored == nil, damage == nil { damage = "\(file.path): unit \(position) is damaged; read from the DWARF, and the file is rebuilt" }
        }
        guard let stored else { return try fallback?.lookup(address) }
        let unit = try stored.get()
        var hit = records.chain(unit: position, indices: unit.functionChainIndices(at: address)) {
            let (record, namePlace) = unit.recordAndNamePlace($0)
            return IndexRecord(record, namePlace: namePlace)
        }
        hit.row = unit.row(containing: address)
        return hit
    }
}
