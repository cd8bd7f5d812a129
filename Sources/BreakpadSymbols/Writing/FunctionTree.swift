/// A source position of a line record or call site: a file's path (as the line table names it) and a line.
struct SourcePosition: Hashable {
    var file: String
    var line: UInt64
}

/// A run of code at one source position: a line-table row, or the call line of an inlined call.
struct CodeLine {
    var address: UInt64
    /// `nil` when the row's end is not known (the last row of a sequence cut short).
    var size: UInt64?
    var position: SourcePosition

    var end: UInt64 { address &+ (size ?? 1) }
}

/// One function as a Breakpad symbol file describes it: its code, its own lines and the calls inlined into it, each a
/// tree of the same shape. Built as Mozilla's dump_syms builds it (through Sentry's symbolic), so that the records
/// written from it agree with that tool's: each line row lands on the innermost inlined call covering it, and a caller
/// gets a "call line" over each call inlined into it.
struct FunctionTree {
    var address: UInt64
    var size: UInt64
    /// The name as the debug information or symbol table gives it (mangled, for C++ and Swift).
    var name: String
    var lines: [CodeLine] = []
    var inlinees: [FunctionTree] = []

    var end: UInt64 { address &+ size }
}

/// One contiguous run of code of an inlined call, at its nesting depth (0: inlined into the function itself).
struct InlinedRun: Comparable {
    var depth: Int
    var address: UInt64
    var size: UInt64
    var name: String
    var call: SourcePosition

    static func < (lhs: InlinedRun, rhs: InlinedRun) -> Bool {
        (lhs.address, lhs.depth) < (rhs.address, rhs.depth)
    }

    static func == (lhs: InlinedRun, rhs: InlinedRun) -> Bool {
        (lhs.address, lhs.depth) == (rhs.address, rhs.depth)
    }
}

/// Gathers one function range's inlined runs and line rows, in any order, and nests them (``build()``).
struct FunctionTreeBuilder {
    private var function: FunctionTree
    private var runs: [InlinedRun] = []
    private var rows: [CodeLine] = []

    init(name: String, address: UInt64, size: UInt64) {
        function = FunctionTree(address: address, size: size, name: name)
    }

    var address: UInt64 { function.address }
    var end: UInt64 { function.end }

    /// Adds a run of an inlined call; runs starting before the function are not its.
    mutating func add(_ run: InlinedRun) {
        guard run.address >= function.address else { return }
        runs.append(run)
    }

    /// Adds a line row, which gives the position inside the innermost inlined call covering it.
    mutating func addRow(_ row: CodeLine) {
        guard row.address >= function.address else { return }
        rows.append(row)
    }

    /// The function with each inlined call nested in its caller, its call line in the caller, and each row on the
    /// innermost call that covers it (split where a call starts or ends inside it).
    func build() -> FunctionTree {
        let nested = Self.properlyNested(runs)
        let sortedRows = rows.enumerated().sorted { ($0.element.address, $0.offset) < ($1.element.address, $1.offset) }.map(\.element)
        var stack = TreeStack(function)
        let functionEnd = function.end
        var runIndex = 0
        var rowIndex = 0
        var pendingRow: CodeLine?
        while true {
            let nextRow = pendingRow ?? (rowIndex < sortedRows.count ? sortedRows[rowIndex] : nil)
            if runIndex < nested.count, nextRow == nil || nested[runIndex].address <= nextRow!.address {
                let run = nested[runIndex]
                stack.close(through: run.address)
                stack.close(deeperThan: run.depth)
                if run.address >= functionEnd { break }
                stack.innermost.lines.append(CodeLine(address: run.address, size: run.size, position: run.call))
                stack.open(FunctionTree(address: run.address, size: run.size, name: run.name))
                runIndex += 1
                continue
            }
            guard var row = nextRow else { break }
            if pendingRow != nil { pendingRow = nil } else { rowIndex += 1 }
            stack.close(through: row.address)
            if row.address >= functionEnd { break }
            if let size = row.size {
                let rowEnd = row.address &+ size
                let innermostEnd = stack.innermost.end
                let split = runIndex < nested.count ? min(nested[runIndex].address, innermostEnd) : innermostEnd
                if split < rowEnd {
                    var rest = row
                    rest.address = split
                    rest.size = rowEnd - split
                    row.size = split - row.address
                    stack.innermost.lines.append(row)
                    pendingRow = rest
                    continue
                }
            }
            stack.innermost.lines.append(row)
        }
        return stack.finish()
    }

    /// The runs by address, each inside its caller: a run with no caller at its depth is dropped, one overlapping the
    /// run before it at its depth starts where that one ends, and one running past its caller's end is split there.
    static func properlyNested(_ runs: [InlinedRun]) -> [InlinedRun] {
        // Sorted by descending (address, depth) so that the next run is the last; split parts are put back in order.
        var queue = runs.enumerated().sorted { ($0.element.address, $0.element.depth, $1.offset) > ($1.element.address, $1.element.depth, $0.offset) }.map(\.element)
        func pushBack(_ run: InlinedRun) {
            var low = 0, high = queue.count
            while low < high {
                let middle = (low + high) / 2
                if queue[middle] < run || queue[middle] == run { high = middle } else { low = middle + 1 }
            }
            queue.insert(run, at: low)
        }
        var result: [InlinedRun] = []
        var ends: [UInt64] = []
        while var run = queue.popLast() {
            let (runEnd, overflow) = run.address.addingReportingOverflow(run.size)
            guard !overflow else { continue }
            var end = runEnd
            if ends.count < run.depth { continue }
            if run.depth < ends.count {
                let siblingEnd = ends[run.depth]
                if end <= siblingEnd { continue }
                if run.address < siblingEnd {
                    run.address = siblingEnd
                    run.size = end - siblingEnd
                    pushBack(run)
                    continue
                }
            }
            ends.removeLast(ends.count - run.depth)
            if let callerEnd = ends.last {
                if run.address >= callerEnd { continue }
                if end > callerEnd {
                    var rest = run
                    rest.address = callerEnd
                    rest.size = end - callerEnd
                    pushBack(rest)
                    run.size = callerEnd - run.address
                    end = callerEnd
                }
            }
            result.append(run)
            ends.append(end)
        }
        return result
    }
}

/// The chain of calls open at the address being placed: the function at the bottom, the innermost call on top.
private struct TreeStack {
    private var frames: [FunctionTree]

    init(_ function: FunctionTree) { frames = [function] }

    var innermost: FunctionTree {
        get { frames[frames.count - 1] }
        set { frames[frames.count - 1] = newValue }
    }

    mutating func open(_ call: FunctionTree) { frames.append(call) }

    /// Closes the calls that end at or before `address`.
    mutating func close(through address: UInt64) {
        while frames.count > 1, frames[frames.count - 1].end <= address { closeInnermost() }
    }

    /// Closes the calls at `depth` and deeper.
    mutating func close(deeperThan depth: Int) {
        while frames.count > depth + 1 { closeInnermost() }
    }

    private mutating func closeInnermost() {
        let call = frames.removeLast()
        frames[frames.count - 1].inlinees.append(call)
    }

    mutating func finish() -> FunctionTree {
        while frames.count > 1 { closeInnermost() }
        return frames[0]
    }
}
