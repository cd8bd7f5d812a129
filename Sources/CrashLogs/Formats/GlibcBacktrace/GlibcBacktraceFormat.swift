import LogFraming

/// glibc's `backtrace_symbols` (and Darwin's), as programs print them from a signal handler.
enum GlibcBacktraceFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.glibcBacktrace
    static let readsInPieces = true
    static let markers = ["[0x", " 0x"]

    /// Another thread's trace; the sanitizer's report of the abort the program's own trace ended in.
    static let continuedBy: Set<CrashLogFormat> = [.glibcBacktrace, .sanitizer]

    static func recognizes(_ lines: [LogLine]) -> Bool { GlibcBacktraceParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        GlibcBacktraceParser.parse(lines)
    }

    /// A glibc trace has no line of its own to start with: it starts where a run of frame lines follows other text,
    /// with the lines just above it that introduce it (`tally: caught signal 11`, `Backtrace:`). Whether two traces
    /// are two crashes or two threads of one is for their load addresses to say (``SeveralReports``).
    static func reportStarts(in lines: [LogLine]) -> [Int] {
        var starts: [Int] = []
        var previousWasFrame = false
        for number in lines.indices {
            // A frame line ends in `]`: the test on the line's kept last byte spares every other line a look at its
            // text.
            let isFrame =
                lines[number].lastNonBlankByte == UInt8(ascii: "]")
                && lines[number].withTextBytes { GlibcBacktraceParser.frameParts(in: $0)?.module != nil }
            defer { previousWasFrame = isFrame }
            guard isFrame, !previousWasFrame else { continue }
            var first = number
            while first > 0, number - first < introductionLines, introducesTrace(lines[first - 1].text) { first -= 1 }
            starts.append(first)
        }
        return starts
    }

    /// How many lines above a trace's first frame may introduce it.
    private static let introductionLines = 3

    /// Whether `text` may be a line that introduces a trace: not blank, not indented (a line of a block above), no
    /// frame of glibc's, Darwin's (a Swift runtime's `Current stack trace:`) or a debugger's, no line of a sanitizer's
    /// report or of a JSON document.
    private static func introducesTrace(_ text: String) -> Bool {
        guard let first = text.utf8.first, !first.isBlank, !"{}[]\"#".utf8.contains(first) else { return false }
        return GlibcBacktraceParser.frame(in: text) == nil && GlibcBacktraceParser.darwinFrame(in: text) == nil
            && !text.hasPrefix("==") && !text.hasPrefix("SUMMARY:")
    }

    /// A sanitizer's `SUMMARY:` line (a glibc trace may follow or precede a sanitizer's report) symbolized as the
    /// sanitizer prints it.
    static func rewrittenLine(_ text: String, of report: CrashReport, by renderer: ReportTextRenderer) -> String? {
        renderer.sanitizerSummary(text, report: report)
    }
}
