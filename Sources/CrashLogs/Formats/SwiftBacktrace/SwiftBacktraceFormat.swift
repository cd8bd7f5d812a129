/// The Swift runtime's backtracer (`SWIFT_BACKTRACE`): its text report, or its JSON one.
enum SwiftBacktraceFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.swiftBacktrace
    static let markers = ["Program crashed: ", "crashReport"]

    static func recognizes(_ lines: [LogLine]) -> Bool { SwiftBacktraceParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        if let line = SwiftBacktraceJSONParser.reportLine(in: lines) {
            return try SwiftBacktraceJSONParser.parse(lines, bytes: bytes, reportLine: line, source: source)
        }
        return SwiftBacktraceParser.parse(lines)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        lines[number].text.includes("Program crashed: ")
    }

    /// The backtracer's report begins with the runtime's failure line and its `*** Signal N: Backtracing` line.
    static func reportStarts(in lines: [LogLine]) -> [Int] {
        lines.indices.filter { startsReport(at: $0, in: lines) }.map { start in
            var first = start
            while first > 0 {
                let previous = lines[first - 1].text
                guard
                    previous.trimmingWhitespace.isEmpty || previous.hasPrefix("*** Signal ")
                        || SwiftFatalParser.isRuntimeFailure(previous)
                else { break }
                first -= 1
            }
            while first < start, lines[first].text.trimmingWhitespace.isEmpty { first += 1 }
            return first
        }
    }
}
