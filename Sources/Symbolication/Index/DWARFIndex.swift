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
    /// The bytes of ``unitTable``, which the table does not keep alive itself.
    private let unitTableBytes: ImmutableBytes
    /// Units read so far.
    private let loaded: UnitStore
    /// How many lookups read only the subprograms that hold their address (``LookupTuning/targetedLookups``).
    private let targetedLookupsLeft = Atomic(LookupTuning.targetedLookups)
    /// Records of whole units decoded so far, names completed.
    private let records = RecordMemo()

    func expect(lookups count: Int) { records.reserve(count) }

    /// Units packed so far: each packing numbers its strings' places apart from every other's.
    private let packings = Atomic<UInt64>(0)

    /// The strings namespace of the next unit packed: top bit set, a number of its own in bits 32 to 62.
    private func nextStringsNamespace() -> UInt64 {
        1 << 63 | (packings.wrappingAdd(1, ordering: .relaxed).oldValue & 0x7FFF_FFFF) << 32
    }

    init(object: ObjectFile, supplementary: ObjectFile?) throws(DWARFError) {
        file = try DWARFFile(object: object, supplementary: supplementary)
        // Units are known by their headers; each one's DIE is read when a lookup first needs the unit.
        units = try file.unitsByHeader()
        // gcc's `.debug_aranges` names every range of every unit: the table comes from it alone, and no unit DIE is
        // read to open the file (a distribution's libc has two thousand units). Without it, from the unit DIEs.
        let pairs: [(AddressRange, UInt32)]
        if let fromAranges = Self.arangesRanges(of: units, file) {
            pairs = fromAranges
        } else {
            pairs = try Self.unitRanges(of: units, file)
        }
        var writer = ByteWriter()
        FlatRangeTable.write(pairs, to: &writer, joiningTouchingRanges: true)
        unitTableBytes = ImmutableBytes(writer.bytes)
        unitTable = FlatRangeTable(bytes: unitTableBytes, at: 0, limit: writer.count)
        loaded = UnitStore()
    }

    /// Unit ranges to unit positions, from the unit DIEs and `.debug_aranges` both, read again when asked (by the
    /// cache writer, once): what an index file holds does not depend on `.debug_aranges` being complete.
    func unitRanges() throws(DWARFError) -> [(AddressRange, UInt32)] {
        try Self.unitRanges(of: units, file)
    }

    /// The ranges the unit DIEs state, and those `.debug_aranges` adds (strict DWARF 2 names only one range in the
    /// unit DIE); a range both give appears twice, which the lookup does not mind.
    private static func unitRanges(of units: [CompileUnit], _ file: DWARFFile) throws(DWARFError) -> [(
        AddressRange, UInt32
    )] {
        let positions = Self.positionsByOffset(units)
        let read = try file.compileUnits(withNames: false, threads: LookupTuning.maximumThreads)
        var pairs: [(AddressRange, UInt32)] = []
        pairs.reserveCapacity(read.reduce(0) { $0 + $1.ranges.count })
        for unit in read {
            guard let position = positions[unit.dieOffset] else { continue }
            for range in unit.ranges { pairs.append((range, position)) }
        }
        for entry in file.addressRangesByUnit() {
            if let position = positions[entry.unitDIEOffset] { pairs.append((entry.range, position)) }
        }
        return pairs
    }

    /// The ranges `.debug_aranges` gives the units, when it has a set for every one of them (empty for a unit with no
    /// code); `nil` otherwise (clang and swiftc write none, dwz's partial units have none).
    private static func arangesRanges(of units: [CompileUnit], _ file: DWARFFile) -> [(AddressRange, UInt32)]? {
        let sets = file.addressRangeSets()
        guard !units.isEmpty, units.allSatisfy({ sets.units.contains($0.dieOffset) }) else { return nil }
        let positions = Self.positionsByOffset(units)
        return sets.ranges.compactMap { entry in positions[entry.unitDIEOffset].map { (entry.range, $0) } }
    }

    private static func positionsByOffset(_ units: [CompileUnit]) -> [UInt64: UInt32] {
        var positions: [UInt64: UInt32] = [:]
        positions.reserveCapacity(units.count)
        for (position, unit) in units.enumerated() { positions[unit.dieOffset] = UInt32(position) }
        return positions
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
        guard let unit = FlatUnit(packing: contents, stringsNamespace: nextStringsNamespace()) else {
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

    func lookup(_ address: FileAddress, naming: some RecordNaming) throws(DWARFError) -> IndexHit? {
        guard let position = unitPosition(at: address) else { return nil }
        // Asked once: a reading handed out counts its unit, a count both threads write.
        let known = loaded.reading(at: position, covering: address)
        if known == nil, targetedLookupsLeft.wrappingSubtract(1, ordering: .relaxed).newValue >= 0 {
            if let unit = FlatUnit(packing: try file.contents(of: units[position], at: address)) {
                // A unit read for one address only: its record positions are its own, so nothing is remembered.
                return IndexHit(
                    chain: unit.functionChain(at: address).map {
                        IndexRecord(file.completingNames($0), naming: naming)
                    },
                    row: unit.row(containing: address))
            }
        }
        let reading =
            known
            ?? loaded.unit(at: position, for: address) {
                readResult(atPosition: position, for: nil, completingNamesAt: nil)
            }
        let unit = try reading.result.get()
        return records.hit(at: address, in: unit, key: reading.serial, maker: self, naming: naming)
    }
}

extension DWARFIndex: RecordMaking {
    func record(at index: Int, in unit: FlatUnit, naming: some RecordNaming) -> IndexRecord {
        let (record, namePlace) = unit.recordAndNamePlace(index)
        // A name completed now, through its origin, is not one of the unit's strings.
        guard record.nameOrigin == nil else { return IndexRecord(file.completingNames(record), naming: naming) }
        return IndexRecord(record, namePlace: namePlace, naming: naming)
    }
}
