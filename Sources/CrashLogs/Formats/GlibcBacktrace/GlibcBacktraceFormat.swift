/// glibc's `backtrace_symbols` (and Darwin's), as programs print them from a signal handler.
enum GlibcBacktraceFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.glibcBacktrace
    static let markers = ["[0x", " 0x"]

    static func recognizes(_ lines: [LogLine]) -> Bool { GlibcBacktraceParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError) -> CrashReport {
        GlibcBacktraceParser.parse(lines)
    }
}
