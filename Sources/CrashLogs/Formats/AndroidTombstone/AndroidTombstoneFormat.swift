import LogFraming

/// Android tombstones, as debuggerd writes them and as logcat shows them.
enum AndroidTombstoneFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.androidTombstone
    static let readsInPieces = true
    static let timeFields = ["Timestamp:"]
    static let markers = [" pc ", "Build fingerprint:"]

    static func recognizes(_ lines: [LogLine]) -> Bool { AndroidTombstoneParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        AndroidTombstoneParser.parse(lines)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        lines[number].firstByte == UInt8(ascii: "*") && lines[number].textStarts(with: "*** *** *** *** ***")
    }
}
