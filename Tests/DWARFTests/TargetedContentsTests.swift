import DWARF
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

/// `contents(of:at:)` and `contents(of:holdingAnyOf:)` read only the subprograms that hold their addresses:
/// exactly those of the full `contents(of:)` whose top-level record covers one, with everything nested in them;
/// and of the line table, rows of the full table's sequences that hold one, among them the row that covers each
/// address and the row after it, so that a lookup of each address answers as in the full table.
@Suite("Targeted unit contents")
struct TargetedContentsTests {
    /// What a test compares of a record (parent indices differ between the two readings).
    struct Shape: Hashable {
        var name: String?, linkageName: String?, ranges: [AddressRange], depth: Int, isInlined: Bool
        var callFile: String?, callLine: Int, callColumn: Int

        init(_ record: FunctionRecord) {
            (name, linkageName, ranges, depth, isInlined) = (
                record.name, record.linkageName, record.ranges, record.depth, record.isInlined
            )
            (callFile, callLine, callColumn) = (record.callFile, record.callLine, record.callColumn)
        }
    }

    @Test(arguments: ["inventory-gcc", "inventory-clang", "shapes-swift-O", "sensors-gcc-dwarf5"])
    func targetedReadingKeepsTheSubprogramsThatHoldTheAddress(_ name: String) throws {
        let file = try DWARFFile(path: Fixtures.path(name))
        var checked = 0
        var withRows = 0
        for unit in try file.compileUnits() where !unit.ranges.isEmpty {
            let full = try file.contents(of: unit)
            // The top-level record each record sits under.
            var top: [Int] = []
            for (index, record) in full.functions.enumerated() { top.append(record.parent.map { top[$0] } ?? index) }
            let starts = full.functions.filter { $0.parent == nil }.compactMap(\.lowestAddress)
            for address in starts + starts.compactMap({ $0.advanced(by: 3) }) {
                let targeted = try file.contents(of: unit, at: address)
                let expected = full.functions.enumerated().filter { index, _ in
                    let ranges = full.functions[top[index]].ranges
                    return ranges.isEmpty || ranges.contains { $0.contains(address) }
                }.map { Shape($0.element) }
                #expect(targeted.functions.map(Shape.init) == expected, "\(name) at \(address)")
                let holding = full.lineTable.sequences.filter { $0.range.contains(address) }
                #expect(
                    targeted.lineTable.sequences.map(\.range) == holding.map(\.range)
                        && targeted.lineTable.files == full.lineTable.files)
                #expect(
                    Set(targeted.lineTable.sequences.flatMap(\.rows)).isSubset(
                        of: full.lineTable.sequences.flatMap(\.rows)))
                #expect(Self.sameRow(targeted.lineTable, full.lineTable, at: address), "\(name) at \(address)")
                checked += 1
                if !holding.isEmpty { withRows += 1 }
            }
        }
        #expect(checked >= 8)
        #expect(withRows >= 8, "most addresses lie in a line sequence")
    }

    /// Reading for many addresses at once keeps what a lookup of each of them reads: the same subprograms as the
    /// full reading has over them, and the same covering row and end for each.
    @Test(arguments: ["inventory-gcc", "shapes-swift-O", "sensors-gcc-dwarf5"])
    func readingForManyAddressesAnswersEachAsTheFullUnit(_ name: String) throws {
        let file = try DWARFFile(path: Fixtures.path(name))
        var checked = 0
        var (rowsRead, rowsKept) = (0, 0)
        for unit in try file.compileUnits() where !unit.ranges.isEmpty {
            let full = try file.contents(of: unit)
            let rows = full.lineTable.sequences.flatMap(\.rows)
            // Every fourth row's address and one byte past it, and nothing else.
            let addresses = stride(from: 0, to: rows.count, by: 4).flatMap {
                [rows[$0].address, rows[$0].address.advanced(by: 1) ?? rows[$0].address]
            }
            guard !addresses.isEmpty else { continue }
            let targeted = try file.contents(of: unit, holdingAnyOf: AddressTargets(addresses))
            rowsRead += rows.count
            rowsKept += targeted.lineTable.sequences.reduce(0) { $0 + $1.rows.count }
            for address in addresses {
                #expect(Self.sameRow(targeted.lineTable, full.lineTable, at: address), "\(name) at \(address)")
                let expected = full.functions.filter { $0.parent == nil && $0.ranges.contains { $0.contains(address) } }
                    .map(Shape.init)
                let found = targeted.functions.filter {
                    $0.parent == nil && $0.ranges.contains { $0.contains(address) }
                }.map(Shape.init)
                #expect(found == expected, "\(name) at \(address)")
                checked += 1
            }
        }
        #expect(checked >= 50)
        // Each address needs the row that covers it and the next: about half of the rows, not all.
        #expect(rowsKept < rowsRead * 3 / 4, "\(rowsKept) of \(rowsRead) rows kept")
    }

    static func sameRow(_ targeted: LineTable, _ full: LineTable, at address: FileAddress) -> Bool {
        let (one, other) = (targeted.row(containing: address), full.row(containing: address))
        return one?.row == other?.row && one?.end == other?.end
    }
}
