import DWARF
import ObjectFiles

/// The DWARF of one debug file arranged for address lookups, built lazily: opening reads the unit
/// list only; a unit's functions and line table are read, and packed into a ``FlatUnit``, the first
/// time an address falls in it.
final class DWARFIndex: AddressIndex {
    let file: DWARFFile
    private let units: [CompileUnit]
    /// Unit ranges to unit positions, as given to the unit table (and to the index cache).
    let unitRanges: [(AddressRange, UInt32)]
    private let unitTable: FlatRangeTable
    /// Units read so far; a unit that failed to read keeps its error, so it is not retried.
    private var loaded: [Int: Result<FlatUnit, DWARFError>] = [:]
    /// The first lookups read only the subprograms that hold their address (a single lookup in a large
    /// unit then costs a fraction of reading the unit); later ones read whole units, which batches share.
    private var targetedLookupsLeft = 4

    init(object: ObjectFile) throws(DWARFError) {
        file = try DWARFFile(object: object)
        units = try file.compileUnits()
        var pairs: [(AddressRange, UInt32)] = []
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
        unitRanges = pairs
        var writer = ByteWriter()
        let count = FlatRangeTable.write(pairs, to: &writer)
        unitTable = FlatRangeTable(bytes: ImmutableBytes(writer.bytes), start: 0, count: count)
    }

    /// How many units the file has.
    var unitCount: Int { units.count }

    /// The unit at `position` (in ``DWARFFile/compileUnits()`` order), read on first use.
    func unit(atPosition position: Int) throws(DWARFError) -> FlatUnit {
        if let cached = loaded[position] { return try cached.get() }
        let result: Result<FlatUnit, DWARFError>
        do { result = .success(try unitForCache(atPosition: position)) } catch { result = .failure(error) }
        loaded[position] = result
        return try result.get()
    }

    /// The unit at `position` for the index cache: the one already read, else read without keeping it
    /// (the cache writer goes through every unit, which need not all stay in memory).
    func unitForCache(atPosition position: Int) throws(DWARFError) -> FlatUnit {
        if let cached = loaded[position] { return try cached.get() }
        guard let unit = FlatUnit(packing: try file.contents(of: units[position])) else {
            throw DWARFError(.malformed, path: file.path, detail: "unit \(position) does not fit the index")
        }
        return unit
    }

    /// The position of the unit that covers `address`.
    func unitPosition(at address: FileAddress) -> Int? {
        unitTable.value(containing: address).map(Int.init)
    }

    func lookup(_ address: FileAddress) throws(DWARFError) -> IndexHit? {
        guard let position = unitPosition(at: address) else { return nil }
        if loaded[position] == nil, targetedLookupsLeft > 0 {
            targetedLookupsLeft -= 1
            if let unit = FlatUnit(packing: try file.contents(of: units[position], at: address)) { return hit(in: unit, at: address) }
        }
        return hit(in: try unit(atPosition: position), at: address)
    }

    private func hit(in unit: FlatUnit, at address: FileAddress) -> IndexHit {
        IndexHit(chain: unit.functionChain(at: address).map(file.completingNames), row: unit.row(containing: address))
    }
}
