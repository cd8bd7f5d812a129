import PostmortemCore

/// A unit's line table as gdb builds it (gdb 13's DWARF reader and `buildsym`), for `info line` answers that match
/// gdb's: one table per source file ("subfile"), rows of line 0 left out (the row before them runs on), an end marker
/// (line 0) where the file changes and where a sequence ends, consecutive rows of one line kept unless the line has a
/// discriminator, markers at an address dropping the rows before them there, and each table sorted by address with
/// markers first.
struct GDBLineTable {
    struct Entry {
        var address: UInt64
        var line: UInt32
        var isStatement: Bool
    }

    struct Subfile {
        /// The name gdb shows: the unit's `DW_AT_name` for its primary file, else the file's name below its include
        /// directory as the line table gives them.
        var name: String
        var entries: [Entry]
    }

    /// In gdb's order: the primary file first, then the others, the last started first.
    var subfiles: [Subfile]

    /// What gdb's `find_pc_line` finds at `address`: the line, its file and the addresses it covers; `nil` when gdb
    /// finds no line there.
    func line(at address: UInt64) -> (line: Int, file: String, start: UInt64, end: UInt64?)? {
        var best: (entry: Entry, subfile: Int)?
        var bestEnd: UInt64?
        var alternative: UInt64?
        for (position, subfile) in subfiles.enumerated() {
            let entries = subfile.entries
            guard let first = entries.first else { continue }
            if first.address > address, alternative.map({ first.address < $0 }) ?? true { alternative = first.address }
            // The first entry past `address`, and the one before it.
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].address <= address { low = middle + 1 } else { high = middle }
            }
            let next = low
            // An end marker (line 0) is never the best: another file's row at its address is.
            if low > 0, entries[low - 1].line != 0, best.map({ entries[low - 1].address > $0.entry.address }) ?? true {
                var chosen = low - 1
                // A row that is no statement gives way to a statement at its address.
                if !entries[chosen].isStatement {
                    var earlier = chosen
                    while earlier > 0, entries[earlier - 1].address == entries[earlier].address,
                        entries[earlier - 1].line != 0,
                        !entries[earlier].isStatement
                    {
                        earlier -= 1
                    }
                    if entries[earlier].isStatement { chosen = earlier }
                }
                best = (entries[chosen], position)
                if let end = bestEnd, end <= entries[chosen].address { bestEnd = nil }
            }
            if let found = best, next < entries.count, entries[next].address > found.entry.address,
                bestEnd.map({ $0 > entries[next].address }) ?? true
            {
                bestEnd = entries[next].address
            }
        }
        guard let best, best.entry.line != 0 else { return nil }
        var end = bestEnd
        if end == nil, let alternative {
            end = alternative
        } else if let alternative, let current = end, alternative < current {
            end = alternative
        }
        return (Int(best.entry.line), subfiles[best.subfile].name, best.entry.address, end)
    }
}

/// Builds a ``GDBLineTable`` from a line program's rows, as gdb's line-number state machine records them.
struct GDBLineTableBuilder: LineProgramSink {
    /// gdb's name for each file number, and the key that tells files apart (their full path).
    private let names: [(shown: String, identity: String)?]
    private var subfiles: [GDBLineTable.Subfile] = []
    private var subfileByIdentity: [String: Int] = [:]
    /// Subfiles in the order they were started (gdb lists the last started first, after the primary one).
    private var started: [Int] = []

    // The state machine, reset at each sequence.
    /// The file the program is in (gdb's current subfile): file 1 when a sequence starts, then each `DW_LNS_set_file`'s.
    private var currentSubfile: Int?
    /// gdb's `m_last_subfile`: the file of the last row recorded, or the file the program was in before its last
    /// `DW_LNS_set_file` (gdb sets it there too), whichever came last.
    private var lastSubfile: Int?
    private var lastLine: UInt64 = 0
    private var machineAddress: UInt64 = 0
    private var statementAtAddress = false
    private var previousLine: UInt64?
    private var lineHasDiscriminator = false
    private var sequenceStarted = false
    /// Whether the unit named its primary file (subfile 0).
    private let hasPrimary: Bool

    /// - Parameters:
    ///   - names: gdb's name of each file number (`nil` for numbers with no file).
    ///   - primary: the unit's `DW_AT_name` and its full path: gdb's first file, which the line table's entry for the
    ///     same file joins.
    init(names: [(shown: String, identity: String)?], primary: (shown: String, identity: String)?) {
        self.names = names
        hasPrimary = primary != nil
        if let primary { _ = subfile(primary) }
    }

    private mutating func subfile(_ name: (shown: String, identity: String)) -> Int {
        if let known = subfileByIdentity[name.identity] { return known }
        subfiles.append(GDBLineTable.Subfile(name: name.shown, entries: []))
        subfileByIdentity[name.identity] = subfiles.count - 1
        started.append(subfiles.count - 1)
        return subfiles.count - 1
    }

    /// `buildsym`'s `record_line`: a marker (line 0) drops the rows at its address before it, and is not recorded
    /// after nothing or after another marker.
    private mutating func record(_ subfile: Int, line: UInt32, address: UInt64, isStatement: Bool) {
        if line == 0 {
            var lastLine: UInt32?
            while let last = subfiles[subfile].entries.last {
                lastLine = last.line
                if last.address != address { break }
                subfiles[subfile].entries.removeLast()
            }
            guard let lastLine, lastLine != 0 else { return }
        }
        subfiles[subfile].entries.append(GDBLineTable.Entry(address: address, line: line, isStatement: isStatement))
    }

    private mutating func finishLine(at address: UInt64) {
        guard let lastSubfile else { return }
        record(lastSubfile, line: 0, address: address, isStatement: true)
    }

    /// The subfile of file number `file`, started when new; `nil` for a number with no file.
    private mutating func subfile(number file: UInt64) -> Int? {
        guard Int(file) < names.count, let name = names[Int(file)] else { return nil }
        return subfile(name)
    }

    /// gdb starts the subfile of file 1 as each sequence starts.
    private mutating func startSequenceIfNeeded() {
        guard !sequenceStarted else { return }
        sequenceStarted = true
        currentSubfile = subfile(number: 1)
    }

    mutating func setFile(_ file: UInt64) {
        startSequenceIfNeeded()
        // gdb's `handle_set_file`: the file left becomes the last one, whether or not a row of it was recorded.
        lastSubfile = currentSubfile
        lineHasDiscriminator = false
        currentSubfile = subfile(number: file)
    }

    mutating func row(
        address: UInt64, file: UInt64, line: UInt64, column: UInt64, isStatement: Bool, discriminator: UInt64
    ) {
        startSequenceIfNeeded()
        // gdb's flag that lets rows of one line be merged: set by a discriminator, renewed when the line changes.
        if previousLine != line {
            lineHasDiscriminator = discriminator != 0
        } else if discriminator != 0 {
            lineHasDiscriminator = true
        }
        previousLine = line
        guard let current = currentSubfile ?? subfile(number: file) else { return }
        let fileChanged = lastSubfile != current
        let ignore = (fileChanged && machineAddress == address && !isStatement && statementAtAddress) || line == 0
        if fileChanged, !ignore { finishLine(at: address) }
        if !ignore, fileChanged || line != lastLine || !lineHasDiscriminator {
            lastSubfile = current
            record(current, line: UInt32(truncatingIfNeeded: line), address: address, isStatement: isStatement)
            lastLine = line
        }
        if machineAddress != address {
            statementAtAddress = false
            machineAddress = address
        }
        statementAtAddress = statementAtAddress || isStatement
    }

    mutating func endSequence(at address: UInt64) {
        finishLine(at: address)
        sequenceStarted = false
        currentSubfile = nil
        lastSubfile = nil
        lastLine = 0
        machineAddress = 0
        statementAtAddress = false
        previousLine = nil
        lineHasDiscriminator = false
    }

    /// The table: each file's rows sorted by address (markers first at an address, the order of others kept), the
    /// primary file first and the others last started first.
    func table() -> GDBLineTable {
        var ordered: [GDBLineTable.Subfile] = []
        // gdb makes a file's symbol table after reading the line program, in the order of the line table's file
        // names, then puts the primary file first.
        var order: [Int] = started.first.map { [$0] } ?? []
        for name in names.compactMap({ $0 }) {
            if let index = subfileByIdentity[name.identity], !order.contains(index) { order.append(index) }
        }
        for index in started where !order.contains(index) { order.append(index) }
        var subfiles = subfiles
        // gdb's `watch_main_source_file_lossage`: a primary file that no file name of the line table named, and so
        // holds no rows, takes the rows and the name of the one other file of its base name.
        if hasPrimary, let primary = subfiles.first, primary.entries.isEmpty,
            !names.contains(where: { $0.map { subfileByIdentity[$0.identity] == 0 } ?? false })
        {
            let base = FilePath.fileName(of: primary.name)
            let aliases = order.dropFirst().filter { FilePath.fileName(of: subfiles[$0].name) == base }
            if aliases.count == 1, let alias = aliases.first {
                subfiles[0] = subfiles[alias]
                order.removeAll { $0 == alias }
            }
        }
        for index in order {
            var subfile = subfiles[index]
            subfile.entries = subfile.entries.enumerated().sorted { lhs, rhs in
                if lhs.element.address != rhs.element.address { return lhs.element.address < rhs.element.address }
                if (lhs.element.line == 0) != (rhs.element.line == 0) { return lhs.element.line == 0 }
                return lhs.offset < rhs.offset
            }.map(\.element)
            ordered.append(subfile)
        }
        return GDBLineTable(subfiles: ordered)
    }
}
