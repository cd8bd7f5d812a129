import LogFraming

/// Apple's JSON crash reports (`.ips`): one line of JSON metadata, then the report's JSON body.
enum AppleIPSFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.appleIPS
    static let timeFields = ["\"timestamp\"", "\"captureTime\""]
    /// None: an `.ips` says what it is on its first line, read before the rest of a large log is searched.
    static let markers: [String] = []

    /// Its body quotes an uncaught exception's `Terminating app …` line, a Swift runtime's `Fatal error` line, and
    /// (a text report converted from it, or one it was converted from) an Apple text report's header.
    static let embeddedFormats: Set<CrashLogFormat> = [.nsException, .swiftFatal, .appleCrash]

    static func recognizes(_ lines: [LogLine]) -> Bool { AppleIPSParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        try AppleIPSParser.parse(lines, bytes: bytes, source: source)
    }
}
