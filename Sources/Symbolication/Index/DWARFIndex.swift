import DWARF
import ObjectFiles
import PostmortemCore
import Synchronization

/// The DWARF of one debug file arranged for address lookups, built lazily: opening reads the unit
/// list only; a unit's functions and line table are read, and packed into a ``FlatUnit``, the first
/// time an address falls in it. Any number of threads look up at once: a unit is read by the first
/// that needs it (``UnitStore``), and the others wait for it.
final class DWARFIndex: AddressIndex {
    let file: DWARFFile
    private let units: [CompileUnit]
    private let unitTable: FlatRangeTable
    /// Units read so far.
    private let loaded: UnitStore
    /// How many lookups read only the subprograms that hold their address (``LookupTuning/targetedLookups``).
    private let targetedLookupsLeft = Atomic(LookupTuning.targetedLookups)
    /// Records of whole units decoded so far, names completed.
    private let records = RecordMemo()

    init(object: ObjectFile, supplementary: ObjectFile?) throws(DWARFError) {
        file = try DWARFFile(object: object, supplementary: supplementary)
        var units = try file.compileUnits(withNames: false)
        let pairs = Self.unitRanges(units, file)
        // A Swift binary's units list tens of thousands of ranges: once in the unit table, lookups need no other
        // copy, and the units let theirs go before the table is built.
        for position in units.indices { units[position].ranges = [] }
        self.units = units
        var writer = ByteWriter()
        FlatRangeTable.write(pairs, to: &writer)
        unitTable = FlatRangeTable(bytes: ImmutableBytes(writer.bytes), at: 0, limit: writer.count)
        loaded = UnitStore()
    }

    /// Unit ranges to unit positions, as given to the unit table (and to the index cache), read again from the
    /// unit DIEs when asked (by the cache writer, once).
    func unitRanges() throws(DWARFError) -> [(AddressRange, UInt32)] {
        Self.unitRanges(try file.compileUnits(withNames: false), file)
    }

    private static func unitRanges(_ units: [CompileUnit], _ file: DWARFFile) -> [(AddressRange, UInt32)] {
        var pairs: [(AddressRange, UInt32)] = []
        pairs.reserveCapacity(units.reduce(0) { $0 + $1.ranges.count })
        var unitsByOffset: [UInt64: UInt32] = [:]
        for (index, unit) in units.enumerated() {
            unitsByOffset[unit.dieOffset] = UInt32(index)
            for range in unit.ranges { pairs.append((range, UInt32(index))) }
        }
        // `.debug_aranges` adds what a unit DIE leaves out (strict DWARF 2 names only one range);
        // a range both give appears twice, which the lookup does not mind.
        for entry in file.addressRangesByUnit() {
            if let index = unitsByOffset[entry.unitDIEOffset] { pairs.append((entry.range, index)) }
        }
        return pairs
    }

    /// How many units the file has.
    var unitCount: Int { units.count }

    /// The unit at `position` for the index cache: the one already read whole, else read without keeping it (the
    /// cache writer goes through every unit, which need not all stay in memory).
    func unitForCache(atPosition position: Int) throws(DWARFError) -> FlatUnit {
        if let cached = loaded.unitRead(at: position) { return try cached.get() }
        return try readUnit(atPosition: position, for: nil, completingNamesAt: nil)
    }

    private func readResult(
        atPosition position: Int, for targets: AddressTargets?, completingNamesAt named: AddressTargets?
    ) -> Result<FlatUnit, DWARFError> {
        do throws(DWARFError) {
            return .success(try readUnit(atPosition: position, for: targets, completingNamesAt: named))
        } catch { return .failure(error) }
    }

    /// Reads and packs the unit at `position`: whole, or only what lookups of `targets` need. The records that hold
    /// any of `named` get their names completed, so that lookups of those addresses follow no name reference.
    private func readUnit(
        atPosition position: Int, for targets: AddressTargets?, completingNamesAt named: AddressTargets?
    ) throws(DWARFError) -> FlatUnit {
        var contents: UnitContents
        if let targets {
            contents = try file.contents(of: units[position], holdingAnyOf: targets)
        } else {
            contents = try file.contents(of: units[position])
        }
        if let named {
            for index in contents.functions.indices
            where contents.functions[index].nameOrigin != nil
                && contents.functions[index].ranges.contains(where: named.anyIn)
            {
                contents.functions[index] = file.completingNames(contents.functions[index])
            }
        }
        guard let unit = FlatUnit(packing: contents) else {
            throw DWARFError(.malformed, path: file.path, detail: "unit \(position) does not fit the index")
        }
        return unit
    }

    /// Reads the units `addresses` fall in that no thread has read for them or is reading, starting `lane` / `lanes` of
    /// the way through them: called at once on as many threads, one lane each, it reads the units in parallel and
    /// never the same one twice.
    ///
    /// With `partially`, a unit is read only for the addresses that fall in it: just the subprograms that hold them
    /// and the line rows their lookups read (``DWARFFile/contents(of:holdingAnyOf:)``), a small part of a unit for
    /// a batch that does not hold most of its functions; a lookup of another address reads the unit again, whole,
    /// and a later batch with other addresses in it reads it again for both (``UnitStore``). Without it (when the index cache, which holds every unit
    /// whole, is written next), units are read whole.
    ///
    /// With `partially`, the records the addresses fall in get their names completed meanwhile, while the unit's
    /// bytes are fresh in the caches.
    func readAhead(_ addresses: [FileAddress], lane: Int, of lanes: Int, partially: Bool) {
        var addressesByUnit: [Int: [FileAddress]] = [:]
        for address in addresses {
            if let position = unitPosition(at: address) { addressesByUnit[position, default: []].append(address) }
        }
        let positions = addressesByUnit.keys.sorted()
        guard !positions.isEmpty else { return }
        let start = positions.count * lane / max(lanes, 1)
        for position in positions[start...] + positions[..<start] {
            let targets = AddressTargets(addressesByUnit[position] ?? [])
            loaded.readUnlessCovered(at: position, for: partially ? targets : nil) { wanted in
                // When the index-cache file is written next, units go into it as read: their records keep their
                // names as the DWARF states them, and the cache writer completes them all, so that the file's bytes
                // do not depend on the addresses of the run that wrote it.
                return readResult(atPosition: position, for: wanted, completingNamesAt: partially ? targets : nil)
            }
        }
    }

    /// The position of the unit that covers `address`.
    func unitPosition(at address: FileAddress) -> Int? {
        unitTable.value(containing: address).map(Int.init)
    }

    func lookup(_ address: FileAddress, naming: RecordNaming) throws(DWARFError) -> IndexHit? {
        guard let position = unitPosition(at: address) else { return nil }
        if loaded.reading(at: position, covering: address) == nil,
            targetedLookupsLeft.wrappingSubtract(1, ordering: .relaxed).newValue >= 0
        {
            if let unit = FlatUnit(packing: try file.contents(of: units[position], at: address)) {
                // A unit read for one address only: its record positions are its own, so nothing is remembered.
                return IndexHit(
                    chain: unit.functionChain(at: address).map {
                        IndexRecord(file.completingNames($0), naming: naming)
                    },
                    row: unit.row(containing: address))
            }
        }
        let reading = loaded.unit(at: position, for: address) {
            readResult(atPosition: position, for: nil, completingNamesAt: nil)
        }
        let unit = try reading.result.get()
        var hit = records.chain(unit: reading.serial, indices: unit.functionChainIndices(at: address)) {
            IndexRecord(file.completingNames(unit.record($0)), naming: naming)
        }
        hit.row = unit.row(containing: address)
        return hit
    }
}
