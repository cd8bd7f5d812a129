/// What decides how a large log is read in pieces (``LogInput/pieces(pieceSize:)`` cuts them): for the formats that read
/// the same in pieces as whole (``CrashLogFormatReader/readsInPieces``).
enum LogPieces {
    /// How much of a piece's start is read to tell whether a report begins there.
    static let headLength = 4_096

    static func readsInPieces(_ format: CrashLogFormat?) -> Bool {
        format.map { CrashLogParser.reader(of: $0).readsInPieces } ?? false
    }

    static func needsTheWholeImageTable(_ format: CrashLogFormat?) -> Bool {
        format.map { CrashLogParser.reader(of: $0).needsTheWholeImageTable } ?? false
    }
}
