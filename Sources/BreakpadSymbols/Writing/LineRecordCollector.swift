/// Numbers files and inline origins in the order records first use them (`FILE n`, `INLINE_ORIGIN n`).
struct RecordNumbering {
    /// The files in the order records first use them, by their number in the ``SourcePathTable``.
    private(set) var files: [UInt32] = []
    /// For each path number, its `FILE` number (-1: none yet).
    private var fileNumbers: [Int32] = []
    /// The origins' names as stored (mangled), by number.
    private(set) var origins: [String] = []
    private var originNumbers: [String: UInt32] = [:]

    mutating func file(_ path: UInt32) -> UInt32 {
        if Int(path) < fileNumbers.count, fileNumbers[Int(path)] >= 0 { return UInt32(fileNumbers[Int(path)]) }
        if Int(path) >= fileNumbers.count {
            fileNumbers += [Int32](repeating: -1, count: Int(path) + 1 - fileNumbers.count)
        }
        let number = UInt32(files.count)
        files.append(path)
        fileNumbers[Int(path)] = Int32(number)
        return number
    }

    /// Origins are told apart by the name as stored (mangled), as dump_syms does: two manglings that read alike
    /// are two origins.
    mutating func origin(_ name: String) -> UInt32 {
        if let number = originNumbers[name] { return number }
        let number = UInt32(origins.count)
        origins.append(name)
        originNumbers[name] = number
        return number
    }
}

/// Turns a ``FunctionTree`` into a `FUNC`'s line and `INLINE` records: each address gets the line of the innermost
/// code covering it, and each inlined call an `INLINE` record at its depth with the call line of its caller.
struct LineRecordCollector {
    private(set) var lines: [BreakpadLine] = []
    private var inlines: [InlineSite: [BreakpadRange]] = [:]

    private struct InlineSite: Hashable, Comparable {
        var origin: UInt32
        var depth: Int
        var callLine: UInt64
        var callFile: UInt32

        static func < (lhs: InlineSite, rhs: InlineSite) -> Bool {
            (lhs.origin, lhs.depth, lhs.callLine, lhs.callFile) < (rhs.origin, rhs.depth, rhs.callLine, rhs.callFile)
        }
    }

    /// The records of `function`, numbering files and origins in `numbering`.
    static func records(of function: FunctionTree, numbering: inout RecordNumbering) -> (
        lines: [BreakpadLine], inlines: [BreakpadInline]
    ) {
        var collector = LineRecordCollector()
        collector.collect(function, depth: 0, numbering: &numbering)
        return collector.finish(functionAddress: function.address, functionSize: function.size)
    }

    private mutating func collect(_ function: FunctionTree, depth: Int, numbering: inout RecordNumbering) {
        var inlineRanges: [(start: UInt64, end: UInt64, origin: UInt32)] = []
        for inlinee in function.inlinees where !inlinee.lines.isEmpty {
            let origin = numbering.origin(inlinee.name)
            for line in inlinee.lines { inlineRanges.append((line.address, line.end, origin)) }
            collect(inlinee, depth: depth + 1, numbering: &numbering)
        }
        inlineRanges.sort { $0.start < $1.start }

        var nextInline = 0
        var previous: (line: UInt64, file: UInt32)?
        var lineIndex = 0
        let ownLines = function.lines
        while lineIndex < ownLines.count {
            let line = ownLines[lineIndex]
            let file = numbering.file(line.position.file)
            let number = line.position.line
            var current = line.address
            let lineEnd = line.end
            while current < lineEnd {
                if nextInline >= inlineRanges.count || inlineRanges[nextInline].start > current {
                    if previous.map({ $0.line != number || $0.file != file }) ?? true {
                        lines.append(BreakpadLine(address: current, size: 0, line: number, file: file))
                        previous = (number, file)
                    }
                }
                if nextInline < inlineRanges.count, inlineRanges[nextInline].start < lineEnd {
                    let range = inlineRanges[nextInline]
                    addInline(
                        InlineSite(origin: range.origin, depth: depth, callLine: number, callFile: file),
                        BreakpadRange(address: range.start, size: range.end &- range.start))
                    current = range.end
                    previous = nil
                    nextInline += 1
                } else {
                    current = lineEnd
                }
            }
            lineIndex += 1
            // Rows inside a call already placed are the call's (or damage): they were covered by its record.
            while lineIndex < ownLines.count, ownLines[lineIndex].address < current { lineIndex += 1 }
        }
    }

    private mutating func addInline(_ site: InlineSite, _ range: BreakpadRange) {
        inlines[site, default: []].append(range)
    }

    private func finish(functionAddress: UInt64, functionSize: UInt64) -> ([BreakpadLine], [BreakpadInline]) {
        var sortedLines = lines
        if zip(lines, lines.dropFirst()).contains(where: { $0.address > $1.address }) {
            sortedLines = lines.enumerated().sorted {
                ($0.element.address, $0.offset) < ($1.element.address, $1.offset)
            }.map(\.element)
        }
        for index in sortedLines.indices {
            if index + 1 < sortedLines.count {
                sortedLines[index].size = sortedLines[index + 1].address &- sortedLines[index].address
            } else {
                let (functionEnd, overflow) = UInt32(truncatingIfNeeded: functionAddress).addingReportingOverflow(
                    UInt32(truncatingIfNeeded: functionSize))
                if !overflow, sortedLines[index].address < UInt64(functionEnd) {
                    sortedLines[index].size = UInt64(functionEnd) - sortedLines[index].address
                }
            }
        }
        // Each site's ranges by address, adjacent ones joined; the sites in the order of their first range and depth.
        var records: [(site: InlineSite, ranges: [BreakpadRange])] = inlines.keys.sorted().map { site in
            var joined: [BreakpadRange] = []
            for range in inlines[site]!.sorted(by: { $0.address < $1.address }) {
                if let last = joined.last, last.address &+ last.size == range.address {
                    joined[joined.count - 1].size += range.size
                } else {
                    joined.append(range)
                }
            }
            return (site, joined)
        }
        records = records.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.ranges[0].address, lhs.element.site.depth),
                right = (rhs.element.ranges[0].address, rhs.element.site.depth)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        let inlineRecords = records.map { record in
            BreakpadInline(
                depth: record.site.depth, callLine: record.site.callLine, callFile: record.site.callFile,
                origin: record.site.origin, ranges: record.ranges)
        }
        return (sortedLines, inlineRecords)
    }
}
