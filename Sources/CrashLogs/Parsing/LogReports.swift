import Dispatch
import LogFraming
import PostmortemCore
import Synchronization

/// The reports of one log, parsed a piece at a time when the log is large and its format allows it (see
/// ``LogPieces``), so that memory follows the piece, not the log. Shared by `symbolicate`, `group` and the server.
package enum LogReports {
    /// The size of the pieces a large log is read in; `POSTMORTEM_PIECE_SIZE` changes it (the tests cut small logs
    /// in many places with it).
    package static let pieceSize =
        FileSystem.environment("POSTMORTEM_PIECE_SIZE").flatMap { Int($0) }.map { max($0, 1) } ?? 8 << 20

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
        let pieces = cutAtReportStarts(input.pieces(pieceSize: pieceSize), of: input)
        // The first piece, read once: it decides whether the rest is read in pieces too.
        let firstBytes = input.read(pieces[0])
        try CrashLogParser.refuseBinary(firstBytes, source: source)
        var firstReports: [CrashReport]?
        if pieces.count > 1, let first = try? CrashLogParser.parseAll(firstBytes, source: source),
            LogPieces.readsInPieces(first.first?.format)
        {
            firstReports = first
        }
        let format = firstReports?.first?.format
        var imageTable: [CrashImage] = []
        if LogPieces.needsTheWholeImageTable(format) {
            // One piece at a time, keeping only the images.
            imageTable = CrashReport.mergedImageTable(
                pieces.map { piece in
                    ((try? CrashLogParser.parseAll(input.read(piece), source: source, format: format)) ?? []).flatMap(
                        \.images)
                })
        }
        let list = format == nil ? [0..<input.count] : pieces
        let (readFirst, images) = (firstReports, imageTable)
        // Each piece's reports, and whether the first continues a report the piece before began.
        let parse: @Sendable (Int) -> Result<(reports: [CrashReport], continues: Bool), CrashLogError> = { number in
            let piece = list[number]
            let bytes = number == 0 && piece == pieces[0] ? firstBytes : input.read(piece)
            do throws(CrashLogError) {
                var reports =
                    try number == 0 && readFirst != nil
                    ? readFirst!
                    : CrashLogParser.parseAll(text: bytes, source: source, format: format)
                if !images.isEmpty { for index in reports.indices { reports[index].adoptImages(images) } }
                // A piece that begins with a report's first line continues nothing (the process before it may be
                // another).
                let continues = number > 0 && !SeveralReports.beginsAReport(Array(bytes.prefix(LogPieces.headLength)))
                return .success((reports, continues))
            } catch { return .failure(error) }
        }
        // A file's pieces are parsed a piece ahead on another thread while this one hands the reports on (answering
        // and printing them take as long as parsing).
        let ahead = list.count > 2 && input.isFile ? PiecesAhead(count: list.count, parse: parse) : nil
        defer { ahead?.cancel() }
        for number in list.indices {
            let (reports, continues) = try (ahead?.take(number) ?? parse(number)).get()
            for (index, report) in reports.enumerated() { body(report, continues && index == 0) }
        }
    }
}

extension LogReports {
    /// How far past a piece's end a report's first line is looked for.
    static let reportStartSearch = 1 << 20

    /// `pieces` with each boundary moved forward to the first line of a report in the megabyte after it (a boundary
    /// with none stays where it is), so that no report is cut in two: its frames renumbered in one piece, its
    /// `SUMMARY:` line in the other, away from the frames it names.
    static func cutAtReportStarts(_ pieces: [Range<Int>], of input: LogInput) -> [Range<Int>] {
        guard pieces.count > 1 else { return pieces }
        var bounds = [0]
        for piece in pieces.dropFirst() where piece.lowerBound > bounds[bounds.count - 1] {
            let start = piece.lowerBound
            let window = input.read(start..<min(start + reportStartSearch, input.count))
            let lines = LogLine.split(window)
            let starts = SeveralReports.starts(in: lines, markers: CrashLogParser.formatMarkers.markers(in: window))
            // A glibc frame first is as likely the middle of a trace (``SeveralReports/beginsAReport(_:)``).
            var bound = start
            if let first = starts.first(where: { $0.line > 0 || $0.format != .glibcBacktrace }) {
                bound += lines[..<first.line].reduce(0) { $0 + $1.byteCount }
            }
            if bound > bounds[bounds.count - 1], bound < input.count { bounds.append(bound) }
        }
        bounds.append(input.count)
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }
}

/// Pieces of a log parsed in order on another thread, at most two ahead of the one taken.
private final class PiecesAhead: Sendable {
    typealias Parsed = Result<(reports: [CrashReport], continues: Bool), CrashLogError>
    private let results: Mutex<[Parsed?]>
    private let parsed: [DispatchSemaphore]
    /// Made with no room and given two: a semaphore freed below the value it was made with (a reader that stops
    /// early leaves it so) stops the process.
    private let room = DispatchSemaphore(value: 0)
    private let cancelled = Atomic(false)

    init(count: Int, parse: @escaping @Sendable (Int) -> Parsed) {
        results = Mutex(Array(repeating: nil, count: count))
        parsed = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        room.signal()
        room.signal()
        DispatchQueue.global().async { [self] in
            for number in 0..<count {
                room.wait()
                guard !cancelled.load(ordering: .relaxed) else { return }
                let result = parse(number)
                results.withLock { $0[number] = result }
                parsed[number].signal()
            }
        }
    }

    /// The pieces at `number`, waiting for it; makes room for the next.
    func take(_ number: Int) -> Parsed {
        parsed[number].wait()
        defer { room.signal() }
        return results.withLock { results in
            defer { results[number] = nil }
            return results[number]!
        }
    }

    /// Stops the parsing (the reader stopped taking pieces: an error, or the last was taken).
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        room.signal()
        room.signal()
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

    /// Runs of whole lines of about `pieceSize` bytes each: a piece ends at the end of the line its size reaches into,
    /// found a window at a time (a file is never read whole for it).
    func pieces(pieceSize: Int) -> [Range<Int>] {
        guard count > pieceSize else { return [0..<count] }
        var pieces: [Range<Int>] = []
        var start = 0
        while start < count {
            var end = min(start + pieceSize, count)
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
