import DWARF
import ObjectFiles

/// The DWARF of one debug file arranged for address lookups, built lazily: opening reads the unit
/// list only; a unit's functions and line table are read the first time an address falls in it.
final class DWARFIndex {
    let file: DWARFFile
    private let units: [CompileUnit]
    private let unitsByAddress: RangeMap<Int>
    /// Units read so far; a unit that failed to read keeps its error, so it is not retried.
    private var loaded: [Int: Result<UnitIndex, DWARFError>] = [:]

    init(object: ObjectFile) throws(DWARFError) {
        file = try DWARFFile(object: object)
        units = try file.compileUnits()
        var pairs: [(AddressRange, Int)] = []
        var unitsByOffset: [UInt64: Int] = [:]
        for (index, unit) in units.enumerated() {
            unitsByOffset[unit.dieOffset] = index
            for range in unit.ranges { pairs.append((range, index)) }
        }
        // `.debug_aranges` adds what a unit DIE leaves out (strict DWARF 2 names only one range);
        // a range both give appears twice, which the lookup does not mind.
        for entry in file.addressRangesByUnit() {
            if let index = unitsByOffset[entry.unitDIEOffset] { pairs.append((entry.range, index)) }
        }
        unitsByAddress = RangeMap(pairs)
    }

    /// The index of the unit that covers `address`, read on first use; `nil` when no unit covers it.
    /// - Complexity: O(log units) once the unit is read.
    func unit(at address: FileAddress) throws(DWARFError) -> UnitIndex? {
        guard let position = unitsByAddress.value(containing: address) else { return nil }
        if let cached = loaded[position] { return try cached.get() }
        let result: Result<UnitIndex, DWARFError>
        do { result = .success(UnitIndex(contents: try file.contents(of: units[position]))) } catch { result = .failure(error) }
        loaded[position] = result
        return try result.get()
    }
}
