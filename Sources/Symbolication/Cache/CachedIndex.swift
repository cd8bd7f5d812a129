import DWARF
import ObjectFiles
import PostmortemCore
import Synchronization

/// Address lookups read from an index-cache file: no DWARF work at all. A unit whose bytes fail their
/// checksum is read from the DWARF instead (opened on first need), and the file is marked for rebuilding.
final class CachedIndex: AddressIndex {
    let file: IndexCacheFile
    private let openDWARF: @Sendable () -> DWARFIndex?
    private struct State {
        /// Why the file cannot be trusted in full (a damaged unit); `nil` while every unit read was sound.
        var damage: String?
        var dwarf: DWARFIndex??
        var units: [Int: Result<FlatUnit, DWARFError>?] = [:]
    }
    private let state = Mutex(State())
    private let records = RecordMemo()

    func expect(lookups count: Int) { records.reserve(count) }

    init(file: IndexCacheFile, openDWARF: @escaping @Sendable () -> DWARFIndex?) {
        self.file = file
        self.openDWARF = openDWARF
    }

    /// Why the file cannot be trusted in full (a damaged unit); `nil` while every unit read was sound.
    var damage: String? { state.withLock { $0.damage } }

    /// The DWARF index, opened the first time a damaged unit needs it.
    var fallback: DWARFIndex? {
        if let known = state.withLock({ $0.dwarf }) { return known }
        let opened = openDWARF()
        return state.withLock { state in
            if let known = state.dwarf { return known }
            state.dwarf = .some(opened)
            return opened
        }
    }

    func lookup(_ address: FileAddress, naming: some RecordNaming) throws(DWARFError) -> IndexHit? {
        guard let found = file.unitTable.value(containing: address) else { return nil }
        let position = Int(found)
        let stored: Result<FlatUnit, DWARFError>?
        if let known = state.withLock({ $0.units[position] }) {
            stored = known
        } else {
            // Checked once (its checksum), by whichever thread comes first; another one meanwhile checks it too.
            let read = file.unit(at: position)
            state.withLock { state in
                state.units[position] = .some(read)
                if read == nil, state.damage == nil {
                    state.damage =
                        "\(file.path): unit \(position) is damaged; read from the DWARF, and the file is rebuilt"
                }
            }
            stored = read
        }
        guard let stored else { return try fallback?.lookup(address, naming: naming) }
        let unit = try stored.get()
        return records.hit(at: address, in: unit, key: position, maker: self, naming: naming)
    }
}

extension CachedIndex: RecordMaking {
    func record(at index: Int, in unit: FlatUnit, naming: some RecordNaming) -> IndexRecord {
        // Only the name a lookup shows: the file stores names in place, and a plain name beside a linkage name is read
        // for nothing.
        let (record, namePlace) = unit.recordAndNamePlace(index, shownNameOnly: true)
        return IndexRecord(record, namePlace: namePlace, naming: naming)
    }
}
