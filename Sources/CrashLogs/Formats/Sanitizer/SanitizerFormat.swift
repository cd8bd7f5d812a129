import LogFraming
import PostmortemCore

/// Reports of AddressSanitizer and its kin (LSan, TSan, MSan, UBSan, HWASan), after the program's own trace if any.
enum SanitizerFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.sanitizer
    static let readsInPieces = true
    static let markers = ["Sanitizer", ": runtime error: "]

    /// A program's own glibc trace of the same process, which the sanitizer's reader reads too.
    static let continuedBy: Set<CrashLogFormat> = [.glibcBacktrace]

    static func recognizes(_ lines: [LogLine]) -> Bool { SanitizerParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        // A sanitizer report may follow a program's own trace: a Swift runtime's or glibc's.
        var report = SanitizerParser.parse(lines)
        if ByteSearch.contains("Current stack trace:", in: bytes) {
            SwiftFatalParser.appendStacks(to: &report)
        }
        GlibcBacktraceParser.appendStacks(to: &report)
        // A program's own trace, then the sanitizer's report of the abort it ended in: the log is the program's.
        if detected, let first = firstTraceBeforeSanitizer(lines) { report.format = first }
        return report
    }

    /// A report's first line: `==PID==ERROR: AddressSanitizer: …` (and LSan's, HWASan's), MSan's
    /// `==PID== WARNING: MemorySanitizer: …`, TSan's `WARNING: ThreadSanitizer: …`, UBSan's
    /// `file:line:column: runtime error: …`.
    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        // Cheap test first: no start is indented, and most lines of a report are (its frames, its shadow bytes).
        let first = lines[number].firstByte
        guard first != 0, first != UInt8(ascii: " ") else { return false }
        // Over the line's bytes: no string is made of a line that starts nothing.
        let line = lines[number]
        if line.textStarts(with: "==") {
            return
                (line.textContains("==ERROR: ") || line.textContains("== WARNING: ")
                || line.textContains("==WARNING: ")) && line.textContains("Sanitizer")
        }
        return line.textStarts(with: "WARNING: ThreadSanitizer:") || line.textContains(": runtime error: ")
    }

    /// The format of a program's own trace (a Swift runtime's, glibc's) when it comes before the first frame of a
    /// sanitizer's report in the same log.
    static func firstTraceBeforeSanitizer(_ lines: [LogLine]) -> CrashLogFormat? {
        for line in lines {
            if SanitizerParser.frame(in: line.text) != nil { return nil }
            if line.text.hasPrefix("Current stack trace:") { return .swiftFatal }
            if GlibcBacktraceParser.frame(in: line.text)?.module != nil { return .glibcBacktrace }
        }
        return nil
    }

    /// A sanitizer's `SUMMARY:` line (a glibc trace may follow or precede a sanitizer's report) symbolized as the
    /// sanitizer prints it.
    static func rewrittenLine(_ text: String, of report: CrashReport, by renderer: ReportTextRenderer) -> String? {
        renderer.sanitizerSummary(text, report: report)
    }
}
