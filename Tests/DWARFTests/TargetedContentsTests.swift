import DWARF
import ObjectFiles
import Testing
import TestSupport

/// `contents(of:at:)` reads only the subprograms that hold one address: exactly those of the full
/// `contents(of:)` whose top-level record covers it, with everything nested in them, and the line sequences
/// of the full table that hold it.
@Suite("Targeted unit contents")
struct TargetedContentsTests {
    /// What a test compares of a record (parent indices differ between the two readings).
    struct Shape: Hashable {
        var name: String?, linkageName: String?, ranges: [AddressRange], depth: Int, isInlined: Bool
        var callFile: String?, callLine: Int, callColumn: Int

        init(_ record: FunctionRecord) {
            (name, linkageName, ranges, depth, isInlined) = (record.name, record.linkageName, record.ranges, record.depth, record.isInlined)
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
                #expect(targeted.lineTable.sequences == holding && targeted.lineTable.files == full.lineTable.files)
                checked += 1
                if !holding.isEmpty { withRows += 1 }
            }
        }
        #expect(checked >= 8)
        #expect(withRows >= 8, "most addresses lie in a line sequence")
    }
}
