/// The pieces a large log is read in: runs of whole lines of about `pieceSize` bytes each. A log of a format whose
/// frames each name their image and their place in it (glibc's `module(+0x…)`, a sanitizer's `(module+0x…)`,
/// systemd-coredump's `(module + 0x…)`, a tombstone's, a Swift runtime's) reads the same in pieces as whole, stack by
/// stack; other formats need all of the log at once (a JSON document, a debugger's image table after its frames).
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
        switch format {
        case .glibcBacktrace, .sanitizer, .systemdCoredump, .androidTombstone, .swiftFatal, .gdbBacktrace,
            .lldbBacktrace:
            true
        default: false
        }
    }

    /// A debugger's log gives its images in a table (`info proc mappings`, `image list`) anywhere in the log, often
    /// after the frames: every piece is read once for it before the frames are.
    static func needsTheWholeImageTable(_ format: CrashLogFormat?) -> Bool {
        format == .gdbBacktrace || format == .lldbBacktrace
    }
}
