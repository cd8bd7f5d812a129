/// A source position of a line record or call site: a file (by its number in a ``SourcePathTable``) and a line.
struct SourcePosition: Hashable {
    var file: UInt32
    var line: UInt64
}

/// Source paths by number, each normalized once (`.` and `..` applied), so that records carry numbers, not strings.
/// Two paths that normalize alike are one file, as in dump_syms.
struct SourcePathTable {
    private(set) var paths: [String] = []
    private var numbers: [String: UInt32] = [:]
    private var byNormalized: [String: UInt32] = [:]

    /// The number of `path` (as a line table or call site names it).
    mutating func number(of path: String) -> UInt32 {
        if let number = numbers[path] { return number }
        let normalized = Self.normalized(path)
        let number: UInt32
        if let known = byNormalized[normalized] {
            number = known
        } else {
            number = UInt32(paths.count)
            paths.append(normalized)
            byNormalized[normalized] = number
        }
        numbers[path] = number
        return number
    }

    /// `path` with `.` and empty components removed and `..` applied, as dump_syms normalizes source paths.
    static func normalized(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", isAbsolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return isAbsolute ? "/" + joined : joined.isEmpty ? "." : joined
    }
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
        let isSorted = zip(rows, rows.dropFirst()).allSatisfy { $0.address <= $1.address }
        let sortedRows =
            isSorted
            ? rows
            : rows.enumerated().sorted { ($0.element.address, $0.offset) < ($1.element.address, $1.offset) }.map(
                \.element)
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
                stack.appendToInnermost(CodeLine(address: run.address, size: run.size, position: run.call))
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
                let innermostEnd = stack.innermostEnd
                let split = runIndex < nested.count ? min(nested[runIndex].address, innermostEnd) : innermostEnd
                if split < rowEnd {
                    var rest = row
                    rest.address = split
                    rest.size = rowEnd - split
                    row.size = split - row.address
                    stack.appendToInnermost(row)
                    pendingRow = rest
                    continue
                }
            }
            stack.appendToInnermost(row)
        }
        return stack.finish()
    }

    /// The runs by address, each inside its caller: a run with no caller at its depth is dropped, one overlapping the
    /// run before it at its depth starts where that one ends, and one running past its caller's end is split there.
    static func properlyNested(_ runs: [InlinedRun]) -> [InlinedRun] {
        // Sorted by descending (address, depth) so that the next run is the last; split parts are put back in order.
        var queue = runs.enumerated().sorted {
            ($0.element.address, $0.element.depth, $1.offset) > ($1.element.address, $1.element.depth, $0.offset)
        }.map(\.element)
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

    /// The innermost open call's end.
    var innermostEnd: UInt64 { frames[frames.count - 1].end }

    /// Adds a line to the innermost open call, in place (a copy of the call would copy its lines each time).
    mutating func appendToInnermost(_ line: CodeLine) {
        frames[frames.count - 1].lines.append(line)
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
