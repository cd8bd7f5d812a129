import DWARF
import PostmortemCore

/// Reads the functions of a file's DWARF as ``FunctionTree``s: one per range of each subprogram with code, with its
/// inlined calls and line rows, in the order the units list them (a subprogram nested in another comes first).
struct DWARFFunctionSource {
    let dwarf: DWARFFile
    /// Subtracted from every address: the first loadable segment's (0 for position-independent code).
    let base: UInt64
    /// The symbol table's name of the function starting at an address (relative to `base`), preferred to the DWARF's.
    let symbolNames: [UInt64: String]

    /// Ranges of subprograms already turned into functions: a subprogram several units define (templates folded by the
    /// linker) is written once.
    private var seenRanges: Set<AddressRange> = []
    private(set) var problems: [String] = []
    /// The source paths the functions' records name.
    private(set) var paths = SourcePathTable()

    init(dwarf: DWARFFile, base: UInt64, symbolNames: [UInt64: String]) {
        self.dwarf = dwarf
        self.base = base
        self.symbolNames = symbolNames
    }

    /// Calls `body` with every function, unit by unit (a unit's functions are built, handed over and dropped before
    /// the next unit is read); a unit that cannot be read is reported in ``problems`` and left out.
    mutating func forEachFunction(_ body: (FunctionTree) -> Void) {
        let units: [CompileUnit]
        do { units = try dwarf.compileUnits(withNames: false) } catch {
            problems.append(error.description)
            return
        }
        for unit in units where !unit.ranges.isEmpty {
            do {
                let contents = try dwarf.contents(of: unit)
                for tree in trees(of: contents, compilationDirectory: unit.compilationDirectory ?? "") { body(tree) }
            } catch {
                problems.append(error.description)
            }
        }
    }

    /// Ranges that hold code: linkers mark discarded code with a start of 0 or all ones.
    private static func codeRanges(_ ranges: [AddressRange]) -> [AddressRange] {
        ranges.filter { $0.lowerBound.rawValue != 0 && $0.lowerBound.rawValue < .max - 1 && !$0.isEmpty }
    }

    private mutating func trees(of contents: UnitContents, compilationDirectory: String) -> [FunctionTree] {
        let records = contents.functions
        let fileNumbers = contents.lineTable.files.map { paths.number(of: $0) }
        let noFile = paths.number(of: "")
        let lines = PreparedLineTable(contents.lineTable, fileNumbers: fileNumbers, noFile: noFile)
        let compilationDirectoryNumber = paths.number(of: compilationDirectory)
        // For each record: the builders of the subprogram it belongs to (nil: not written), and its inline depth.
        var owner = [Int?](repeating: nil, count: records.count)
        var inlineDepth = [Int](repeating: 0, count: records.count)
        var builders: [Int: [FunctionTreeBuilder]] = [:]
        var order: [Int] = []
        for (index, record) in records.enumerated() {
            if !record.isInlined {
                var ranges = Self.codeRanges(record.ranges)
                ranges = ranges.filter { seenRanges.insert($0).inserted }
                guard !ranges.isEmpty else { continue }
                let named = dwarf.completingNames(record)
                let start = ranges.map(\.lowerBound.rawValue).min()! &- base
                let name = symbolNames[start] ?? named.linkageName ?? named.name ?? ""
                builders[index] = ranges.map {
                    FunctionTreeBuilder(name: name, address: $0.lowerBound.rawValue &- base, size: $0.size)
                }
                owner[index] = index
                order.append(index)
                continue
            }
            guard let parent = record.parent, let function = owner[parent] else { continue }
            let ranges = Self.codeRanges(record.ranges)
            guard !ranges.isEmpty else { continue }
            owner[index] = function
            inlineDepth[index] = parent == function ? 0 : inlineDepth[parent] + 1
            let named = dwarf.completingNames(record)
            // A call without its file is placed in the compile directory, as dump_syms places it.
            let call = SourcePosition(
                file: record.callFile.map { paths.number(of: $0) } ?? compilationDirectoryNumber,
                line: UInt64(record.callLine))
            for range in ranges {
                let address = range.lowerBound.rawValue &- base
                guard let which = builders[function]?.firstIndex(where: { $0.address <= address && address < $0.end })
                else { continue }
                builders[function]![which].add(
                    InlinedRun(
                        depth: inlineDepth[index], address: address, size: range.size,
                        name: named.linkageName ?? named.name ?? "", call: call))
            }
        }
        // Nested subprograms were listed after the one around them; the functions go out innermost first.
        var trees: [FunctionTree] = []
        for index in Self.nestedFirst(order, records) {
            for var builder in builders[index]! {
                for row in lines.rows(overlapping: builder.address &+ base, builder.end &+ base) {
                    builder.addRow(CodeLine(address: row.address &- base, size: row.size, position: row.position))
                }
                trees.append(builder.build())
            }
        }
        return trees
    }

    /// `order` (subprograms in DIE order) with each subprogram after the ones nested in it, as dump_syms emits them.
    private static func nestedFirst(_ order: [Int], _ records: [FunctionRecord]) -> [Int] {
        var result: [Int] = []
        var open: [Int] = []
        func isInside(_ index: Int, _ outer: Int) -> Bool {
            var current = records[index].parent
            while let parent = current {
                if parent == outer { return true }
                current = records[parent].parent
            }
            return false
        }
        for index in order {
            while let last = open.last, !isInside(index, last) { result.append(open.removeLast()) }
            open.append(index)
        }
        while let last = open.popLast() { result.append(last) }
        return result
    }
}

/// A unit's line table as the writer reads it: rows without address 0 (discarded code), one row per address (the last
/// one stated), each with its size up to the next row or the sequence's end.
struct PreparedLineTable {
    struct Row {
        var address: UInt64
        var size: UInt64?
        var position: SourcePosition
    }

    private struct Sequence {
        var start: UInt64
        var end: UInt64
        var rows: [Row]
    }

    private var sequences: [Sequence] = []

    /// The rows of `table`, whose file `n` is path number `fileNumbers[n]` (`noFile` for a file it does not list).
    init(_ table: LineTable, fileNumbers: [UInt32], noFile: UInt32) {
        for sequence in table.sequences {
            var rows: [Row] = []
            for row in sequence.rows where row.address.rawValue != 0 {
                let position = SourcePosition(
                    file: Int(row.file) < fileNumbers.count ? fileNumbers[Int(row.file)] : noFile,
                    line: UInt64(row.line))
                if let last = rows.last, last.address == row.address.rawValue {
                    rows[rows.count - 1].position = position
                    continue
                }
                if !rows.isEmpty { rows[rows.count - 1].size = row.address.rawValue - rows[rows.count - 1].address }
                rows.append(Row(address: row.address.rawValue, size: nil, position: position))
            }
            guard let first = rows.first else { continue }
            let end = sequence.endAddress.rawValue
            if end >= rows[rows.count - 1].address { rows[rows.count - 1].size = end - rows[rows.count - 1].address }
            sequences.append(Sequence(start: first.address, end: end, rows: rows))
        }
        sequences.sort { $0.start < $1.start }
    }

    /// The rows of the first sequence that overlaps `start..<end`: from the row covering `start` (or the sequence's
    /// first) to the last row starting before `end`.
    func rows(overlapping start: UInt64, _ end: UInt64) -> ArraySlice<Row> {
        for sequence in sequences where !(start >= sequence.end || sequence.start >= end) {
            let rows = sequence.rows
            var low = 0, high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if rows[middle].address < start { low = middle + 1 } else { high = middle }
            }
            let from = low < rows.count && rows[low].address == start ? low : max(low - 1, 0)
            var last = from, upper = rows.count
            while last < upper {
                let middle = (last + upper) / 2
                if rows[middle].address < end { last = middle + 1 } else { upper = middle }
            }
            return rows[from..<last]
        }
        return []
    }
}
