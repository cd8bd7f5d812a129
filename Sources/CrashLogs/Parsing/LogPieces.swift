/// What decides how a large log is read in pieces (``LogInput/pieces(pieceSize:)`` cuts them): for the formats that read
/// the same in pieces as whole (``CrashLogFormatReader/readsInPieces``).
enum LogPieces {
    static func readsInPieces(_ format: CrashLogFormat?) -> Bool {
        format.map { CrashLogParser.reader(of: $0).readsInPieces } ?? false
    }

    static func needsTheWholeImageTable(_ format: CrashLogFormat?) -> Bool {
        format.map { CrashLogParser.reader(of: $0).needsTheWholeImageTable } ?? false
    }
}
