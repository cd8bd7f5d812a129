/// Apple's JSON crash reports (`.ips`): one line of JSON metadata, then the report's JSON body.
enum AppleIPSFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.appleIPS
    /// None: an `.ips` says what it is on its first line, read before the rest of a large log is searched.
    static let markers: [String] = []

    static func recognizes(_ lines: [LogLine]) -> Bool { AppleIPSParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError) -> CrashReport {
        try AppleIPSParser.parse(lines, bytes: bytes, source: source)
    }
}
