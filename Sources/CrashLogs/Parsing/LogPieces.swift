/// The pieces a large log is read in: runs of whole lines of about `pieceSize` bytes each, for the formats that read
/// the same in pieces as whole (``CrashLogFormatReader/readsInPieces``).
enum LogPieces {
    static func split(_ bytes: [UInt8], pieceSize: Int) -> [Range<Int>] {
        guard bytes.count > pieceSize else { return [0..<bytes.count] }
        var pieces: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            var end = min(start + pieceSize, bytes.count)
            // To the end of the line the piece stops in.
            while end < bytes.count, bytes[end - 1] != UInt8(ascii: "\n") { end += 1 }
            pieces.append(start..<end)
            start = end
        }
        return pieces
    }

    /// How much of a piece's start is read to tell whether a report begins there.
    static let headLength = 4_096

    static func readsInPieces(_ format: CrashLogFormat?) -> Bool {
        format.map { CrashLogParser.reader(of: $0).readsInPieces } ?? false
    }

    static func needsTheWholeImageTable(_ format: CrashLogFormat?) -> Bool {
        format.map { CrashLogParser.reader(of: $0).needsTheWholeImageTable } ?? false
    }
}
