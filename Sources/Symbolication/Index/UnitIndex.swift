import DWARF
import ObjectFiles

/// One unit's functions and lines, arranged for lookups.
struct UnitIndex {
    let contents: UnitContents
    /// Top-level functions (subprograms) by their ranges, to the index of their record.
    private let topLevel: RangeMap<Int>
    /// For each record, the index past the last record nested in it (records are in DIE order).
    private let subtreeEnd: [Int]

    init(contents: UnitContents) {
        self.contents = contents
        let functions = contents.functions
        var pairs: [(AddressRange, Int)] = []
        for (index, function) in functions.enumerated() where function.parent == nil {
            for range in function.ranges { pairs.append((range, index)) }
        }
        topLevel = RangeMap(pairs)
        var ends = Array(0..<functions.count).map { $0 + 1 }
        // Walk backwards: a record's subtree ends where its last descendant's subtree ends.
        for index in functions.indices.reversed() {
            if let parent = functions[index].parent { ends[parent] = max(ends[parent], ends[index]) }
        }
        subtreeEnd = ends
    }

    /// The records that cover `address`, outermost first: a subprogram and the inlined copies within it.
    func functionChain(at address: FileAddress) -> [FunctionRecord] {
        guard let top = topLevel.value(containing: address) else { return [] }
        let functions = contents.functions
        var deepest = top
        var index = top + 1
        while index < subtreeEnd[top] {
            if functions[index].depth > functions[deepest].depth, functions[index].contains(address) { deepest = index }
            index += 1
        }
        var chain: [FunctionRecord] = []
        var current: Int? = deepest
        while let position = current {
            chain.append(functions[position])
            current = position == top ? nil : functions[position].parent
        }
        return chain.reversed()
    }
}
