import LogFraming

/// Uncaught Objective-C exceptions: the reason and its call stack, as symbols (`callStackSymbols`) or bare addresses.
enum NSExceptionFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.nsException
    static let markers = [
        "uncaught exception", "throw call stack", "Call stack at first throw", "Fatal Exception: ",
        "Application Specific Backtrace", "Application received signal "
    ]

    static func recognizes(_ lines: [LogLine]) -> Bool { NSExceptionParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        NSExceptionParser.parse(lines)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        lines[number].textContains("Terminating app due to uncaught exception")
    }

    /// Printed back whole: its address lists get lines of their own after them.
    static func renderedWhole(_ report: CrashReport, by renderer: ReportTextRenderer) -> [UInt8]? {
        renderer.renderNSException(report)
    }
}
