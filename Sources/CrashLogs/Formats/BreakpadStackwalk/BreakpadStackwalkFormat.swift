import LogFraming

/// minidump-stackwalk's output: its text, or its machine-readable rows (`--machine-readable`).
enum BreakpadStackwalkFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.breakpadStackwalk
    static let markers = ["Operating system:", "OS|"]

    static func recognizes(_ lines: [LogLine]) -> Bool {
        BreakpadStackwalkParser.recognizes(lines) || BreakpadMachineReadableParser.recognizes(lines)
    }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        BreakpadMachineReadableParser.recognizes(lines)
            ? BreakpadMachineReadableParser.parse(lines) : BreakpadStackwalkParser.parse(lines)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        lines[number].firstByte == UInt8(ascii: "O") && lines[number].textStarts(with: "Operating system:")
    }
}
