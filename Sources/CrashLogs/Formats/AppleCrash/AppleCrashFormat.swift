import LogFraming

/// Apple's text crash reports (`.crash`), symbolicated or not.
enum AppleCrashFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.appleCrash
    static let timeFields = ["Date/Time:"]
    static let markers = ["Thread ", "Exception Type:", "Incident Identifier:"]

    /// Its Application Specific Information quotes an uncaught exception's `Terminating app …` line and a Swift
    /// runtime's `Fatal error` line.
    static let embeddedFormats: Set<CrashLogFormat> = [.nsException, .swiftFatal]

    static func recognizes(_ lines: [LogLine]) -> Bool { AppleCrashParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        AppleCrashParser.parse(lines)
    }

    /// iOS reports start with their incident; macOS ones often with the process.
    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        let first = lines[number].firstByte
        guard first == UInt8(ascii: "I") || first == UInt8(ascii: "P") else { return false }
        let line = lines[number]
        if line.textStarts(with: "Incident Identifier:") { return true }
        return line.textStarts(with: "Process:")
            && !lines[max(0, number - 12)..<number].contains { $0.textStarts(with: "Incident Identifier:") }
    }
}
