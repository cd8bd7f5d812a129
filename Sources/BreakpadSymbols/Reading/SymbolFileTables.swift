import ObjectFiles
import Symbolication

/// The records of a symbol file's index as tables of numbers in one block of bytes, each record's text a range of the
/// symbol file: built from a parse, or mapped from the index cache, read the same way either time.
struct SymbolFileTables: Sendable {
    /// The tables, in the order they are stored.
    enum Table: Int, CaseIterable {
        case files, origins, functions, lines, inlines, inlineRanges, publics, callFrameInits, callFrameDeltas
        /// The lines that could not be read, as text (a line each).
        case problems
    }

    /// The kind an index-cache file of these tables says it holds.
    static let kind = "breakpad-symbols-1"

    /// The bytes the tables are in.
    let bytes: ImmutableBytes
    /// Each table's bytes, by ``Table``.
    let ranges: [Range<Int>]

    /// The tables of what `parser` read, functions, public symbols and call-frame records sorted by address; the
    /// parser's arrays are emptied as their records are copied, so that memory holds each record about once.
    init(_ parser: inout SymbolFileParser) {
        var functions = Self.sortedByAddress(parser.functions, \.address)
        var publics = Self.sortedByAddress(parser.publics, \.address)
        var callFrameInits = Self.sortedByAddress(parser.callFrameInits, \.address)
        (parser.functions, parser.publics, parser.callFrameInits) = ([], [], [])
        var files = parser.files.map(TextRecord.init), origins = parser.origins.map(TextRecord.init)
        let problemText = Array(parser.problems.joined(separator: "\n").utf8)
        func words<Record: StoredRecord>(_ records: [Record]) -> Int { records.count * Record.wordCount }
        let counts = [
            words(files), words(origins), words(functions), words(parser.lines), words(parser.inlines),
            words(parser.inlineRanges), words(publics), words(callFrameInits), words(parser.callFrameDeltas),
            (problemText.count + 7) / 8
        ]
        var ranges: [Range<Int>] = []
        var start = 0
        for (table, count) in counts.enumerated() {
            let length = table == Table.problems.rawValue ? problemText.count : count * 8
            ranges.append(start..<start + length)
            start += count * 8
        }
        // Written straight into the bytes the index reads, whose pages are taken only as they are written.
        bytes = ImmutableBytes(count: start) { buffer in
            var writer = StoredWordWriter(buffer)
            func table<Record: StoredRecord>(_ records: inout [Record]) {
                for record in records { record.store(into: &writer) }
                records = []
            }
            table(&files)
            table(&origins)
            // Records are written by address; a file that is not is sorted, its lines and inlines keeping their runs.
            table(&functions)
            table(&parser.lines)
            table(&parser.inlines)
            table(&parser.inlineRanges)
            table(&publics)
            // dump_syms lists `.debug_frame`'s functions, then `.eh_frame`'s: sorted, each keeping its changes.
            table(&callFrameInits)
            table(&parser.callFrameDeltas)
            writer.append(text: problemText)
        }
        self.ranges = ranges
    }

    /// The tables of an index-cache file; `nil` when it holds another number of tables.
    init?(_ file: TableFile) {
        guard file.metadata.kind == Self.kind, file.tables.count == Table.allCases.count else { return nil }
        bytes = file.bytes
        ranges = file.tables
    }

    /// The records of `table`.
    func records<Record: StoredRecord>(_ table: Table, as _: Record.Type = Record.self) -> StoredRecords<Record> {
        StoredRecords(bytes, range: ranges[table.rawValue])
    }

    /// The problems the parse found, a line each.
    var problems: [String] {
        let text = bytes.bytes(ranges[Table.problems.rawValue])
        return text.isEmpty ? [] : text.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `records` by `key`, in their order when they are already sorted (as writers write them: no copy).
    private static func sortedByAddress<Record>(_ records: [Record], _ key: (Record) -> UInt64) -> [Record] {
        var sorted = true
        for index in records.indices.dropFirst() where key(records[index - 1]) > key(records[index]) {
            sorted = false
            break
        }
        return sorted ? records : records.sorted { key($0) < key($1) }
    }
}
