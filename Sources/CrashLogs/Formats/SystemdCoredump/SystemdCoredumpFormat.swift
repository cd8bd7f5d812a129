import LogFraming

/// systemd-coredump's journal entry (`coredumpctl info`): the process, the signal, a stack per thread.
enum SystemdCoredumpFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.systemdCoredump
    static let readsInPieces = true
    static let timeFields = ["Timestamp:"]
    static let markers = ["Stack trace of thread "]

    static func recognizes(_ lines: [LogLine]) -> Bool { SystemdCoredumpParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        SystemdCoredumpParser.parse(lines)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        guard lines[number].lastNonBlankByte == UInt8(ascii: ".") else { return false }
        let text = lines[number].text
        return text.trimmingWhitespace.hasPrefix("Process ") && text.hasSuffix(" dumped core.")
    }
}
