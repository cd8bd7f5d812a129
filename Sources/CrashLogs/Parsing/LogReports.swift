import PostmortemCore

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
        try CrashLogParser.refuseBinary(bytes, source: source)
        let pieces = LogPieces.split(bytes, pieceSize: pieceSize)
        // The first piece, read once: it decides whether the rest is read in pieces too.
        var firstReports: [CrashReport]?
        if pieces.count > 1, let first = try? CrashLogParser.parseAll(Array(bytes[pieces[0]]), source: source),
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
                    ((try? CrashLogParser.parseAll(Array(bytes[piece]), source: source, format: format)) ?? []).flatMap(
                        \.images)
                })
        }
        for (number, piece) in (format == nil ? [0..<bytes.count] : pieces).enumerated() {
            var reports =
                try number == 0 && firstReports != nil
                ? firstReports!
                : CrashLogParser.parseAll(Array(bytes[piece]), source: source, format: format)
            if !imageTable.isEmpty { for index in reports.indices { reports[index].adoptImages(imageTable) } }
            // A piece that begins with a report's first line continues nothing (the process before it may be another).
            let continues =
                number > 0 && !SeveralReports.beginsAReport(Array(bytes[piece].prefix(LogPieces.headLength)))
            for (index, report) in reports.enumerated() { body(report, continues && index == 0) }
        }
    }
}
