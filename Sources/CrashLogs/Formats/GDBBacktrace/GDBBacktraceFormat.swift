import LogFraming

/// gdb's `bt` (and `thread apply all bt`), with the lines before it that say why the program stopped.
enum GDBBacktraceFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.gdbBacktrace
    static let readsInPieces = true
    static let needsTheWholeImageTable = true
    static let markers = ["#"]

    static func recognizes(_ lines: [LogLine]) -> Bool { GDBBacktraceParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        GDBBacktraceParser.parse(lines)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        guard lines[number].firstByte == UInt8(ascii: "P") else { return false }
        let text = lines[number].text
        return text.startsWithBytes("Program received signal ")
            || text.startsWithBytes("Program terminated with signal ")
    }
}
