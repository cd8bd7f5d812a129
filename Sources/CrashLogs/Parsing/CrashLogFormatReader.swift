/// One crash-log format: how a log of it is told apart from the others, read, and split into reports. Each format lives
/// in `Formats/<Format>/`, with its parsers and what writes its frame lines; ``CrashLogParser/readers`` lists the
/// readers in the order they are tried.
protocol CrashLogFormatReader: SendableMetatype {
    /// The format read.
    static var format: CrashLogFormat { get }
    /// Words a log of the format cannot lack: one search finds every format's, and a format none of whose words a log
    /// holds is not tried on it. Empty: always tried.
    static var markers: [String] { get }
    /// Whether `lines` are a log of the format.
    static func recognizes(_ lines: [LogLine]) -> Bool
    /// The report `lines` (whose bytes are `bytes`) hold; `detected` is false when the caller named the format.
    /// - Throws: ``CrashLogError`` when the log cannot be read as one of the format (a JSON body that does not parse).
    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    /// Whether line `number` of `lines` starts a report, in a log that holds several.
    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool
    /// The numbers of the lines that start reports, in order; lines before the first belong to the first report.
    static func reportStarts(in lines: [LogLine]) -> [Int]
    /// Formats whose report-starting lines a report of this format holds inside it (an Apple report quotes an uncaught
    /// exception's `Terminating app` line): such a line in one of its reports starts no other.
    static var embeddedFormats: Set<CrashLogFormat> { get }
    /// Formats whose reports, following one of this format from the same process, are more of it (this format's reader
    /// reads their stacks as its own): a glibc trace after a glibc trace (another thread), a sanitizer's report after a
    /// program's own trace.
    static var continuedBy: Set<CrashLogFormat> { get }
}

extension CrashLogFormatReader {
    /// Formats whose reports have no line of their own to start with (glibc's, whose stacks may be of one crash or of
    /// several) start none.
    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool { false }

    static func reportStarts(in lines: [LogLine]) -> [Int] {
        lines.indices.filter { startsReport(at: $0, in: lines) }
    }

    static var embeddedFormats: Set<CrashLogFormat> { [] }

    static var continuedBy: Set<CrashLogFormat> { [] }
}
