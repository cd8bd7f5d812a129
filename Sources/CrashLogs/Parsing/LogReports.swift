import LogFraming
import PostmortemCore

/// The reports of one log, parsed a piece at a time when the log is large and its format allows it (see
/// ``LogPieces``), so that memory follows the piece, not the log. Shared by `symbolicate`, `group` and the server.
package enum LogReports {
    /// The size of the pieces a large log is read in, a megabyte: what a piece parses to is held until it is
    /// printed, three pieces at a time, and a megabyte of short traces parses to some twenty megabytes of reports.
    /// `POSTMORTEM_PIECE_SIZE` changes it (the tests cut small logs in many places with it).
    package static let pieceSize =
        FileSystem.environment("POSTMORTEM_PIECE_SIZE").flatMap { Int($0) }.map { max($0, 1) } ?? 1 << 20
    /// The size of a large log's first piece, which decides alone how the rest is read.
    static let firstPieceSize = 1 << 20

    /// Calls `body` with each report of `bytes` in order, and whether it continues a report the previous piece began;
    /// throws the first parse error, after the reports before it.
    /// - Parameter source: the log's name, as reports and errors give it.
    package static func forEach(in bytes: [UInt8], source: String, _ body: (CrashReport, _ continuing: Bool) -> Void)
        throws(CrashLogError)
    {
        try forEach(in: .bytes(bytes), source: source, body)
    }

    /// Calls `body` with each report of `input` in order (a file is read a piece at a time, never whole, when its
    /// format reads the same in pieces), and whether it continues a report the previous piece began; throws the first
    /// parse error, after the reports before it.
    /// - Parameter source: the log's name, as reports and errors give it.
    package static func forEach(in input: LogInput, source: String, _ body: (CrashReport, _ continuing: Bool) -> Void)
        throws(CrashLogError)
    {
        // The pieces as parsed: only the parsing is done on other threads.
        let asParsed: @Sendable (ParsedPiece, () -> Void?) -> (ParsedPiece, Void) = { piece, _ in (piece, ()) }
        try forEachPiece(in: input, source: source, work: asParsed, makeWorker: { asParsed }) { piece in
            for (index, report) in piece.reports.enumerated() { body(report, piece.continues && index == 0) }
        }
    }

    /// Reads `input` as ``forEach(in:source:_:)`` does, a piece at a time, and has each piece's reports made into
    /// something (symbolicated and printed): by `work` on the calling thread, or, when the log is a file of more than
    /// two pieces, on other threads, each by a worker of its own (`makeWorker`, called on that thread, so its state is
    /// never shared). `deliver` gets what each piece was made into, in the log's order, on the calling thread. Making a
    /// piece whose first report continues the piece before, a worker can ask what the one that made that piece
    /// carried on from its last report (waiting for it). Each piece is given to its maker, not lent: its reports may be
    /// symbolicated in place, with no copy. Throws the first parse error, after what the pieces before it were made
    /// into.
    package static func forEachPiece<Made: Sendable, Carried: Sendable>(
        in input: LogInput, source: String,
        work: (consuming ParsedPiece, _ carriedIn: () -> Carried?) -> (Made, Carried),
        makeWorker: @escaping @Sendable () -> (consuming ParsedPiece, _ carriedIn: () -> Carried?) -> (Made, Carried),
        deliver: (Made) -> Void
    ) throws(CrashLogError) {
        // The first piece is read alone, before the others (it says how they are read): a small one keeps the other
        // threads from waiting on it long.
        let uncut = input.pieces(pieceSize: pieceSize, firstPieceSize: firstPieceSize)
        let head = input.read(uncut[0])
        try CrashLogParser.refuseBinary(head, source: source)
        // Every piece is unwrapped as the first: a log read whole is, by what its first lines show. Reports are looked
        // for unwrapped too (a JSON-lines log's report starts are in its messages).
        let framing = uncut.count > 1 ? CrashLogParser.framing(of: head, format: nil) : nil
        let cut = cutAtReportStarts(uncut, of: input, framing: framing)
        let pieces = cut.pieces
        // The first piece, read once: it decides whether the rest is read in pieces too.
        let firstBytes = pieces[0] == uncut[0] ? head : input.read(pieces[0])
        var firstReports: [CrashReport]?
        if pieces.count > 1,
            let first = try? CrashLogParser.parseAll(text: firstBytes, source: source, format: nil, framing: framing),
            LogPieces.readsInPieces(first.reports.first?.format)
        {
            firstReports = first.reports
        }
        let format = firstReports?.first?.format
        var imageTable: [CrashImage] = []
        if LogPieces.needsTheWholeImageTable(format) {
            // One piece at a time, keeping only the images.
            imageTable = CrashReport.mergedImageTable(
                pieces.map { piece in
                    let parsed = try? CrashLogParser.parseAll(
                        text: input.read(piece), source: source, format: format, framing: framing)
                    return (parsed?.reports ?? []).flatMap(\.images)
                })
        }
        let list = format == nil ? [0..<input.count] : pieces
        let (readFirst, images, firstFraming) = (firstReports, imageTable, framing)
        // Each piece's reports, and whether the first continues a report the piece before began.
        let parse: @Sendable (Int) -> Result<ParsedPiece, CrashLogError> = { number in
            let piece = list[number]
            let bytes = number == 0 && piece == pieces[0] ? firstBytes : input.read(piece)
            do throws(CrashLogError) {
                var reports =
                    try number == 0 && readFirst != nil
                    ? readFirst!
                    : CrashLogParser.parseAll(text: bytes, source: source, format: format, framing: firstFraming)
                        .reports
                if !images.isEmpty { for index in reports.indices { reports[index].adoptImages(images) } }
                // Only where the cut fell inside a report too large to keep whole does a piece go on with the one
                // before (one that begins with frames may be a new process's: a glibc trace's heading is left before).
                let continues = number > 0 && cut.continuing.contains(piece.lowerBound)
                return .success(ParsedPiece(reports: reports, continues: continues))
            } catch { return .failure(error) }
        }
        // A file's pieces are parsed and made on other threads while this one hands them on.
        if list.count > 2, input.isFile {
            let ahead = PiecesAhead(count: list.count, parse: parse, makeWorker: makeWorker)
            defer { ahead.cancel() }
            for number in list.indices { deliver(try ahead.take(number).get()) }
            return
        }
        var carried: Carried?
        for number in list.indices {
            let (made, carriedOut) = work(try parse(number).get()) { [carried] in carried }
            carried = carriedOut
            deliver(made)
        }
    }
}

/// One piece of a log, parsed: its reports, and whether the first continues the last report of the piece before.
package struct ParsedPiece: Sendable {
    /// The piece's reports, in the log's order.
    package var reports: [CrashReport]
    /// Whether the first report goes on from the piece before (a report larger than a piece).
    package var continues: Bool
}

extension LogReports {
    /// How far past a piece's end a report's first line is looked for: a short way first (most logs start a report
    /// every few kilobytes, and each boundary is searched before any piece is parsed), then farther, as far as a
    /// report is kept whole (one larger is read in pieces, its later ones continuing it).
    static let reportStartSearches = [max(pieceSize / 64, 1), pieceSize, largestWholeReport]

    /// The size up to which a report is never cut, eight pieces: pieces are small (memory follows a piece's reports),
    /// and a report of a few megabytes (a deep recursion, a debugger's every thread) is still one report, in `--json`
    /// and `group`.
    static let largestWholeReport = 8 * pieceSize

    /// `pieces` with each boundary moved forward to the first line of a report after it, looked for as far as
    /// ``largestWholeReport``, so that no report is cut in two: its frames renumbered in one piece, its `SUMMARY:` line
    /// in the other, away from the frames it names. A report larger than that is cut where the pieces end (its later
    /// pieces continue it); the rest of a log that begins no report within that reach ends the report before, and is
    /// read with it.
    /// - Parameter framing: what carried the log's lines (JSON lines, a prefix), taken off before reports are looked
    ///   for; `nil` or none for a log as read.
    static func cutAtReportStarts(_ pieces: [Range<Int>], of input: LogInput, framing: LogFraming? = nil) -> CutLog {
        guard pieces.count > 1 else { return CutLog(pieces: pieces, continuing: []) }
        var bounds = [0]
        // How far the last search found no report start: a boundary before it is inside a report too large to keep.
        var noStartBefore = 0
        // The bounds inside such a report (not where one begins).
        var continuing: Set<Int> = []
        for piece in pieces.dropFirst() where piece.lowerBound > bounds[bounds.count - 1] {
            let start = piece.lowerBound
            if start < noStartBefore {
                bounds.append(start)
                continuing.insert(start)
                continue
            }
            switch nextReportStart(from: start, in: input, framing: framing?.isNone == false ? framing : nil) {
            case .found(let bound):
                bounds.append(bound)
            case .none(let searchedUpTo):
                // The rest ends the report the last piece began in, unless that piece began inside it: then it is
                // too large to keep whole already.
                if searchedUpTo >= input.count, !continuing.contains(bounds[bounds.count - 1]) {
                    return CutLog(pieces: finished(bounds, input.count), continuing: continuing)
                }
                bounds.append(start)
                continuing.insert(start)
                noStartBefore = searchedUpTo
            }
        }
        return CutLog(pieces: finished(bounds, input.count), continuing: continuing)
    }

    /// A log cut into pieces, and where a piece goes on with the report the piece before began.
    struct CutLog {
        var pieces: [Range<Int>]
        /// The first offsets of the pieces that begin inside a report (too large to keep whole), not where one begins.
        var continuing: Set<Int>
    }

    /// The pieces between `bounds` and `end`.
    private static func finished(_ bounds: [Int], _ end: Int) -> [Range<Int>] {
        zip(bounds, bounds.dropFirst() + [end]).map { $0..<$1 }
    }

    /// Where the first report that begins at or after `start` begins, looked for as far as ``largestWholeReport``.
    private enum ReportStart {
        case found(Int)
        /// None from `start` up to this offset.
        case none(searchedUpTo: Int)
    }

    private static func nextReportStart(from start: Int, in input: LogInput, framing: LogFraming?) -> ReportStart {
        var searchedUpTo = start
        for search in reportStartSearches {
            let window = input.read(start..<min(start + search, input.count))
            let rawLines = LogLine.split(window)
            // The lines as parsed, and for each the line of the window it came from.
            var lines = rawLines, origins: [Int]?, bytes = window
            if let framing {
                (lines, origins) = framing.unwrapWithOrigins(rawLines)
                bytes = LogLine.joinedBytes(lines)
            }
            let starts = SeveralReports.starts(in: lines, markers: CrashLogParser.formatMarkers.markers(in: bytes))
            // A glibc frame first is as likely the middle of a trace as its start.
            if let first = starts.first(where: { $0.line > 0 || $0.format != .glibcBacktrace }) {
                let rawLine = origins?[first.line] ?? first.line
                return .found(start + rawLines[..<rawLine].reduce(0) { $0 + $1.byteCount })
            }
            searchedUpTo = start + window.count
            if window.count < search { break }
        }
        return .none(searchedUpTo: searchedUpTo)
    }
}

/// A log's bytes: in memory, or a file read a piece at a time, so that a log of hundreds of megabytes is never held
/// whole (see ``LogReports``).
package enum LogInput: Sendable {
    case bytes([UInt8])
    /// A regular file of `size` bytes.
    case file(path: String, size: Int)

    /// Whether the log is a file read a piece at a time.
    var isFile: Bool {
        if case .file = self { true } else { false }
    }

    /// How many bytes the log has.
    package var count: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .file(_, let size): size
        }
    }

    /// The bytes in `range` (fewer when a file was cut short since).
    package func read(_ range: Range<Int>) -> [UInt8] {
        switch self {
        case .bytes(let bytes): Array(bytes[range.clamped(to: 0..<bytes.count)])
        case .file(let path, _):
            range.isEmpty ? [] : FileSystem.read(path, offset: UInt64(range.lowerBound), count: range.count) ?? []
        }
    }

    /// Runs of whole lines of about `pieceSize` bytes each (the first of `firstPieceSize`, when the log is cut at
    /// all): a piece ends at the end of the line its size reaches into, found a window at a time (a file is never read
    /// whole for it).
    func pieces(pieceSize: Int, firstPieceSize: Int? = nil) -> [Range<Int>] {
        guard count > pieceSize else { return [0..<count] }
        var pieces: [Range<Int>] = []
        var start = 0
        while start < count {
            var end = min(start + (start == 0 ? min(firstPieceSize ?? pieceSize, pieceSize) : pieceSize), count)
            while end < count {
                let window = read((end - 1)..<min(end - 1 + 65_536, count))
                if let newline = window.firstIndex(of: UInt8(ascii: "\n")) {
                    end += newline
                    break
                }
                end = window.isEmpty ? count : min(end + window.count, count)
            }
            pieces.append(start..<end)
            start = end
        }
        return pieces
    }
}
