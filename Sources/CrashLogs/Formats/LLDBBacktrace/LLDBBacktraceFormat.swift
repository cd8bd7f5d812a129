import LogFraming

/// lldb's `bt` (and `bt all`).
enum LLDBBacktraceFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.lldbBacktrace
    static let readsInPieces = true
    static let needsTheWholeImageTable = true
    static let markers = ["frame #"]

    static func recognizes(_ lines: [LogLine]) -> Bool { LLDBBacktraceParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        LLDBBacktraceParser.parse(lines)
    }
}
