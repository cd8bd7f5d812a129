import LogFraming

/// A Swift runtime's failure (`Fatal error: …`) with its `Current stack trace:`, or a `Received signal N. Backtrace:`
/// of the swift-backtrace package; systemd-coredump's and glibc's traces of the same crash may follow.
enum SwiftFatalFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.swiftFatal
    static let readsInPieces = true
    static let markers = [
        "Current stack trace:", "Received signal ", "Fatal error: ", "Assertion failed: ", "Precondition failed: "
    ]

    /// The stacks of the crash a `Fatal error` line states: glibc's, a sanitizer's, systemd-coredump's.
    static let continuedBy: Set<CrashLogFormat> = [.glibcBacktrace, .sanitizer, .systemdCoredump]

    static func recognizes(_ lines: [LogLine]) -> Bool {
        SwiftFatalParser.recognizes(lines) || SwiftBacktracePackageParser.recognizes(lines)
    }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        var report = SwiftFatalParser.parse(lines)
        SwiftBacktracePackageParser.appendStacks(to: &report)
        // A Swift runtime's failure, then the trace systemd-coredump logged of the same crash.
        if SystemdCoredumpParser.recognizes(lines) { SystemdCoredumpParser.appendStacks(to: &report) }
        GlibcBacktraceParser.appendStacks(to: &report)
        return report
    }

    /// A failure line right before its own trace header is one report with it.
    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        // A string is made only of a line that may start one (most lines of a log with a marker are not looked at
        // further).
        let line = lines[number]
        if line.withTextBytes(SwiftFatalParser.mayHoldFailureKind), SwiftFatalParser.isRuntimeFailure(line.text) {
            return true
        }
        return line.lastNonBlankByte == UInt8(ascii: ":") && line.textStarts(with: SwiftBacktracePackageParser.marker)
            && line.text.hasSuffix("Backtrace:")
    }
}
