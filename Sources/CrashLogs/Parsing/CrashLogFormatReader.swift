import LogFraming
import PostmortemCore

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
    /// Whether a large log of the format reads the same in pieces of whole lines as whole, stack by stack: each of
    /// its frames names its image and its place in it (glibc's `module(+0x…)`, a sanitizer's `(module+0x…)`), where
    /// other formats need the whole log at once (a JSON document, an image table after the frames).
    static var readsInPieces: Bool { get }
    /// Whether its logs give their images in a table anywhere in the log, often after the frames (a debugger's `info
    /// proc mappings`, `image list`): every piece is then read once for it before the frames are.
    static var needsTheWholeImageTable: Bool { get }
    /// The fields whose value is when the crash happened (`Date/Time:`, a JSON `"timestamp"`), in the order they are
    /// looked for.
    static var timeFields: [String] { get }
    /// The report printed back whole, where its format is not rewritten line by line (an exception's call stack whose
    /// resolved addresses get lines of their own); `nil`: each frame line rewritten by its ``FrameLineStyle``.
    static func renderedWhole(_ report: CrashReport, by renderer: ReportTextRenderer) -> [UInt8]?
    /// Lines the format lays out a thread at a time (their columns follow the widest frame), by line number; each
    /// replaces its line. Others are rewritten one by one. None when no frame of the report resolved (the renderer
    /// then prints the log as it was without asking).
    static func laidOutLines(of report: CrashReport) -> [Int: [String]]
    /// A line that is no frame, rewritten with what symbolication found (a sanitizer's `SUMMARY:` line); `nil` keeps it.
    /// Always `nil` when no frame of the report resolved (the renderer then prints the log as it was without asking).
    static func rewrittenLine(_ text: String, of report: CrashReport, by renderer: ReportTextRenderer) -> String?
    /// The objects a resolved frame's object of a JSON report becomes, one a symbol of its inline chain: `kept` is the
    /// frame object's members other than the symbol fields, `members` all of them. Xcode's style unless the format
    /// writes its own (``XcodeJSONFrames``).
    static func symbolicatedJSONObjects(
        _ frame: CrashFrame, kept: [(key: String, value: JSONNode)], members: [(key: String, value: JSONNode)],
        bytes: [UInt8], report: CrashReport
    ) -> [String]
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

    static var readsInPieces: Bool { false }

    static var needsTheWholeImageTable: Bool { false }

    static var timeFields: [String] { [] }

    static func renderedWhole(_ report: CrashReport, by renderer: ReportTextRenderer) -> [UInt8]? { nil }

    static func laidOutLines(of report: CrashReport) -> [Int: [String]] { [:] }

    static func rewrittenLine(_ text: String, of report: CrashReport, by renderer: ReportTextRenderer) -> String? {
        nil
    }

    static func symbolicatedJSONObjects(
        _ frame: CrashFrame, kept: [(key: String, value: JSONNode)], members: [(key: String, value: JSONNode)],
        bytes: [UInt8], report: CrashReport
    ) -> [String] {
        XcodeJSONFrames.objects(frame, kept: kept, bytes: bytes)
    }
}
