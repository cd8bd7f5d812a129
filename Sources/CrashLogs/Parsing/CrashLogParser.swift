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

    static func detectFormat(_ lines: [LogLine], bytes: [UInt8], markers known: MarkerScan.Found? = nil)
        -> CrashLogFormat?
    {
        // Searched for once, and only when a format with markers is tried (an `.ips` says what it is on its first line).
        var found = known
        for reader in readers {
            if !reader.markers.isEmpty {
                let present = found ?? formatMarkers.markers(in: bytes)
                found = present
                guard reader.markers.contains(where: present.contains) else { continue }
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
        let (lines, content) = unwrapped(bytes, format: format)
        return try parse(lines: lines, bytes: content, source: source, format: format)
    }

    /// Throws when `bytes` are no text (a core, a binary, a compressed log), naming what they look like.
    static func refuseBinary(_ bytes: [UInt8], source: String) throws(CrashLogError) {
        if let binary = BinaryInput.kind(of: bytes) {
            throw CrashLogError(
                source: source, detail: binary.description, isUnknownFormat: true, remedy: binary.remedy)
        }
    }

    /// The lines of the log in `bytes` as its parsers read them, and their bytes: JSON lines opened to the messages
    /// they carry (``JSONLogLines``), then a logger's prefix moved out of each line (``LinePrefixes``), each only when
    /// the log parses at least as well for it.
    static func unwrapped(_ bytes: [UInt8], format: CrashLogFormat?) -> (lines: [LogLine], bytes: [UInt8]) {
        var lines = LogLine.split(bytes)
        var content = bytes
        if let opened = openedJSONLines(lines, format: format) {
            lines = opened
            content = LogLine.joinedBytes(opened)
        }
        if let stripped = withoutLinePrefixes(lines, format: format) {
            lines = stripped
            content = LogLine.joinedBytes(stripped)
        }
        return (lines, content)
    }

    /// Every report in the log in `bytes`: one for most logs, one per crash for a log that holds several, of one
    /// format or of several, cut where a report of any format starts (``SeveralReports``). Each report holds its own
    /// lines and images; printed one after the other, they give the log back.
    /// - Throws: ``CrashLogError`` when the format is not recognised, as ``parse(_:source:format:)``.
    public static func parseAll(_ bytes: [UInt8], source: String, format: CrashLogFormat? = nil) throws(CrashLogError)
        -> [CrashReport]
    {
        try refuseBinary(bytes, source: source)
        let (lines, content) = unwrapped(bytes, format: format)
        let markers = formatMarkers.markers(in: content)
        let whole = try parse(lines: lines, bytes: content, source: source, format: format, markers: markers)
        let starts = SeveralReports.worthCutting(SeveralReports.starts(in: lines, markers: markers), whole: whole)
        // One report's start below a preamble (a sanitizer's `DEADLYSIGNAL` line, a glibc trace's heading): one report.
        if starts.count <= 1, starts.first.map({ $0.format == whole.format }) ?? true { return [whole] }
        if SeveralReports.isOneProcess(whole, starts: starts) { return [whole] }
        return SeveralReports.read(lines, starts: starts, whole: whole, source: source, format: format) ?? [whole]
    }

    /// `lines` opened to the messages they carry when they are JSON lines (``JSONLogLines``) and the messages hold as
    /// many frames as the objects or more (a parser may find frames in the objects' text too, with the rest of the
    /// object glued to them); `nil` otherwise.
    static func openedJSONLines(_ lines: [LogLine], format: CrashLogFormat?) -> [LogLine]? {
        guard let opened = JSONLogLines.opened(lines) else { return nil }
        let sample = LinePrefixes.sampleSize
        return frameCount(Array(opened.prefix(sample)), format: format)
            >= frameCount(Array(lines.prefix(sample)), format: format) ? opened : nil
    }

    /// How many frames `lines` parse to (0 for lines of no known format).
    static func frameCount(_ lines: [LogLine], format: CrashLogFormat?) -> Int {
        guard let report = try? parse(lines: lines, bytes: LogLine.joinedBytes(lines), source: "", format: format)
        else { return 0 }
        return report.threads.reduce(0) { $0 + $1.frames.count }
    }

    /// `lines` with the prefix a logger put before each of them moved out of their text (``LinePrefixes``), when
    /// they have one and the log parses at least as well without it: as many frames or more, and either more frames or
    /// a prefix on nine lines in ten (a prefix glued to paths still lets frames be read, but not resolved). `nil`
    /// when they have none.
    static func withoutLinePrefixes(_ lines: [LogLine], format: CrashLogFormat?) -> [LogLine]? {
        let sample = lines.prefix(LinePrefixes.sampleSize)
        let candidates = LinePrefixes.candidates(in: sample)
        guard !candidates.isEmpty else { return nil }
        let framesAsIs = frameCount(Array(sample), format: format)
        // Longest first: the shortest that passes could be part of a longer prefix (a timestamp before a host).
        for shape in candidates.prefix(6) {
            let stripped = LinePrefixes.strip(shape, from: Array(sample))
            let frames = frameCount(stripped, format: format)
            guard frames > 0, frames >= framesAsIs else { continue }
            if frames > framesAsIs || LinePrefixes.coverage(of: shape, in: sample) >= 0.9 {
                return LinePrefixes.strip(shape, from: lines)
            }
        }
        return nil
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
