import LogFraming
public import PostmortemCore

/// Why a log could not be parsed.
public struct CrashLogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The log's name, as given (a path, or `-` for standard input).
    public var source: String
    /// What is wrong, in one line.
    public var detail: String
    /// The input is no log of a format this version reads (rather than a log of one that is cut or damaged).
    public var isUnknownFormat: Bool
    /// What the user can do about it, when something can be done.
    public var remedy: Remedy?

    /// An error about `source`; `isUnknownFormat` when no parser recognised it.
    public init(source: String, detail: String, isUnknownFormat: Bool = false, remedy: Remedy? = nil) {
        self.source = source
        self.detail = detail
        self.isUnknownFormat = isUnknownFormat
        self.remedy = remedy
    }

    /// The source and the detail, in one line.
    public var description: String { "\(source): \(detail)" }
}

/// Detects a log's format and parses it.
public enum CrashLogParser {
    /// Every format's reader, in the order they are tried (the research notes' detection order): a format goes before
    /// those whose logs it could be taken for.
    static let readers: [any CrashLogFormatReader.Type] = [
        AppleIPSFormat.self, AppleCrashFormat.self, AndroidTombstoneFormat.self, BreakpadStackwalkFormat.self,
        NSExceptionFormat.self, SanitizerFormat.self, SwiftBacktraceFormat.self, SwiftFatalFormat.self,
        SystemdCoredumpFormat.self, ELFCoreFormat.self, ProcessStacksFormat.self, MinidumpReportFormat.self,
        GDBBacktraceFormat.self, LLDBBacktraceFormat.self, GlibcBacktraceFormat.self
    ]

    /// The formats this version parses, in the order they are tried.
    public static let supportedFormats: [CrashLogFormat] = readers.map { $0.format }

    /// The reader of `format`.
    static func reader(of format: CrashLogFormat) -> any CrashLogFormatReader.Type {
        guard let reader = readers.first(where: { $0.format == format }) else {
            preconditionFailure("no reader of \(format.rawValue) in CrashLogParser.readers")
        }
        return reader
    }

    /// The format of the log, or `nil` when it is none this version reads. Each format is first ruled
    /// out, when it can be, by one search over the whole log for a marker it cannot lack.
    public static func detectFormat(_ lines: [LogLine]) -> CrashLogFormat? {
        detectFormat(lines, bytes: LogLine.joinedBytes(lines))
    }

    /// Every format's markers, found in one pass.
    static let formatMarkers = MarkerScan(markers: readers.flatMap { $0.markers })
    /// Each reader's markers (in the order of ``readers``), for a test of a scan's findings in one instruction.
    static let readerMarkers: [MarkerScan.MarkerSet] = readers.map { reader in formatMarkers.set(of: reader.markers) }

    static func detectFormat(_ lines: [LogLine], bytes: [UInt8], markers known: MarkerScan.Found? = nil)
        -> CrashLogFormat?
    {
        // Searched for once, and only when a format with markers is tried (an `.ips` says what it is on its first line).
        var found = known
        for (index, reader) in readers.enumerated() {
            if !reader.markers.isEmpty {
                let present = found ?? formatMarkers.markers(in: bytes)
                found = present
                guard present.containsAny(of: readerMarkers[index]) else { continue }
            }
            if reader.recognizes(lines) { return reader.format }
        }
        return nil
    }

    /// Parses the log in `bytes`; `format` forces one.
    /// - Parameter source: the file name (or `-`) errors name.
    /// - Throws: ``CrashLogError`` when the format is not recognised or not supported yet.
    public static func parse(_ bytes: [UInt8], source: String, format: CrashLogFormat? = nil) throws(CrashLogError)
        -> CrashReport
    {
        try refuseBinary(bytes, source: source)
        let (lines, content, _) = unwrapped(bytes, format: format)
        return try parse(lines: lines, bytes: content, source: source, format: format)
    }

    /// Throws when `bytes` are no text (a core, a binary, a compressed log), naming what they look like.
    static func refuseBinary(_ bytes: [UInt8], source: String) throws(CrashLogError) {
        if let binary = BinaryInput.kind(of: bytes) {
            throw CrashLogError(
                source: source, detail: binary.description, isUnknownFormat: true, remedy: binary.remedy)
        }
    }

    /// The lines of the log in `bytes` as its parsers read them, and their bytes: unwrapped from what carried them
    /// (JSON lines, a logger's prefix) as ``LogFraming`` decides, judged by how many frames the log parses to.
    /// - Parameter known: the framing to unwrap with (a later piece of a large log is read as its first piece was);
    ///   found on the lines when `nil`.
    static func unwrapped(_ bytes: [UInt8], format: CrashLogFormat?, framing known: LogFraming? = nil) -> (
        lines: [LogLine], bytes: [UInt8], framing: LogFraming
    ) {
        let lines = LogLine.split(bytes)
        let framing = known ?? framing(ofLines: lines, format: format)
        if framing.isNone { return (lines, bytes, framing) }
        let unwrapped = framing.unwrap(lines)
        return (unwrapped, LogLine.joinedBytes(unwrapped), framing)
    }

    /// What carried the lines of the log that starts with `bytes` (JSON lines, a logger's prefix), judged by how many
    /// frames the log parses to; only the first lines, the sample ``LogFraming`` judges by, are split.
    static func framing(of bytes: [UInt8], format: CrashLogFormat?) -> LogFraming {
        framing(ofLines: LogLine.split(bytes, maximumLines: LinePrefixes.sampleSize), format: format)
    }

    private static func framing(ofLines lines: [LogLine], format: CrashLogFormat?) -> LogFraming {
        LogFraming.of(lines) { frameCount($0, format: format) }
    }

    /// Every report in the log in `bytes`: one for most logs, one per crash for a log that holds several, of one
    /// format or of several, cut where a report of any format starts (``SeveralReports``). Each report holds its own
    /// lines and images; printed one after the other, they give the log back.
    /// - Throws: ``CrashLogError`` when the format is not recognised, as ``parse(_:source:format:)``.
    public static func parseAll(_ bytes: [UInt8], source: String, format: CrashLogFormat? = nil) throws(CrashLogError)
        -> [CrashReport]
    {
        try refuseBinary(bytes, source: source)
        return try parseAll(text: bytes, source: source, format: format)
    }

    /// ``parseAll(_:source:format:)`` of bytes known to be a log's (a later piece of a large one, whose first piece
    /// was found text): control bytes in them are lines of the log, not a reason to refuse it.
    static func parseAll(text bytes: [UInt8], source: String, format: CrashLogFormat?) throws(CrashLogError)
        -> [CrashReport]
    {
        try parseAll(text: bytes, source: source, format: format, framing: nil).reports
    }

    /// ``parseAll(text:source:format:)`` unwrapped with `framing` (found on the lines when `nil`: a log's first piece
    /// finds it, the later pieces are read with it, as a log read whole is), and the framing used.
    static func parseAll(text bytes: [UInt8], source: String, format: CrashLogFormat?, framing: LogFraming?)
        throws(CrashLogError) -> (reports: [CrashReport], framing: LogFraming)
    {
        let (lines, content, framing) = unwrapped(bytes, format: format, framing: framing)
        var reports = try parseAll(lines: lines, content: content, source: source, format: format)
        // One report of every line, as split from the bytes: printed back unchanged, it is the bytes.
        if framing.isNone, reports.count == 1, reports[0].lines == lines { reports[0].bytesAsRead = bytes }
        return (reports, framing)
    }

    /// The reports of a log's lines, once unwrapped, and their bytes.
    private static func parseAll(lines: [LogLine], content: [UInt8], source: String, format: CrashLogFormat?)
        throws(CrashLogError) -> [CrashReport]
    {
        let markers = formatMarkers.markers(in: content)
        let detected = format ?? detectFormat(lines, bytes: content, markers: markers)
        let allStarts = SeveralReports.starts(in: lines, markers: markers)
        if let detected, SeveralReports.isPlainSeries(allStarts, of: detected),
            let reports = SeveralReports.read(
                lines, content: content, starts: allStarts, whole: nil, source: source, format: format)
        {
            return reports
        }
        guard let detected else {
            // No format: the one error every reader gives.
            return [try parse(lines: lines, bytes: content, source: source, format: nil, markers: markers)]
        }
        let whole = try reader(of: detected).read(lines, bytes: content, source: source, detected: format == nil)
        let starts = SeveralReports.worthCutting(allStarts, whole: whole)
        // One report's start below a preamble (a sanitizer's `DEADLYSIGNAL` line, a glibc trace's heading): one report.
        if starts.count <= 1, starts.first.map({ $0.format == whole.format }) ?? true { return [whole] }
        if SeveralReports.isOneProcess(whole, starts: starts) { return [whole] }
        return SeveralReports.read(
            lines, content: content, starts: starts, whole: whole, source: source, format: format) ?? [whole]
    }

    /// How many frames `lines` parse to (0 for lines of no known format).
    static func frameCount(_ lines: [LogLine], format: CrashLogFormat?) -> Int {
        guard let report = try? parse(lines: lines, bytes: LogLine.joinedBytes(lines), source: "", format: format)
        else { return 0 }
        return report.threads.reduce(0) { $0 + $1.frames.count }
    }

    static func parse(
        lines: [LogLine], bytes: [UInt8], source: String, format forced: CrashLogFormat?,
        markers: MarkerScan.Found? = nil
    ) throws(CrashLogError) -> CrashReport {
        guard let format = forced ?? detectFormat(lines, bytes: bytes, markers: markers) else {
            throw CrashLogError(
                source: source,
                detail: "no crash log or trace of a known format (this version reads: "
                    + supportedFormats.map(\.rawValue).joined(separator: ", ") + ")", isUnknownFormat: true)
        }
        return try reader(of: format).read(lines, bytes: bytes, source: source, detected: forced == nil)
    }
}
